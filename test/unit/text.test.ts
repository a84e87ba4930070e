import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { jsonText, pad, quoted, sanitize, truncate, widthOf } from '../../src/text.js';

describe('sanitize', () => {
  it.each([
    ['plain', 'plain'],
    ['\x1b[31mred\x1b[0m', 'red'],
    ['\x1b]0;evil title\x07x', 'x'],
    ['\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['\x1bP1$qm\x1b\\x', 'x'],
    ['\x1b[?1049h\x1b[2Jcleared', 'cleared'],
    ['a\x07b\x00c\x7fd', 'abcd'],
    ['\x9b31mc1', 'c1'],
    ['tab\tnew\nline\rret', 'tab new line ret'],
    ['\u202eevil\u202c', 'evil'],
    ['日本語 ok', '日本語 ok'],
    ['\x1bc', ''],
    ['\x1b(0x', 'x'],
  ])('%j → %j', (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });
  it('gives printable ASCII back as it is (its fast path), and still cleans it with one control inside', () => {
    const plain = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
    const control = fc.constantFrom('\x1b', '\x1b[31m', '\x07', '\x00', '\t', '\r', '\x7f', '\x9b', '\u202e', '\u2028');
    fc.assert(
      fc.property(plain, plain, control, (a, b, c) => {
        expect(sanitize(a + b)).toBe(a + b);
        expect(sanitize(`${a}\n${b}`, { multiline: true })).toBe(`${a}\n${b}`);
        expect(sanitize(a + c + b)).not.toBe(a + c + b);
        expect(sanitize(a + c + b, { multiline: true })).not.toBe(a + c + b);
      }),
    );
  });
  it('keeps newlines where multi-line text is drawn', () => {
    expect(sanitize('a\r\nb\x1b[1mc\td', { multiline: true })).toBe('a\nbc      d');
  });
  it('sets a multi-line text\'s tabs to stops of 8 cells from each line\'s start, counting wide characters as two', () => {
    expect(sanitize('bin\tetc\tlib64\n\tboot\n日本\tx\nlost+found\tz', { multiline: true }).split('\n')).toEqual([
      'bin     etc     lib64',
      '        boot',
      '日本    x',
      'lost+found      z',
    ]);
    // Written to the terminal as it comes, tabs stay tabs: the terminal sets them.
    expect(sanitize('a\tb\x07\r\n\tc', { multiline: true, tabs: true })).toBe('a\tb\n\tc');
  });
  it('removes zero-width characters that only hide, keeps the joiners emoji and scripts need, and takes line separators as line breaks', () => {
    expect(sanitize('open\u200bai\u2060\ufeff')).toBe('openai');
    expect(sanitize('👨\u200d👩\u200d👧 می\u200cخواهم')).toBe('👨\u200d👩\u200d👧 می\u200cخواهم');
    expect(sanitize('status\u2028last failure: fake')).toBe('status last failure: fake');
    expect(sanitize('a\u2029b', { multiline: true })).toBe('a\nb');
  });
  it('answers empty for null', () => {
    expect(sanitize(null)).toBe('');
  });
  it('truncates and pads by code point', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(pad('ab', 4)).toBe('ab  ');
  });
  it('measures and cuts plain ASCII and wide text alike: never wider than asked, unchanged when it fits', () => {
    const samples = ['', 'a', 'release-captain', 'openai/gpt-4.1', '日本語 included', 'e\u0301te\u0301', '👩‍👩‍👧 family', 'mix 漢字 and ascii', '~!@#$%^&*()_+'];
    for (const s of samples) {
      expect(widthOf(s)).toBe(stringWidth(s));
      for (let w = 1; w <= 20; w++) {
        const t = truncate(s, w);
        expect(widthOf(t)).toBeLessThanOrEqual(w);
        if (stringWidth(s) <= w) expect(t).toBe(s);
        else expect(t.endsWith('…')).toBe(true);
        expect(widthOf(pad(s, w))).toBe(w);
      }
    }
    expect(truncate('日本語', 4)).toBe('日…');
  });
});

describe('jsonText', () => {
  it('writes C1 controls, bidi overrides, zero-width characters and line separators as \\u escapes, which parse back to the same string', () => {
    const value = { name: 'a\u009b31m\u009d0;t\u009c\u202eb\u200b\u2028c\u007f', n: 1 };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\x7f-\x9f\u202e\u200b\u2028]/);
    expect(text).toContain('\\u009b31m');
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText(value, 2)).toContain('\n  "n": 1');
  });
  it('is what quoted() escapes with', () => {
    expect(quoted('runn\u200ber')).toBe('"runn\\u200ber"');
  });
});
