import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { InternApi } from '../../src/client/types.js';
import { IconView } from '../../src/tui/components/IconView.js';
import { pngIcon } from '../../src/sandbox/icons.js';
import { waitForFrame } from './render.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('IconView', () => {
  it('draws an icon it has drawn before at once, without fetching, reading or decoding it again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'icon-test-'));
    const bytes = pngIcon(3);
    let fetched = 0;
    const api = {
      getInternIcon: async () => {
        fetched++;
        return { bytes, contentType: 'image/png' };
      },
    } as unknown as InternApi;
    const sha = 'a'.repeat(64);
    const first = render(<IconView api={api} internId="i-1" sha={sha} cacheDir={dir} />);
    expect(first.lastFrame()).not.toContain('▀');
    const drawn = await waitForFrame(first, '▀');
    first.unmount();
    // The disk cache goes too: only the drawing kept in memory can show it now.
    rmSync(dir, { recursive: true, force: true });
    const again = render(<IconView api={api} internId="i-1" sha={sha} cacheDir={dir} />);
    expect(again.lastFrame()).toBe(drawn);
    again.unmount();
    expect(fetched).toBe(1);
    // Another size is drawn anew (from the icon fetched again, the disk cache being gone).
    const wide = render(<IconView api={api} internId="i-1" sha={sha} cacheDir={dir} cols={4} rows={2} />);
    await waitForFrame(wide, '▀');
    wide.unmount();
    expect(fetched).toBe(2);
  });

  it('keeps an icon on disk only under its own hash: bytes that are not what the hash names are drawn but not cached', async () => {
    dir = mkdtempSync(join(tmpdir(), 'icon-test-'));
    const bytes = pngIcon(5);
    const api = { getInternIcon: async () => ({ bytes, contentType: 'image/png' }) } as unknown as InternApi;
    const claimed = 'b'.repeat(64);
    const wrong = render(<IconView api={api} internId="i-1" sha={claimed} cacheDir={dir} />);
    await waitForFrame(wrong, '▀');
    wrong.unmount();
    expect(existsSync(join(dir, `${claimed}.img`))).toBe(false);
    const real = createHash('sha256').update(bytes).digest('hex');
    const right = render(<IconView api={api} internId="i-1" sha={real} cacheDir={dir} />);
    await waitForFrame(right, '▀');
    right.unmount();
    expect(existsSync(join(dir, `${real}.img`))).toBe(true);
  });
});
