/**
 * Output held to be parsed later (see TerminalModel.hold), skimmed where it
 * lies: as a flood comes in, the plain lines that the lines after them will
 * scroll past the screen and the scrollback are dropped at once, and only the
 * attributes in force where they end are kept (skim.ts). Holding a flood then
 * costs its last lines' worth of memory, not all of it, and no copy: the
 * chunks are kept as they arrived, cut only at the first one kept.
 */
import { CR, LF, attributesAfter, cutPrefix, lastIndexOf, readPlain, splitParts } from './skim.js';

/**
 * Attributes carried past the dropped lines grow only while no SGR sequence resets them (a
 * stream that sets a colour on every line and never resets it): past this, nothing more is dropped.
 */
const MAX_CARRY_BYTES = 4 << 10;

const NOTHING = new Uint8Array(0);

export class HeldOutput {
  /**
   * The chunks held, in order; those before `scanned` are read: plain lines to `ends[i]` (their
   * length, but for one that holds something else, the last read) with `lineFeeds[i]` line feeds.
   */
  private chunks: Uint8Array[] = [];
  private ends: number[] = [];
  private lineFeeds: number[] = [];
  private scanned = 0;
  /** The attributes in force where the kept lines start, once some were dropped. */
  private carry: Uint8Array = NOTHING;
  /** Bytes held now, and dropped since the last take. */
  bytes = 0;
  dropped = 0;
  /** False once something other than plain lines was held: nothing after it is dropped until the next take. */
  plain = true;

  push(data: Uint8Array): void {
    if (data.length === 0) return;
    this.chunks.push(data);
    this.bytes += data.length;
  }

  /**
   * The first line held (to its first line feed), taken off the rest: for an emulator inside a
   * sequence or a character, to be parsed before the rest can be skimmed. Undefined if none ends yet.
   */
  takeFirstLine(): Uint8Array | undefined {
    const first = this.chunks[0];
    const lf = first ? first.indexOf(LF) : -1;
    if (lf === -1 || this.dropped > 0) return undefined;
    const line = first!.subarray(0, lf + 1);
    if (lf + 1 === first!.length) this.chunks.shift();
    else this.chunks[0] = first!.subarray(lf + 1);
    this.bytes -= line.length;
    this.scanned = 0;
    this.ends = [];
    this.lineFeeds = [];
    this.plain = true;
    return line;
  }

  /**
   * Drops the plain lines held that at least `keep` line feeds of plain lines follow. The emulator
   * must be between sequences and characters, with everything before the first chunk parsed: the
   * first chunk starts where it stands.
   */
  skim(keep: number): void {
    // Read first, whatever is dropped: `plain` must tell what is held (the history is set aside by it).
    this.scan();
    if (this.carry.length > MAX_CARRY_BYTES) return;
    // The chunk `j` holding the line feed with `keep` more after it, and where in it.
    let after = 0;
    let j = this.scanned - 1;
    while (j >= 0 && after + this.lineFeeds[j]! <= keep) after += this.lineFeeds[j--]!;
    if (j < 0) return;
    let within = keep - after;
    let lf = this.ends[j]!;
    for (let k = 0; k <= within; k++) lf = lastIndexOf(this.chunks[j]!, LF, lf - 1);
    if (lf === -1) return;
    // The kept lines start after a CR LF, so at column 0 whatever came before: back to the last
    // line feed with a carriage return before it (`within` counts the line feeds after it in `j`).
    for (;;) {
      const chunk = this.chunks[j]!;
      const before = lf > 0 ? chunk[lf - 1] : j > 0 ? this.chunks[j - 1]!.at(-1) : undefined;
      if (before === CR) break;
      if (before === undefined) return;
      lf = lastIndexOf(chunk, LF, lf - 1);
      if (lf !== -1) within++;
      else {
        if (--j < 0) return;
        lf = lastIndexOf(this.chunks[j]!, LF, this.chunks[j]!.length - 1);
        if (lf === -1) return;
        within = 0;
      }
    }
    // Drop chunks before `j` and chunk `j` up to its line feed at `lf`.
    let carry = this.carry;
    for (let i = 0; i < j; i++) {
      carry = attributesAfter(carry, this.chunks[i]!);
      this.dropped += this.chunks[i]!.length;
      this.bytes -= this.chunks[i]!.length;
    }
    const cut = this.chunks[j]!;
    carry = attributesAfter(carry, cut.subarray(0, lf + 1));
    this.carry = carry;
    this.dropped += lf + 1;
    this.bytes -= lf + 1;
    // What is left of chunk `j` (if anything) is the first chunk kept.
    const rest = cut.subarray(lf + 1);
    const from = rest.length > 0 ? j : j + 1;
    this.chunks = this.chunks.slice(from);
    this.ends = this.ends.slice(from);
    this.lineFeeds = this.lineFeeds.slice(from);
    if (rest.length > 0) {
      this.chunks[0] = rest;
      this.ends[0] = this.ends[0]! - lf - 1;
      this.lineFeeds[0] = within;
    }
    this.scanned -= from;
  }

  /**
   * Reads the chunks not yet read, up to one that holds something other than plain lines (read to
   * there, and no further). A chunk cut off inside a sequence or a character is split where the
   * cut starts: its plain lines are read once, and the few bytes after them wait for the next
   * chunk, then are read joined to it up to its first line feed (which no sequence or character
   * spans), not to all of it: a flood's messages end inside a sequence about a third of the time,
   * and joining whole messages read those twice and copied them.
   */
  private scan(): void {
    while (this.plain && this.scanned < this.chunks.length) {
      const i = this.scanned;
      const chunk = this.chunks[i]!;
      const { reading, end, lineFeeds } = readPlain(chunk);
      if (reading === 'cut') {
        if (end > 0) {
          this.chunks.splice(i, 1, chunk.subarray(0, end), chunk.subarray(end));
          this.ends[i] = end;
          this.lineFeeds[i] = lineFeeds;
          this.scanned++;
          continue;
        }
        if (i + 1 === this.chunks.length) return;
        const next = this.chunks[i + 1]!;
        const lf = next.indexOf(LF);
        const joined = Buffer.concat([chunk, lf === -1 ? next : next.subarray(0, lf + 1)]);
        this.chunks.splice(i, 2, joined, ...(lf === -1 || lf + 1 === next.length ? [] : [next.subarray(lf + 1)]));
        continue;
      }
      if (reading === 'other') this.plain = false;
      this.ends[i] = end;
      this.lineFeeds[i] = lineFeeds;
      this.scanned++;
    }
  }

  /**
   * Everything held, in order, as it is to be parsed (with the attributes where dropped lines
   * ended), and what was dropped; then holds nothing. When something other than plain lines was
   * held, `lead` splits the parts where it starts: the plain lines before it, and the rest (a
   * flood's last release usually ends in a prompt that is not plain lines, and its lines before the
   * prompt can be set aside all the same: history.ts).
   */
  take(): { parts: Uint8Array[]; dropped: number; plain: boolean; lead?: { plain: Uint8Array[]; rest: Uint8Array[] } } {
    const parts: Uint8Array[] = [];
    if (this.dropped > 0) parts.push(cutPrefix(this.carry));
    const first = parts.length;
    for (const c of this.chunks) if (c.length > 0) parts.push(c);
    let lead: { plain: Uint8Array[]; rest: Uint8Array[] } | undefined;
    // The chunk read last is the one holding the first byte that is not plain lines, at `ends`.
    if (!this.plain && this.scanned > 0) {
      const i = this.scanned - 1;
      const { before, after } = splitParts(this.chunks, i, this.ends[i]!);
      lead = { plain: [...parts.slice(0, first), ...before], rest: after };
    }
    const taken = { parts, dropped: this.dropped, plain: this.plain, lead };
    this.chunks = [];
    this.ends = [];
    this.lineFeeds = [];
    this.scanned = 0;
    this.carry = NOTHING;
    this.bytes = 0;
    this.dropped = 0;
    this.plain = true;
    return taken;
  }
}
