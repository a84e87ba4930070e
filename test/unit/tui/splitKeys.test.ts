import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { plainKey, splitKeys } from '../../../src/tui/keyParse.js';

const summary = (keys: [string, Key][]) =>
  keys.map(([input, k]) => (k.return ? '<enter>' : k.tab ? '<tab>' : k.delete || k.backspace ? '<bs>' : input));

describe('splitKeys', () => {
  it('splits fast typing into single keys when no field takes text', () => {
    expect(summary(splitKeys('/runner', plainKey('/'), false))).toEqual(['/', 'r', 'u', 'n', 'n', 'e', 'r']);
  });
  it('keeps a paste whole for a text field, but enter, tab and backspace stay keys', () => {
    expect(summary(splitKeys('openai\r', plainKey('o'), true))).toEqual(['openai', '<enter>']);
    expect(summary(splitKeys('ab\tcd\x7f\x7f', plainKey('a'), true))).toEqual(['ab', '<tab>', 'cd', '<bs>', '<bs>']);
  });
  it('splits a ctrl key typed right after text: ctrl+s after "hex" still saves', () => {
    const keys = splitKeys('hex\x13', plainKey('h'), true);
    expect(keys).toHaveLength(2);
    const [input, key] = keys[1]!;
    expect(input).toBe('s');
    expect(key.ctrl).toBe(true);
    expect(summary(splitKeys('ab\x05', plainKey('a'), false)).slice(0, 2)).toEqual(['a', 'b']);
  });
  it('reports enter the way Ink does when it comes alone', () => {
    const [input, key] = splitKeys('x\r', plainKey('x'), true)[1]!;
    expect(input).toBe('\r');
    expect(key.return).toBe(true);
  });
  it('splits wide characters by code point, not by UTF-16 unit', () => {
    expect(summary(splitKeys('日本', plainKey('日'), false))).toEqual(['日', '本']);
  });
  it('leaves escape sequences, modified keys and single keys alone', () => {
    const up = { ...plainKey(''), upArrow: true };
    expect(splitKeys('', up, false)).toEqual([['', up]]);
    const ctrl = { ...plainKey('s'), ctrl: true };
    expect(splitKeys('s', ctrl, false)).toEqual([['s', ctrl]]);
    expect(splitKeys('\x1b[200~ab', plainKey('a'), false)).toHaveLength(1);
    expect(splitKeys('a', plainKey('a'), false)).toEqual([['a', plainKey('a')]]);
  });
});
