/** What a command reads rather than takes as an argument: the masked prompt's keys, secrets from stdin and files. */
import { describe, expect, it } from 'vitest';
import { MaskedLine } from '../../../src/cli/input.js';

/** The line the chunks make, and how it ended. */
function typed(...chunks: string[]): { value: string; end?: string; echo: string } {
  const line = new MaskedLine();
  let echo = '';
  for (const chunk of chunks) {
    const r = line.feed(chunk);
    echo += r.echo;
    if (r.end) return { value: line.value, end: r.end, echo };
  }
  return { value: line.value, echo };
}

describe('the masked prompt', () => {
  it('keeps no part of a key that sends an escape sequence: arrows, Delete, Home, F-keys, alt+key, esc', () => {
    expect(typed('abc\x1b[D\x1b[DX\r')).toMatchObject({ value: 'abcX', end: 'enter' });
    expect(typed('ab\x1b[3~c\r').value).toBe('abc');
    expect(typed('a\x1b[1;5Cb\x1b[H\x1b[15~\r').value).toBe('ab');
    expect(typed('a\x1bOPb\x1bOAc\r').value).toBe('abc'); // SS3: F1, keypad up
    expect(typed('a\x1bxb\x1b\r').value).toBe('axb'); // alt+x: its ESC goes; a lone esc before Enter too
    expect(typed('a\u009bb\x07c\r').value).toBe('abc'); // C1 and C0 controls
  });

  it('keeps what is pasted and drops the paste markers', () => {
    expect(typed('\x1b[200~sk-pasted-key\x1b[201~\r')).toMatchObject({ value: 'sk-pasted-key', end: 'enter' });
  });

  it('reads a sequence split across two reads as one', () => {
    expect(typed('ab\x1b', '[D', 'c\r').value).toBe('abc');
    expect(typed('ab\x1b[', '3', '~c\r').value).toBe('abc');
    expect(typed('ab\x1b', 'O', 'Bc\r').value).toBe('abc');
  });

  it('echoes a star per character and erases one per backspace; ctrl+c and ctrl+d end it', () => {
    expect(typed('ab\x7fc\r')).toEqual({ value: 'ac', end: 'enter', echo: '**\b \b*' });
    expect(typed('ab\x03').end).toBe('interrupt');
    expect(typed('ab\x04')).toMatchObject({ value: 'ab', end: 'eof' });
  });
});
