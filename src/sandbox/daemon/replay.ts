/**
 * The daemon's replay ring: the last N bytes of a terminal's output, addressed by
 * stream offset. Bytes at or after `keepFrom` (output no client has acknowledged
 * yet) are never dropped: the daemon stops reading the terminal instead, so the
 * buffer may hold a little more than its capacity (what was already in flight).
 */
export class ReplayBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Offset of the first byte still held. */
  start = 0;
  /** Offset just past the last byte written. */
  end = 0;
  /** Output from this offset on is still owed to a client and is kept whatever the capacity (default: nothing is owed). */
  keepFrom = Number.POSITIVE_INFINITY;

  constructor(readonly capacity: number) {}

  append(data: Buffer): void {
    this.chunks.push(data);
    this.bytes += data.length;
    this.end += data.length;
    this.trim();
  }

  /** Drops the oldest bytes beyond the capacity, but none at or after `keepFrom`. */
  trim(): void {
    while (this.bytes > this.capacity && this.chunks.length > 0 && this.start < this.keepFrom) {
      const head = this.chunks[0]!;
      const excess = Math.min(this.bytes - this.capacity, this.keepFrom - this.start);
      if (head.length <= excess) {
        this.chunks.shift();
        this.bytes -= head.length;
        this.start += head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.bytes -= excess;
        this.start += excess;
      }
    }
  }

  /** Bytes held that are still owed to a client: the daemon stops reading when this reaches the capacity. */
  get owed(): number {
    return this.end - Math.max(this.start, Math.min(this.keepFrom, this.end));
  }

  /** What a client that has everything before `from` is missing; `missed` > 0 when the gap outgrew the buffer. */
  since(from: number | null): { start: number; missed: number; data: Buffer } {
    const want = from === null ? this.start : Math.min(from, this.end);
    const start = Math.max(want, this.start);
    const missed = from === null ? 0 : Math.max(0, this.start - want);
    let skip = start - this.start;
    const parts: Buffer[] = [];
    for (const c of this.chunks) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      parts.push(skip > 0 ? c.subarray(skip) : c);
      skip = 0;
    }
    return { start, missed, data: Buffer.concat(parts) };
  }
}
