/**
 * What the TUI's start does before its list, on the embedded sandbox (bench rows c and d time it):
 * work that the list does not need, put off, stays put off. Timings are the bench's; this checks
 * the work itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, Tui, poll } from './harness.js';

let t: Tui | undefined;
afterEach(async () => {
  await t?.close();
});

describe('the TUI start', () => {
  it('makes no Intl.Segmenter in either thread before its list: the first one loads ICU break rules, and the list is ASCII and box drawing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'segmenters-'));
    const log = join(dir, 'segmenters.log');
    writeFileSync(log, '');
    try {
      t = new Tui({ env: { NODE_OPTIONS: `--import=${join(ROOT, 'test/support/countSegmenters.mjs')}`, SEGMENTER_LOG: log } });
      await t.waitFor((s) => /^›/m.test(s) && s.includes('translator'), 30_000);
      process.kill(t.pid, 'SIGUSR2');
      const counts = await poll(() => readFileSync(log, 'utf8'), (s) => s.includes('main') && s.includes('worker'), 15_000, () => 'both threads to count');
      expect(counts.trim().split('\n').sort()).toEqual(['main 0', 'worker 0']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs bundles that are ASCII only: one other character makes V8 hold the whole file as a two-byte string', () => {
    for (const file of ['tui.cjs', 'sandbox.cjs', 'sandbox-worker.cjs']) {
      const bytes = readFileSync(join(ROOT, 'dist', file));
      expect(bytes.findIndex((b) => b > 0x7f), file).toBe(-1);
    }
  });
});
