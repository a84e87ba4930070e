/**
 * The daemon's output bytes as the data of an asciicast `o` event, byte to byte: what
 * `JSON.stringify(new TextDecoder().decode(bytes, { stream: true }))` writes, without making a
 * string of the output and encoding it again. A flood through the recorder was three passes over
 * every byte and a string of two bytes a character wherever a wide character came (50 MB of
 * output, about a second of CPU); here it is one pass over bytes, or for a piece that is valid
 * UTF-8, V8's own JSON escaping (see WHOLE_MIN). The recorder's worker thread (recordWorker.ts)
 * runs it.
 *
 * UTF-8 is validated as the WHATWG decoder (TextDecoder's) does: a valid character is copied as
 * it came, a character cut at the end of a chunk waits for the next one, and each maximal
 * invalid piece becomes one U+FFFD; so the file reads back as TextDecoder would have decoded
 * the stream. One difference: a byte order mark at the start is kept (the output exactly as
 * received), where TextDecoder drops it. JSON escaping is JSON.stringify's: `\b \t \n \f \r`,
 * `\"`, `\\`, and `\u00XX` for the other bytes below 0x20.
 */
import { isUtf8 } from 'node:buffer';

/** Bytes written into one growing buffer: the worker's lines waiting for the disk. */
export class ByteBuffer {
  bytes: Uint8Array;
  length = 0;
  private readonly encoder = new TextEncoder();

  constructor(capacity = 64 << 10) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  /** A string, as UTF-8. */
  text(s: string): void {
    this.reserve(s.length * 3);
    this.length += this.encoder.encodeInto(s, this.bytes.subarray(this.length)).written;
  }

  /** A string of characters below 0x100, one byte each. */
  latin1(s: string): void {
    this.reserve(s.length);
    this.length += Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).write(s, this.length, 'latin1');
  }

  clear(): void {
    this.length = 0;
  }
}

const HEX = '0123456789abcdef';
const SHORT: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 0x22: '\\"', 0x5c: '\\\\' };
/** 1 for a byte copied as it is: ASCII but the controls below 0x20, `"` and `\`. */
const PLAIN = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x20 && b < 0x80 && SHORT[b] === undefined ? 1 : 0));
/** What JSON.stringify writes for the other ASCII bytes, as bytes. */
const ESCAPE: Uint8Array[] = Array.from({ length: 128 }, (_, b) => {
  const s = SHORT[b] ?? (b < 0x20 ? `\\u00${HEX[b >> 4]}${HEX[b & 15]}` : String.fromCharCode(b));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
});
/** U+FFFD, in UTF-8, at `p`; the position after it. */
function replacement(o: Uint8Array, p: number): number {
  o[p] = 0xef;
  o[p + 1] = 0xbf;
  o[p + 2] = 0xbd;
  return p + 3;
}

/**
 * A piece of output at least this long that is valid UTF-8 (up to a character its end cuts) is
 * escaped whole, natively: read as Latin-1, one character a byte, JSON.stringify escapes exactly
 * the bytes JSON wants escaped (below 0x20, `"`, `\`) and leaves the others as they are, bytes of
 * multi-byte characters included, which written back as Latin-1 are the bytes that came. Node's
 * isUtf8 checks the piece first; one that is not valid takes the loop below, as does a piece that
 * begins by finishing a character the last one cut. The bench's 50 MB flood, in 64 KiB pieces:
 * 80-99 ms instead of 113-135 warm, 200-206 instead of 226-300 in a fresh process (bench/README.md).
 */
const WHOLE_MIN = 256;

/** Where the last character of `bytes` that is whole ends: the length, or where a character cut off at the end begins. */
function completeEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  // Back over at most three continuation bytes to the byte that begins the last character.
  let start = n - 1;
  while (start > 0 && start > n - 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  const b = bytes[start]!;
  const size = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return start + size <= n ? n : start;
}

/** The first `end` bytes as a string of one character a byte. */
function latin1Of(bytes: Uint8Array, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('latin1');
}

/** A streaming UTF-8 validator and JSON string escaper (see above). */
export class JsonUtf8 {
  /** The bytes of a character begun and not yet complete (at most 3), and how many more it needs. */
  private readonly partial = new Uint8Array(4);
  private have = 0;
  private needed = 0;
  /** The range the next continuation byte must be in (narrower after E0, ED, F0, F4: WHATWG). */
  private lower = 0x80;
  private upper = 0xbf;

  /** Writes `input` into `out` as JSON string content (no quotes), a character cut at its end kept for the next call. */
  write(input: Uint8Array, out: ByteBuffer): void {
    if (this.needed === 0 && input.length >= WHOLE_MIN) {
      const end = completeEnd(input);
      if (isUtf8(input.subarray(0, end))) {
        out.latin1(JSON.stringify(latin1Of(input, end)).slice(1, -1)); // without its quotes
        if (end === input.length) return;
        input = input.subarray(end);
      }
    }
    // At most 6 bytes a byte (`\u001b`), and a character completed from the last call's bytes.
    out.reserve(input.length * 6 + 8);
    const o = out.bytes;
    let p = out.length;
    const n = input.length;
    let i = 0;
    // A character begun in the last chunk: finished (or refused) a byte at a time.
    while (this.needed !== 0 && i < n) {
      const b = input[i]!;
      if (b < this.lower || b > this.upper) {
        this.reset();
        p = replacement(o, p);
        break; // read again, below, on its own
      }
      i++;
      this.lower = 0x80;
      this.upper = 0xbf;
      this.partial[this.have++] = b;
      if (this.have > this.needed) {
        for (let k = 0; k < this.have; k++) o[p++] = this.partial[k]!;
        this.reset();
      }
    }
    while (i < n) {
      const b = input[i]!;
      if (PLAIN[b] === 1) {
        o[p++] = b;
        i++;
        continue;
      }
      if (b === 0x1b) {
        // ESC, the most frequent escape by far: `\u001b`.
        o[p] = 0x5c;
        o[p + 1] = 0x75;
        o[p + 2] = 0x30;
        o[p + 3] = 0x30;
        o[p + 4] = 0x31;
        o[p + 5] = 0x62;
        p += 6;
        i++;
        continue;
      }
      if (b < 0x80) {
        const esc = ESCAPE[b]!;
        for (let k = 0; k < esc.length; k++) o[p++] = esc[k]!;
        i++;
        continue;
      }
      // A character of two to four bytes: its length and the range of its second byte (WHATWG).
      const size = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      if (size === 0) {
        p = replacement(o, p);
        i++;
        continue;
      }
      const lower = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const upper = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (i + size <= n) {
        // Whole in this chunk: checked and copied here.
        const c1 = input[i + 1]!;
        let valid = 1;
        if (c1 >= lower && c1 <= upper) for (valid = 2; valid < size && (input[i + valid]! & 0xc0) === 0x80; ) valid++;
        if (valid === size) {
          for (let k = 0; k < size; k++) o[p++] = input[i + k]!;
        } else p = replacement(o, p); // the bytes up to the bad one are one U+FFFD; the bad one is read again
        i += valid;
        continue;
      }
      // Cut by the chunk's end: what is here is checked and kept for the next chunk.
      this.needed = size - 1;
      this.lower = lower;
      this.upper = upper;
      this.partial[0] = b;
      this.have = 1;
      i++;
      while (i < n) {
        const c = input[i]!;
        if (c < this.lower || c > this.upper) {
          this.reset();
          p = replacement(o, p);
          break;
        }
        this.lower = 0x80;
        this.upper = 0xbf;
        this.partial[this.have++] = c;
        i++;
      }
    }
    out.length = p;
  }

  /** The stream ends (or starts over): a character still waiting for bytes becomes U+FFFD. */
  end(out: ByteBuffer): void {
    if (this.needed === 0) return;
    this.reset();
    out.reserve(3);
    out.length = replacement(out.bytes, out.length);
  }

  private reset(): void {
    this.have = 0;
    this.needed = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }
}
