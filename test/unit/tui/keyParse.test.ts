import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PASTE_MARK, pastedText, plainKey, splitKeys, tokenize } from '../../../src/tui/keyParse.js';
import { KeySplitter } from '../../../src/tui/stdinSplitter.js';
import { nextPoint, prevPoint } from '../../../src/tui/components/TextField.js';

describe('tokenize', () => {
  it('cuts raw input into one key each: text, controls, escape sequences', () => {
    expect(tokenize('ab\r\x13\x1b[A\x1bOP\x1b[5~\x1b[1;5C\x1bx\x1b[Z').keys).toEqual(['a', 'b', '\r', '\x13', '\x1b[A', '\x1bOP', '\x1b[5~', '\x1b[1;5C', '\x1bx', '\x1b[Z']);
  });
  it('keeps a code point whole (emoji, CJK)', () => {
    expect(tokenize('日😀x').keys).toEqual(['日', '😀', 'x']);
  });
  it('makes a bracketed paste one marked chunk whose line breaks are not enter', () => {
    const { keys } = tokenize('x\x1b[200~foo\r\nbar\x1b[31m\x07\x1b[201~\r');
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe('x');
    expect(keys[1]!.startsWith(PASTE_MARK)).toBe(true);
    expect(keys[1]).not.toMatch(/[\r\n\x1b\x07]/);
    expect(pastedText(keys[1]!)).toBe('foo\nbar');
    expect(keys[2]).toBe('\r');
  });
  it('waits for the rest of a sequence or a paste cut off by the read; a lone ESC is the escape key', () => {
    expect(tokenize('a\x1b[1;').rest).toBe('\x1b[1;');
    expect(tokenize('\x1b[200~half').rest).toBe('\x1b[200~half');
    expect(tokenize('a\x1b')).toEqual({ keys: ['a', '\x1b'], rest: '' });
  });
});

describe('splitKeys', () => {
  it('hands a paste whole to a text field and drops it elsewhere: pasted text never runs keys', () => {
    const paste = PASTE_MARK + 'Dy';
    expect(splitKeys(paste, plainKey(''), true)).toHaveLength(1);
    expect(splitKeys(paste, plainKey(''), false)).toEqual([]);
  });
});

describe('KeySplitter', () => {
  it('gives a reader one key per read, whatever arrived at once', async () => {
    const source = new PassThrough() as unknown as NodeJS.ReadStream;
    const splitter = new KeySplitter(source);
    splitter.setRawMode(true);
    (source as unknown as PassThrough).write('hi\x13\x1b[B\x1b[200~a\rb\x1b[201~');
    await new Promise((r) => setImmediate(r));
    const reads: unknown[] = [];
    for (let c = splitter.read(); c !== null; c = splitter.read()) reads.push(c);
    expect(reads).toEqual(['h', 'i', '\x13', '\x1b[B', `${PASTE_MARK}a\u2028b`]);
    splitter.destroy();
  });
  it('hands bytes untouched to the attach screen while attached, and none to Ink', async () => {
    const source = new PassThrough() as unknown as NodeJS.ReadStream;
    const splitter = new KeySplitter(source);
    splitter.setRawMode(true);
    const got: string[] = [];
    splitter.attached = (chunk) => got.push(chunk);
    (source as unknown as PassThrough).write('ls\r\x1b[200~x\x1b[201~');
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['ls\r\x1b[200~x\x1b[201~']);
    expect(splitter.read()).toBeNull();
    splitter.attached = null;
    (source as unknown as PassThrough).write('q');
    await new Promise((r) => setImmediate(r));
    expect(splitter.read()).toBe('q');
    splitter.destroy();
  });
  it('joins a character whose bytes two reads cut apart', async () => {
    const source = new PassThrough() as unknown as NodeJS.ReadStream;
    const splitter = new KeySplitter(source);
    splitter.setRawMode(true);
    const got: string[] = [];
    splitter.attached = (chunk) => got.push(chunk);
    const bytes = Buffer.from('aé日b');
    (source as unknown as PassThrough).write(bytes.subarray(0, 2));
    (source as unknown as PassThrough).write(bytes.subarray(2, 4));
    (source as unknown as PassThrough).write(bytes.subarray(4));
    await new Promise((r) => setImmediate(r));
    expect(got.join('')).toBe('aé日b');
    splitter.destroy();
  });
  it('finishes a cut-off sequence after a moment', async () => {
    const source = new PassThrough() as unknown as NodeJS.ReadStream;
    const splitter = new KeySplitter(source);
    splitter.setRawMode(true);
    (source as unknown as PassThrough).write('\x1b[1;');
    (source as unknown as PassThrough).write('5A');
    await new Promise((r) => setImmediate(r));
    expect(splitter.read()).toBe('\x1b[1;5A');
    splitter.destroy();
  });
});

describe('TextField cursor steps', () => {
  it('moves by code point, so an emoji never splits', () => {
    const v = 'a😀b';
    expect(nextPoint(v, 1)).toBe(3);
    expect(prevPoint(v, 3)).toBe(1);
    expect(prevPoint(v, 1)).toBe(0);
    expect(nextPoint(v, 4)).toBe(4);
  });
});
