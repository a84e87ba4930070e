import { expect, it } from 'vitest';
import { collectYoung } from '../../../src/attach/collect.js';

it('gives back dead buffers at once, at most every 100 ms', async () => {
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
  expect(process.memoryUsage().arrayBuffers).toBeLessThan(before - (15 << 20));
});
