import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { ByteBuffer, JsonUtf8 } from '../../../src/attach/castBytes.js';

/** What the recorder wrote before castBytes.ts: a streaming TextDecoder (a BOM kept), then JSON.stringify. */
function reference(pieces: Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const text = pieces.map((p) => decoder.decode(p, { stream: true })).join('') + decoder.decode();
  return JSON.stringify(text).slice(1, -1);
}

/**
 * What the escaper wrote, read back as UTF-8; as Latin-1 (one character a byte) when it is not
 * valid UTF-8, so that a byte written through unchecked differs from the U+FFFD it should be.
 */
function escaped(pieces: Uint8Array[]): string {
  const json = new JsonUtf8();
  const out = new ByteBuffer(8);
  for (const p of pieces) json.write(p, out);
  json.end(out);
  const bytes = Buffer.from(out.bytes.subarray(0, out.length));
  return isUtf8(bytes) ? bytes.toString('utf8') : `not UTF-8: ${bytes.toString('latin1')}`;
}

/** A small random generator of its own, so a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `bytes` cut at random places into pieces of 1 to 9 bytes. */
function cut(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = 1 + Math.floor(next() * 9);
    pieces.push(bytes.subarray(at, at + n));
    at += n;
  }
  return pieces;
}

describe('output bytes as asciicast data (castBytes.ts)', () => {
  it('escapes every byte value as JSON.stringify does, and reads each byte that is no UTF-8 as U+FFFD', () => {
    for (let b = 0; b < 256; b++) expect(escaped([Uint8Array.of(b)])).toBe(reference([Uint8Array.of(b)]));
    expect(JSON.parse(`"${escaped([Uint8Array.of(0x1b, 0x22, 0x5c, 0x0a, 0x7f)])}"`)).toBe('\x1b"\\\n\x7f');
  });

  it('writes what a streaming TextDecoder and JSON.stringify wrote, however the bytes are cut', () => {
    const next = random(44);
    // Valid characters of every length, their boundary cases, and every kind of invalid sequence.
    const alphabet = [...Buffer.from('a\x1b"\\\n€日本😀\u07ff\uffff\u{10ffff}', 'utf8'), 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xe0, 0xed, 0xa0, 0x9f, 0xf0, 0xf4, 0x90, 0x8f, 0xf5, 0xff];
    for (let round = 0; round < 3000; round++) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]!);
      const pieces = cut(bytes, next);
      const got = escaped(pieces);
      if (got !== reference(pieces)) expect({ bytes: Buffer.from(bytes).toString('hex'), got }).toEqual({ bytes: Buffer.from(bytes).toString('hex'), got: reference(pieces) });
    }
  });

  it('keeps a character cut at the end for the next piece, and ends one never finished as U+FFFD', () => {
    const euro = Buffer.from('€', 'utf8');
    const json = new JsonUtf8();
    const out = new ByteBuffer(4);
    json.write(euro.subarray(0, 2), out);
    expect(out.length).toBe(0);
    json.write(euro.subarray(2), out);
    expect(Buffer.from(out.bytes.subarray(0, out.length)).toString()).toBe('€');
    out.clear();
    json.write(euro.subarray(0, 1), out);
    json.end(out);
    expect(Buffer.from(out.bytes.subarray(0, out.length)).toString()).toBe('\ufffd');
  });

  it('writes the same for long pieces, escaped whole where they are valid UTF-8, a character cut at either end', () => {
    const next = random(45);
    // Whole characters, each as its UTF-8 bytes.
    const valid = [...'plain text\x1b[1;31m"quoted" back\\slash\r\n\t\x00\x7f', '€', '日', '本', '😀', '\u07ff', '\uffff', '\u{10ffff}'].map((c) => [...Buffer.from(c, 'utf8')]);
    const invalid = [0x80, 0xbf, 0xc0, 0xc1, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff];
    for (let round = 0; round < 300; round++) {
      const chars: number[] = [];
      for (let length = 300 + Math.floor(next() * 3000); chars.length < length; ) chars.push(...valid[Math.floor(next() * valid.length)]!);
      const bytes = Uint8Array.from(chars);
      // Mostly valid: some pieces have no invalid byte at all (escaped whole), others one or two.
      const bad = round % 3 === 0 ? 2 : 0;
      for (let k = 0; k < bad; k++) bytes[Math.floor(next() * bytes.length)] = invalid[Math.floor(next() * invalid.length)]!;
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const n = 256 + Math.floor(next() * 1000);
        pieces.push(bytes.subarray(at, at + n));
        at += n;
      }
      const got = escaped(pieces);
      if (got !== reference(pieces)) expect({ bytes: Buffer.from(bytes).toString('hex'), got }).toEqual({ bytes: Buffer.from(bytes).toString('hex'), got: reference(pieces) });
    }
  });

  it('keeps a byte order mark, as received', () => {
    expect(escaped([Uint8Array.of(0xef, 0xbb, 0xbf, 0x41)])).toBe('\ufeffA');
  });
});
