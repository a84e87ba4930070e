import { afterEach, describe, expect, it, vi } from 'vitest';

// The primer's state is the process's: each test loads the modules afresh.
afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

/** The blocks of the primer's size asked for so far. */
function primerBlocks(spy: { mock: { calls: unknown[][] } }, size: number): number {
  return spy.mock.calls.filter(([n]) => n === size).length;
}

describe('primeAllocator', () => {
  it('asks for one block above glibc’s default mmap threshold and below its cap, once per process', async () => {
    const spy = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const { PRIME_BYTES, primeAllocator } = await import('../../../src/attach/allocator.js');
    expect(PRIME_BYTES).toBeGreaterThan(128 << 10);
    expect(PRIME_BYTES).toBeLessThanOrEqual(32 << 20);
    primeAllocator();
    primeAllocator();
    expect(primerBlocks(spy, PRIME_BYTES)).toBe(1);
  });

  it('runs when a transport first connects, not again for the next one', async () => {
    const spy = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const { PRIME_BYTES } = await import('../../../src/attach/allocator.js');
    const { WebSocketTransport } = await import('../../../src/attach/transport.js');
    const handlers = { output: () => undefined, state: () => undefined, gap: () => undefined, exit: () => undefined };
    // An access that never comes: the transport stays connecting, and nothing goes over a network.
    const make = () => new WebSocketTransport({ access: () => new Promise(() => undefined), cols: 80, rows: 24, handlers });
    const first = make();
    expect(primerBlocks(spy, PRIME_BYTES)).toBe(0);
    first.connect();
    expect(primerBlocks(spy, PRIME_BYTES)).toBe(1);
    const second = make();
    second.connect();
    expect(primerBlocks(spy, PRIME_BYTES)).toBe(1);
    first.close();
    second.close();
  });
});
