import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PASTE_MARK, pastedText, plainKey, splitKeys, tokenize } from '../../../src/tui/keyParse.js';
import { KeySplitter } from '../../../src/tui/stdinSplitter.js';
import { nextGrapheme, prevGrapheme } from '../../../src/tui/components/TextField.js';

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
  /** A splitter in raw mode over a stream the test writes to; `settled` lets the writes arrive. */
  function splitterOver() {
    const source = new PassThrough();
    const splitter = new KeySplitter(source as unknown as NodeJS.ReadStream);
    splitter.setRawMode(true);
    const settled = () => new Promise((r) => setImmediate(r));
    const reads = () => {
      const out: unknown[] = [];
      for (let c = splitter.read(); c !== null; c = splitter.read()) out.push(c);
      return out;
    };
    return { source, splitter, settled, reads };
  }

  it('gives a reader one key per read, whatever arrived at once', async () => {
    const { source, splitter, settled, reads } = splitterOver();
    source.write('hi\x13\x1b[B\x1b[200~a\rb\x1b[201~');
    await settled();
    expect(reads()).toEqual(['h', 'i', '\x13', '\x1b[B', `${PASTE_MARK}a\u2028b`]);
    splitter.destroy();
  });
  it('hands bytes untouched to the attach screen while attached, and none to Ink', async () => {
    const { source, splitter, settled, reads } = splitterOver();
    const got: string[] = [];
    splitter.attached = (chunk) => got.push(chunk);
    source.write('ls\r\x1b[200~x\x1b[201~');
    await settled();
    expect(got).toEqual(['ls\r\x1b[200~x\x1b[201~']);
    expect(reads()).toEqual([]);
    splitter.attached = null;
    source.write('q');
    await settled();
    expect(reads()).toEqual(['q']);
    splitter.destroy();
  });
  it('hands Ink DEL as BS, so that backspace and the Delete key differ; the attach screen gets DEL', async () => {
    const { source, splitter, settled, reads } = splitterOver();
    source.write('a\x7f\x1b[3~\x1b\x7f\b');
    await settled();
    expect(reads()).toEqual(['a', '\b', '\x1b[3~', '\x1b\b', '\b']);
    const got: string[] = [];
    splitter.attached = (chunk) => got.push(chunk);
    source.write('\x7f');
    await settled();
    expect(got).toEqual(['\x7f']);
    splitter.destroy();
  });
  it('joins a character whose bytes two reads cut apart', async () => {
    const { source, splitter, settled, reads } = splitterOver();
    const bytes = Buffer.from('aé日b');
    for (const [from, to] of [[0, 2], [2, 4], [4, bytes.length]] as const) source.write(bytes.subarray(from, to));
    await settled();
    expect(reads().join('')).toBe('aé日b');
    splitter.destroy();
  });
  it('finishes a cut-off sequence after a moment', async () => {
    const { source, splitter, settled, reads } = splitterOver();
    source.write('\x1b[1;');
    source.write('5A');
    await settled();
    expect(reads()).toEqual(['\x1b[1;5A']);
    splitter.destroy();
  });
});

describe('TextField cursor steps', () => {
  it('moves by grapheme, so an emoji never splits', () => {
    const v = 'a😀b';
    expect(nextGrapheme(v, 1)).toBe(3);
    expect(prevGrapheme(v, 3)).toBe(1);
    expect(prevGrapheme(v, 1)).toBe(0);
    expect(nextGrapheme(v, 4)).toBe(4);
  });
});
