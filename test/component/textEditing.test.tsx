/**
 * Editing in a TextField with keys as the stdin splitter hands them over (one key per chunk, cut by
 * `tokenize`): line endings typed without bracketed paste, and graphemes (ZWJ emoji, flags,
 * combining accents) that backspace and the arrows take whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { useState } from 'react';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeysProvider } from '../../src/tui/hooks/useKeys.js';
import { inkKey, pasteChunk, tokenize } from '../../src/tui/keyParse.js';
import { waitForFrame } from './render.js';

afterEach(() => cleanup());

const zwj = '👩‍💻'; // woman, ZWJ, laptop: one grapheme, five code units
const flag = '🇫🇷'; // two regional indicators
const accented = 'e\u0301'; // e and a combining acute accent

function field(opts: { multiline?: boolean; masked?: boolean; initial?: string; width?: number } = {}) {
  const state = { value: opts.initial ?? '', submitted: [] as string[] };
  function Field() {
    const [value, setValue] = useState(state.value);
    state.value = value;
    return (
      <Box width={opts.width ?? 100}>
        <TextField
          label="text"
          value={value}
          onChange={setValue}
          focused
          multiline={opts.multiline}
          masked={opts.masked}
          height={10}
          onSubmit={opts.multiline ? undefined : (v) => void state.submitted.push(v)}
        />
      </Box>
    );
  }
  const r = render(
    <KeysProvider>
      <Field />
    </KeysProvider>,
  );
  /** Raw terminal input, one key per write, as the stdin splitter passes it to Ink. */
  const send = async (raw: string) => {
    for (const k of tokenize(raw).keys) {
      r.stdin.write(inkKey(k));
      await new Promise((res) => setImmediate(res));
    }
  };
  const waitValue = async (want: string) => {
    const deadline = Date.now() + 5_000;
    while (state.value !== want) {
      if (Date.now() > deadline) throw new Error(`value ${JSON.stringify(state.value)}, wanted ${JSON.stringify(want)}`);
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  return { ...r, state, send, waitValue };
}

describe('line endings typed or pasted into a field', () => {
  it('takes a CR LF typed without bracketed paste as one line break, a lone CR as one too', async () => {
    const f = field({ multiline: true });
    await f.send('Line A\rLine B\r\nLine C');
    await f.waitValue('Line A\nLine B\nLine C');
    // A line feed alone is a line break; two enters are two.
    await f.send('\nD\r\rE');
    await f.waitValue('Line A\nLine B\nLine C\nD\n\nE');
    expect(await waitForFrame(f, '6 lines')).toMatch(/Line B\s*│\n│ Line C/);
  });

  it('takes a CR LF or a CR in a bracketed paste as one line break', async () => {
    const f = field({ multiline: true });
    await f.send('\x1b[200~Line B\r\nLine C\rLine D\x1b[201~');
    await f.waitValue('Line B\nLine C\nLine D');
    expect(f.lastFrame()).toContain('3 lines');
    // What the splitter makes of it when the paste's end came in a later read.
    f.stdin.write(pasteChunk('\r\nE'));
    await f.waitValue('Line B\nLine C\nLine D\nE');
  });

  it('in a single-line field, the LF of a CR LF is neither a space nor a second enter', async () => {
    const f = field();
    await f.send('ab\r\ncd');
    await f.waitValue('abcd');
    expect(f.state.submitted).toEqual(['ab']);
  });
});

describe('graphemes in a field', () => {
  it('a long single-line value shows the text around the cursor when it is far from the end', async () => {
    const value = `START${'x'.repeat(300)}END`;
    const f = field({ initial: value, width: 60 });
    await waitForFrame(f, (s) => s.includes('END'));
    await f.send('\x1b[H'); // home
    const atStart = await waitForFrame(f, (s) => s.includes('START'));
    expect(atStart).not.toContain('END');
    for (let i = 0; i < 150; i++) await f.send('\x1b[C'); // → into the middle
    const middle = await waitForFrame(f, (s) => !s.includes('START') && !s.includes('END'));
    expect(middle).toMatch(/text +x+/);
    await f.send('\x1b[F'); // end
    await waitForFrame(f, (s) => s.includes('END'));
  });

  it('backspace takes a ZWJ emoji, a flag and a combining accent whole', async () => {
    const f = field();
    await f.send(`x${zwj}${flag}${accented}`);
    await f.waitValue(`x${zwj}${flag}${accented}`);
    await f.send('\x7f');
    await f.waitValue(`x${zwj}${flag}`);
    await f.send('\x7f');
    await f.waitValue(`x${zwj}`);
    await f.send('\x7f');
    await f.waitValue('x');
    await f.send('\x7f\x7f');
    await f.waitValue('');
  });

  it('two backspaces on 👩‍💻é leave nothing behind (no dangling ZWJ), and the count follows', async () => {
    const f = field({ multiline: true, initial: `${zwj}é` });
    await waitForFrame(f, '6 chars');
    await f.send('\x7f\x7f');
    await f.waitValue('');
    await waitForFrame(f, '0 chars');
  });

  it('← and → step over a grapheme as one; typing lands between graphemes', async () => {
    const f = field({ initial: `a${zwj}${flag}${accented}b` });
    await waitForFrame(f, 'a');
    await f.send('\x1b[D\x1b[D\x1b[D\x1b[D1');
    await f.waitValue(`a1${zwj}${flag}${accented}b`);
    await f.send('\x1b[C2\x1b[C3\x1b[C4');
    await f.waitValue(`a1${zwj}2${flag}3${accented}4b`);
    // A batch of DEL bytes read at once erases one grapheme each.
    await f.send('\x7f\x7f\x7f');
    await f.waitValue(`a1${zwj}2${flag}b`);
  });

  it('deletes the grapheme under the cursor with the Delete key, and backspace the one before', async () => {
    const f = field({ initial: `a${zwj}${flag}${accented}b` });
    await waitForFrame(f, 'a');
    // Home, then past the a: the cursor is on the ZWJ emoji.
    await f.send('\x01\x1b[C');
    await f.send('\x1b[3~');
    await f.waitValue(`a${flag}${accented}b`);
    await f.send('\x1b[3~\x1b[3~');
    await f.waitValue('ab');
    // Backspace (DEL, as most terminals send it) still erases backwards; so does BS (ctrl+h).
    await f.send('\x7f');
    await f.waitValue('b');
    await f.send('\x1b[3~\x1b[3~');
    await f.waitValue('');
    await f.send('x\b');
    await f.waitValue('');
  });

  it('^w deletes the word to the left and ^u to the start of the line, as readline does', async () => {
    const f = field({ initial: 'git  commit -m' });
    await waitForFrame(f, 'commit');
    await f.send('\x17');
    await f.waitValue('git  commit ');
    await f.send('\x17');
    await f.waitValue('git  ');
    // From the middle: only what is left of the cursor goes.
    await f.send('x\x1b[D\x15');
    await f.waitValue('x');
    const m = field({ multiline: true, initial: 'one\ntwo three' });
    await waitForFrame(m, 'three');
    await m.send('\x15');
    await m.waitValue('one\n');
  });

  it('^u clears a hidden value whole: its cursor is at its end, where ^k deletes nothing', async () => {
    const f = field({ masked: true, initial: 'sk-wrong-paste' });
    await waitForFrame(f, '•');
    await f.send('\x0b');
    await f.send('\x01');
    await f.send('\x0b');
    expect(f.state.value).toBe('sk-wrong-paste');
    await f.send('\x15');
    await f.waitValue('');
  });

  it('a batch of DEL bytes that did not pass the splitter still erases backwards', async () => {
    const f = field({ initial: 'abcd' });
    await waitForFrame(f, 'abcd');
    f.stdin.write('\x7f\x7f');
    await f.waitValue('ab');
  });

  it('moves ↑/↓ onto a grapheme boundary of the other line', async () => {
    const f = field({ multiline: true, initial: `${accented}${accented}\nabcd` });
    await waitForFrame(f, '2 lines');
    // Column 3 in code units: inside the second é of the line above.
    await f.send('\x1b[D\x1b[AX');
    await f.waitValue(`${accented}X${accented}\nabcd`);
  });
});

describe('a long line', () => {
  it('shows its end with the cursor at its end, the text around the cursor elsewhere, and its start when not focused', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ') + ` 日本${zwj}end`;
    const f = field({ multiline: true, initial: `${long}\nshort` });
    await waitForFrame(f, 'short');
    await f.send('\x1b[A'); // up to column 5 of the long line: its start shows, with the cursor
    const near = await waitForFrame(f, (s) => s.includes('w0 w1'));
    expect(near.split('\n').find((l) => l.includes('w0 w1'))).toMatch(/…\s*│$/);
    await f.send('\x1b[F'); // end of the line
    const frame = await waitForFrame(f, 'end ');
    const row = frame.split('\n').find((l) => l.includes('end'))!;
    expect(row).toMatch(/│ …/);
    expect(row).toContain(`w399 日本${zwj}end`);
    await f.send('\x1b[B');
    const down = await waitForFrame(f, (s) => !/end /.test(s));
    expect(down.split('\n').find((l) => l.includes('w0 w1'))).toMatch(/…\s*│$/);
  });
});
