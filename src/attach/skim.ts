/**
 * Skimming a flood: the part of a chunk of output that cannot change what the
 * emulator ends up holding, left out before it is parsed.
 *
 * Plain lines (printable text, UTF-8, tabs, colours and attributes, CR LF) only
 * ever move the cursor down. Once `keep` more line feeds follow them, every row
 * they touched has scrolled past the screen and past the scrollback, so the
 * emulator's screen, scrollback and cursor after the whole chunk are the same
 * as after only its tail. Only the attributes in force carry over: the SGR
 * sequences of the skipped part are kept, from the last one that starts with a
 * reset on. `keep` is twice the rows plus the scrollback kept: the cursor may
 * start anywhere on the screen, and rows below it are written over before they
 * scroll off.
 *
 * The emulator's own state must allow it (its parser between sequences, no
 * UTF-8 character half read, the scroll region the whole screen): the caller
 * checks that. Anything other than plain lines ends the part that may be
 * skipped, so a full-screen program's output is never touched.
 */

export const LF = 0x0a;
export const CR = 0x0d;
const ESC = 0x1b;
/** Longer SGR sequences are left to the emulator (it caps parameters; skipping one is not worth the doubt). */
const MAX_SGR = 64;

export interface Skimmed {
  /** Bytes of the chunk left out (0: nothing could be). */
  skipped: number;
  /** The attributes in force where the kept part starts, and a carriage return (the cursor's column there is 0); empty when nothing was left out. */
  prefix: Uint8Array;
  /** The kept part of the chunk. */
  rest: Uint8Array;
  /** The chunk is plain lines to its end (perhaps cut off in a sequence or a character): with more lines after them, more could be left out. */
  plain: boolean;
}

const NOTHING = new Uint8Array(0);

/**
 * The length of the SGR sequence (`ESC [ digits/;/: m`) at `i`, or 0 when
 * something else (or an incomplete sequence) starts there.
 */
function sgrLength(data: Uint8Array, i: number): number {
  if (data[i + 1] !== 0x5b) return 0;
  const end = Math.min(data.length, i + MAX_SGR);
  for (let j = i + 2; j < end; j++) {
    const b = data[j]!;
    if (b === 0x6d) return j + 1 - i;
    if (b < 0x30 || b > 0x3b) return 0;
  }
  return 0;
}

/**
 * The length of the well-formed UTF-8 character at `i` that prints (not a C1
 * control, not an overlong form, not a surrogate), or 0.
 */
function printableUtf8Length(data: Uint8Array, i: number): number {
  const b = data[i]!;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2;
    if (b === 0xc2) lo = 0xa0; // U+0080..U+009F are C1 controls
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > data.length) return 0;
  const second = data[i + 1]!;
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < n; k++) {
    const c = data[i + k]!;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return n;
}

/**
 * Whether the bytes from `i` to the end of `data` could be the start of an SGR sequence or of a
 * printable UTF-8 character, cut off by the end of the chunk.
 */
function cutOff(data: Uint8Array, i: number): boolean {
  const n = data.length - i;
  if (data[i] === ESC) {
    if (n === 1) return true;
    if (data[i + 1] !== 0x5b || n >= MAX_SGR) return false;
    for (let j = i + 2; j < data.length; j++) if (data[j]! < 0x30 || data[j]! > 0x3b) return false;
    return true;
  }
  const b = data[i]!;
  const need = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (need === 0 || n >= need) return false;
  for (let j = i + 1; j < data.length; j++) if (data[j]! < 0x80 || data[j]! > 0xbf) return false;
  return true;
}

/** Four bytes at once: the high bit of each byte. */
const HIGH_BITS = 0x80808080 | 0;

/**
 * The 4-byte words of `data` that lie wholly inside it, as they lie in memory: word `k` is bytes
 * `first + 4k` to `first + 4k + 3` (`first`: the first byte aligned to 4 in its buffer).
 */
export function wordsOf(data: Uint8Array): { words: Int32Array; first: number } {
  const first = (4 - (data.byteOffset & 3)) & 3;
  if (data.length - first < 4) return { words: NO_WORDS, first: Math.min(first, data.length) };
  return { words: new Int32Array(data.buffer, data.byteOffset + first, (data.length - first) >> 2), first };
}

const NO_WORDS = new Int32Array(0);

/**
 * The first index from `i` on that is not printable ASCII (0x20 to 0x7e), or the length: most of
 * any output, so read a word at a time where the bytes are aligned (twice as fast over a flood as
 * a byte at a time). A word is printable when no byte has its high bit set (not ASCII), each byte
 * plus 0x60 has it set (each is 0x20 or more) and no byte plus 1 has it (none is 0x7f); with every
 * byte under 0x80, the sums carry into no other byte.
 */
export function printableEnd(data: Uint8Array, words: Int32Array, first: number, i: number): number {
  const n = data.length;
  while (i < n && ((i - first) & 3) !== 0) {
    const b = data[i]!;
    if (b < 0x20 || b >= 0x7f) return i;
    i++;
  }
  if (i < n) {
    // Aligned here: `i - first` is a multiple of 4.
    let k = (i - first) >> 2;
    while (k < words.length) {
      const w = words[k]!;
      if ((w & HIGH_BITS) !== 0 || (((w + 0x60606060) | 0) & HIGH_BITS) !== HIGH_BITS || (((w + 0x01010101) | 0) & HIGH_BITS) !== 0) break;
      k++;
    }
    i = first + (k << 2);
  }
  while (i < n) {
    const b = data[i]!;
    if (b < 0x20 || b >= 0x7f) return i;
    i++;
  }
  return i;
}

/** Where the plain lines at the start of `data` end, and how many line feeds they hold. */
function plainPrefix(data: Uint8Array): { end: number; lineFeeds: number } {
  let lineFeeds = 0;
  let i = 0;
  const n = data.length;
  const { words, first } = wordsOf(data);
  while (i < n) {
    i = printableEnd(data, words, first, i);
    if (i === n) break;
    const b = data[i]!;
    if (b === LF) {
      lineFeeds++;
      i++;
    } else if (b === CR || b === 0x09) i++;
    else if (b === ESC) {
      const len = sgrLength(data, i);
      if (len === 0) break;
      i += len;
    } else if (b >= 0x80) {
      const len = printableUtf8Length(data, i);
      if (len === 0) break;
      i += len;
    } else break;
  }
  return { end: i, lineFeeds };
}

/** Whether the SGR sequence at `i` resets every attribute before its other parameters (`ESC[m`, `ESC[0m`, `ESC[0;1m`, `ESC[;1m`). */
function startsWithReset(data: Uint8Array, i: number): boolean {
  const b = data[i + 2];
  if (b === 0x6d || b === 0x3b) return true;
  return b === 0x30 && (data[i + 3] === 0x6d || data[i + 3] === 0x3b);
}

/** How `data` reads as output: plain lines to its end, plain lines cut off inside a sequence or a character, or not plain. */
export type Reading = 'plain' | 'cut' | 'other';

/** Whether `data` is plain lines (see the top of this file); where its plain lines end, and how many line feeds they hold. */
export function readPlain(data: Uint8Array): { reading: Reading; end: number; lineFeeds: number } {
  const { end, lineFeeds } = plainPrefix(data);
  const reading = end === data.length ? 'plain' : cutOff(data, end) ? 'cut' : 'other';
  return { reading, end, lineFeeds };
}

/**
 * The attributes in force after plain lines `data`, given those in force before it (`before`, SGR
 * sequences): the SGR sequences of `data` from the last one that starts with a reset on, or all of
 * them after `before` when none does.
 */
export function attributesAfter(before: Uint8Array, data: Uint8Array): Uint8Array {
  const sgrs: Uint8Array[] = [];
  let bytes = 0;
  let reset = false;
  for (let e = lastIndexOf(data, ESC, data.length - 1); e !== -1; e = lastIndexOf(data, ESC, e - 1)) {
    const seq = data.subarray(e, e + sgrLength(data, e));
    sgrs.push(seq);
    bytes += seq.length;
    if (startsWithReset(data, e)) {
      reset = true;
      break;
    }
  }
  if (bytes === 0) return before;
  const from = reset ? NOTHING : before;
  const out = new Uint8Array(from.length + bytes);
  out.set(from, 0);
  let at = from.length;
  for (let k = sgrs.length - 1; k >= 0; k--) {
    out.set(sgrs[k]!, at);
    at += sgrs[k]!.length;
  }
  return out;
}

/** What goes before output kept after a cut: the attributes in force there, then a carriage return (the cursor's column there is 0). */
export function cutPrefix(attributes: Uint8Array): Uint8Array {
  const prefix = new Uint8Array(attributes.length + 1);
  prefix.set(attributes, 0);
  prefix[attributes.length] = CR;
  return prefix;
}

/**
 * Leaves out the start of `data` when at least `keep` line feeds of plain lines
 * follow it (`skipped` is 0 when nothing can be left out).
 */
export function skim(data: Uint8Array, keep: number): Skimmed {
  const { end, lineFeeds } = plainPrefix(data);
  const plain = end === data.length || cutOff(data, end);
  const none = { skipped: 0, prefix: NOTHING, rest: data, plain };
  if (lineFeeds <= keep) return none;
  // The kept part starts just after a CR LF with `keep` line feeds after it, before `end`.
  const cut = tailCut([data.subarray(0, end)], keep)?.at;
  if (cut === undefined) return none;
  return { skipped: cut, prefix: cutPrefix(attributesAfter(NOTHING, data.subarray(0, cut))), rest: data.subarray(cut), plain };
}

export function lastIndexOf(data: Uint8Array, byte: number, from: number): number {
  return from < 0 ? -1 : data.lastIndexOf(byte, from);
}

/**
 * Where plain lines `parts` (in order, as one stream) may be cut so that at least `keep` line
 * feeds follow: just after the last line feed that has a carriage return before it and `keep`
 * line feeds after it (the cut starts a row at column 0, whatever came before). The part and the
 * offset in it; undefined when there is no such place.
 */
export function tailCut(parts: readonly Uint8Array[], keep: number): { part: number; at: number } | undefined {
  let after = 0;
  for (let p = parts.length - 1; p >= 0; p--) {
    const data = parts[p]!;
    for (let lf = lastIndexOf(data, LF, data.length - 1); lf !== -1; lf = lastIndexOf(data, LF, lf - 1)) {
      if (after >= keep && byteBefore(parts, p, lf) === CR) return { part: p, at: lf + 1 };
      after++;
    }
  }
  return undefined;
}

/** `parts` (one stream) split at offset `at` of part `part`: what comes before, and the rest; no empty parts. */
export function splitParts(parts: readonly Uint8Array[], part: number, at: number): { before: Uint8Array[]; after: Uint8Array[] } {
  const before = [...parts.slice(0, part), parts[part]!.subarray(0, at)].filter((p) => p.length > 0);
  const after = [parts[part]!.subarray(at), ...parts.slice(part + 1)].filter((p) => p.length > 0);
  return { before, after };
}

/** The byte before offset `at` of part `p`, looking back across the parts; undefined at the start. */
function byteBefore(parts: readonly Uint8Array[], p: number, at: number): number | undefined {
  if (at > 0) return parts[p]![at - 1];
  for (let q = p - 1; q >= 0; q--) if (parts[q]!.length > 0) return parts[q]!.at(-1);
  return undefined;
}

export function countLineFeeds(data: Uint8Array): number {
  let n = 0;
  for (let i = data.indexOf(LF); i !== -1; i = data.indexOf(LF, i + 1)) n++;
  return n;
}
