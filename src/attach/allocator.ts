/**
 * A stream's buffers, kept for reuse by the C library's allocator. A flood arrives as 64 KiB
 * socket reads, and ws joins a frame that spans two of them into a new 64 KiB buffer: about two
 * 64 KiB allocations per 64 KiB of output, freed a garbage collection later. glibc's malloc
 * serves them from its heap, but by default it hands the heap's free top back to the kernel once
 * more than 128 KiB of it is free, so the next reads fault the same pages in again: on the bench's
 * machine a page's first touch costs about 2 µs, and `attach NAME` spent 6-15% more CPU on a 50 MB
 * flood than with the memory kept (bench/README.md, "The allocator's free memory kept").
 *
 * glibc raises that threshold by itself (mallopt(3), M_MMAP_THRESHOLD: "dynamic adjustment") when
 * a program frees a block it had mapped on its own: the block's size becomes the mmap threshold
 * and twice it the trim threshold. Node has no mallopt, so a stream's first connection allocates
 * one such block and drops it; the next garbage collection frees it. It is never written, so no
 * page of it is touched: it costs a map and an unmap. The heap then keeps up to twice
 * PRIME_BYTES free for reuse (a 16 MiB block saved a little more CPU, for up to 32 MiB kept).
 * Other allocators (musl, macOS, Windows) only map and unmap it. The sandbox's daemon, primed the
 * same way, spent no less.
 */

/** The block's size: above glibc's default mmap threshold (128 KiB) and below its cap for the adjustment (32 MiB on 64-bit). */
export const PRIME_BYTES = 4 << 20;

let primed = false;

/** Once per process, before a stream's first output: see the top of this file. */
export function primeAllocator(): void {
  if (primed) return;
  primed = true;
  Buffer.allocUnsafeSlow(PRIME_BYTES);
}
