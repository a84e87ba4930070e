import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { collectYoung } from '../../../src/attach/collect.js';

/**
 * Waits until `ok` holds, for `ms` at most, allocating next to nothing (a poll that allocated more,
 * vitest's, brought on a scavenge of its own within two seconds); whether it held.
 */
async function within(ms: number, ok: () => boolean): Promise<boolean> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

const collectModule = fileURLToPath(new URL('../../../src/attach/collect.ts', import.meta.url));

it('gives back dead buffers when asked, at most every 100 ms', async () => {
  // Buffers as a flood's messages: each with memory of its own outside V8's heap, dead at once.
  const allocate = () => {
    let n = 0;
    for (let i = 0; i < 320; i++) n += Buffer.allocUnsafeSlow(64 << 10).length;
    return n;
  };
  await new Promise((r) => setImmediate(r));
  expect(collectYoung(1e9)).toBe(true);
  expect(allocate()).toBe(20 << 20);
  const before = process.memoryUsage().arrayBuffers;
  expect(collectYoung(1e9 + 50)).toBe(false);
  expect(process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(before - (1 << 20));
  expect(collectYoung(1e9 + 100)).toBe(true);
  // V8 frees a scavenge's dead buffers on a thread of its own, a little after the scavenge (at
  // once about one time in ten here, within 6 ms with the cores busy): waited for, not read at
  // once. Without a collection they stay: the wait allocates too little to start one.
  expect(await within(500, () => process.memoryUsage().arrayBuffers < before - (15 << 20))).toBe(true);
});

it('leaves V8 flags as they were, so a code cache written afterwards is taken by the next start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'collect-'));
  const source = 'function twice(x) { return 2 * x } twice(21);'.repeat(20);
  const script = (step: string) =>
    `import { writeFileSync, readFileSync } from 'node:fs'; import { Script } from 'node:vm'; import { collectYoung } from ${JSON.stringify(collectModule)};
     const source = ${JSON.stringify(source)};
     if (${JSON.stringify(step)} === 'write') { if (!collectYoung()) throw new Error('no collection'); writeFileSync(${JSON.stringify(join(dir, 'cache'))}, new Script(source).createCachedData()); }
     else console.log(new Script(source, { cachedData: readFileSync(${JSON.stringify(join(dir, 'cache'))}) }).cachedDataRejected ? 'rejected' : 'accepted');`;
  const run = (step: string) => execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(step)], { encoding: 'utf8' }).trim();
  run('write');
  expect(run('read')).toBe('accepted');
  rmSync(dir, { recursive: true, force: true });
});
