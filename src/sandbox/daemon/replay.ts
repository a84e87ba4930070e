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

  /** Where a client that has everything before `from` (null: nothing yet) resumes; `missed` > 0 when the gap outgrew the buffer. */
  resumeFrom(from: number | null): { start: number; missed: number } {
    const want = from === null ? this.start : Math.min(from, this.end);
    return { start: Math.max(want, this.start), missed: from === null ? 0 : Math.max(0, this.start - want) };
  }

  /**
   * At most `max` bytes held from offset `from` on (from the oldest byte held, `start`, if `from` is
   * older), as the chunks they are held in: no copy. Looks from the newest chunk back, as what is
   * sent is near the end.
   */
  slice(from: number, max: number): { start: number; parts: Buffer[]; bytes: number } {
    const start = Math.max(from, this.start);
    const parts: Buffer[] = [];
    let k = this.chunks.length - 1;
    let at = this.end;
    while (k >= 0 && at - this.chunks[k]!.length > start) at -= this.chunks[k--]!.length;
    if (k < 0 || start >= this.end) return { start, parts, bytes: 0 };
    let skip = start - (at - this.chunks[k]!.length);
    let bytes = 0;
    for (; k < this.chunks.length && bytes < max; k++) {
      const c = this.chunks[k]!;
      const take = Math.min(c.length - skip, max - bytes);
      parts.push(skip === 0 && take === c.length ? c : c.subarray(skip, skip + take));
      bytes += take;
      skip = 0;
    }
    return { start, parts, bytes };
  }
}
