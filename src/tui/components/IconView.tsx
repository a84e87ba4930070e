/** The intern's icon as half-block colour cells: each cell is two pixels, top in the foreground, bottom in the background. */
import { colourOn } from '../theme.js';
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { makeDirs, writeFileAtomic } from '../../files.js';
import { join } from 'node:path';
import { Box } from 'ink';
import { Text } from './Text.js';
import { useEffect, useState } from 'react';
import type { InternApi } from '../../client/types.js';
import { API_KEY_HASH_PATTERN } from '../../contract/rules.js';

type Rgb = [number, number, number];

/** Samples the image down to `cols` x `2*rows` pixels (alpha blended on black). */
export function toCells(img: { width: number; height: number; data: Uint8Array }, cols: number, rows: number): [Rgb, Rgb][][] {
  const px = (x: number, y: number): Rgb => {
    const sx = Math.min(img.width - 1, Math.floor(((x + 0.5) * img.width) / cols));
    const sy = Math.min(img.height - 1, Math.floor(((y + 0.5) * img.height) / (rows * 2)));
    const i = (sy * img.width + sx) * 4;
    const a = (img.data[i + 3] ?? 255) / 255;
    return [Math.round(img.data[i]! * a), Math.round(img.data[i + 1]! * a), Math.round(img.data[i + 2]! * a)];
  };
  const out: [Rgb, Rgb][][] = [];
  for (let r = 0; r < rows; r++) {
    const row: [Rgb, Rgb][] = [];
    for (let c = 0; c < cols; c++) row.push([px(c, r * 2), px(c, r * 2 + 1)]);
    out.push(row);
  }
  return out;
}

const hex = ([r, g, b]: Rgb) => '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');

/** Fetches with `v=<sha>` and caches on disk by hash; a cached icon costs no request. */
async function loadIcon(api: InternApi, internId: string, sha: string, cacheDir: string): Promise<Uint8Array> {
  // The hash names the cache file, so it must be a hash and nothing else.
  const safe = API_KEY_HASH_PATTERN.test(sha);
  const file = join(cacheDir, `${sha}.img`);
  if (safe && existsSync(file)) return readFileSync(file);
  const icon = await api.getInternIcon(internId, sha);
  // Kept only under its own hash: bytes that are not what the hash names (another service's, a
  // proxy's page) would be shown for every intern with that hash, from any service.
  if (safe && createHash('sha256').update(icon.bytes).digest('hex') === sha) {
    makeDirs(cacheDir);
    // Whole or not at all: another TUI may read the same cache.
    writeFileAtomic(file, icon.bytes);
  }
  return icon.bytes;
}

/**
 * Icons already drawn, by hash and size: the details screen is drawn again after every detach and
 * every return from a form, and each time read the icon from disk, decoded it and drew the screen a
 * second time. The oldest goes past this many.
 */
const DRAWN_MAX = 32;
const drawn = new Map<string, [Rgb, Rgb][][]>();

export function IconView(props: { api: InternApi; internId: string; sha: string | null; cacheDir: string; cols?: number; rows?: number }) {
  const { api, internId, sha, cacheDir, cols = 8, rows = 4 } = props;
  const key = sha ? `${sha} ${cols}x${rows}` : '';
  const [cells, setCells] = useState<[Rgb, Rgb][][] | null>(() => drawn.get(key) ?? null);
  useEffect(() => {
    const known = drawn.get(key);
    setCells(known ?? null);
    if (!sha || known) return;
    let live = true;
    loadIcon(api, internId, sha, cacheDir)
      // The decoders (pngjs, jpeg-js) load with the first icon, not at start-up.
      .then(async (bytes) => {
        const { decodeIcon } = await import('./decodeIcon.js');
        const made = toCells(decodeIcon(bytes), cols, rows);
        drawn.set(key, made);
        if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
        if (live) setCells(made);
      })
      .catch(() => live && setCells(null));
    return () => {
      live = false;
    };
  }, [api, internId, sha, cacheDir, cols, rows, key]);
  // Pixels are colour itself: the no-colour theme leaves the icon's room empty.
  if (!cells || !colourOn()) return <Box width={cols} height={rows} />;
  return (
    <Box flexDirection="column" width={cols} flexShrink={0}>
      {cells.map((row, r) => (
        <Text key={r}>
          {row.map(([top, bottom], c) => (
            <Text key={c} color={hex(top)} backgroundColor={hex(bottom)}>
              ▀
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
