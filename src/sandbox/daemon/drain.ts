/**
 * Reading a pseudo-terminal on, past the chunk its stream handed over.
 *
 * Linux hands a pty's reader at most 4 KiB a read (the line discipline's buffer): a flood is some
 * 13,000 reads per 50 MB, and through node-pty's stream each is an epoll wake-up, a read, a
 * Buffer and an event. A read of a master with nothing buffered yet first waits for the kernel's
 * pending flush of what the program wrote, so reads made straight after a chunk, while the program
 * still writes, find the next 4 KiB without going back to the event loop. A bare reader took a
 * 50 MB flood at 72-95 MB/s this way against 60-75 through the stream alone, with less CPU
 * (bench/README.md, issue 12's eleventh pass).
 *
 * The descriptor is node-pty's (non-blocking, as libuv leaves it): a read with nothing to give
 * answers EAGAIN at once. An error ends the drain without a word: EAGAIN is the usual end, and EIO
 * (the program is gone) or EBADF (closed) are the stream's to report, as they are without draining.
 */
import { readSync } from 'node:fs';

/** Reads made after one stream chunk, at most: a bound on how long one event holds the thread (64 KiB on Linux). */
export const DRAIN_READS = 16;
const SCRATCH_BYTES = 64 << 10;
let scratch: Buffer | undefined;

/**
 * Reads what the pty at `fd` has to give now, DRAIN_READS reads at most, and hands each read to
 * `take` in a Buffer of its own (copied out of one scratch buffer: a chunk kept in the replay
 * buffer holds its own bytes, not 64 KiB). Stops at the first read that brings nothing, or once
 * `take` answers false (flow control paused the terminal). Answers the bytes read.
 */
export function drainPty(fd: number, take: (chunk: Buffer) => boolean): number {
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  let total = 0;
  for (let i = 0; i < DRAIN_READS; i++) {
    let n: number;
    try {
      n = readSync(fd, scratch, 0, scratch.length, null);
    } catch {
      break;
    }
    if (n <= 0) break;
    total += n;
    const chunk = Buffer.allocUnsafe(n);
    scratch.copy(chunk, 0, 0, n);
    if (!take(chunk)) break;
  }
  return total;
}

/** The master's descriptor of a node-pty terminal, where it has one (not on Windows, whose ConPTY has none). */
export function ptyFd(proc: object): number | undefined {
  if (process.platform === 'win32') return undefined;
  const fd: unknown = (proc as { fd?: unknown }).fd;
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : undefined;
}
