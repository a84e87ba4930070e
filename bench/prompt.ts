/**
 * The remote shell's prompt during the bench.
 *
 * Benchmark 4 stops each flood with ctrl+c. The line discipline then throws
 * away whatever `cat` had written that nobody had read yet, so the screen
 * receives the flood cut at an arbitrary byte. When that byte is an ESC, the
 * next thing the terminal sees is the echoed `^C`, and `ESC ^` opens a
 * privacy message: a string that only a string terminator ends. The `\r\n`
 * and a plain `$ ` prompt after it vanish into that string, the screen never
 * shows the prompt, and the wait for it times out (about one cut in twenty, so
 * about one run in five with four ctrl+c's).
 *
 * So every prompt starts with a string terminator (`ESC \`, which also ends a
 * half-sent escape sequence), a carriage return and erase-to-end-of-line (the
 * cut line's remains are wiped), then `$ `. On a clean screen the first three
 * do nothing visible.
 */
import type { PtyScreen } from '../test/e2e/harness.js';

export const PROMPT = '\x1b\\\r\x1b[K$ ';

/** The text of the prompt's line once drawn, as `PtyScreen.cursorLine()` returns it. */
export const PROMPT_LINE = '$';

/** The shell command that sets `PS1` to PROMPT, typed as plain printable text (octal escapes through printf). */
export function setPromptCommand(): string {
  let fmt = '';
  for (const ch of PROMPT) {
    const code = ch.charCodeAt(0);
    if (ch === '\\') fmt += '\\\\';
    else if (ch === "'" || ch === '%') throw new Error(`the prompt cannot hold ${ch}`);
    else if (code < 0x20 || code === 0x7f) fmt += `\\${code.toString(8).padStart(3, '0')}`;
    else fmt += ch;
  }
  return `PS1="$(printf '${fmt}')"`;
}

/**
 * Sets PROMPT at the shell on `screen` and clears the screen, waiting for both (and, with `gone`,
 * for that text to be off the screen too). The shell's `$ ` looks like the bench's prompt, and a
 * screen without the flood's last line like a cleared one: a mark the shell prints (its answer to
 * a sum, not the echo of what was typed) says that it has run both, and the clear that follows is
 * seen to take the mark away. Without it, the first key typed could go before `clear` ran, which
 * then wiped its echo off the line.
 */
export async function promptOnClearScreen(screen: PtyScreen, gone?: string): Promise<void> {
  screen.write(`${setPromptCommand()}; echo bench-mark-$((6*7))\r`);
  await screen.whenParsed(() => screen.screen().includes('bench-mark-42') && screen.cursorLine() === PROMPT_LINE, 10_000, 'the bench prompt');
  screen.write('clear\r');
  await screen.whenParsed(() => (gone === undefined || !screen.screen().includes(gone)) && !screen.screen().includes('bench-mark-42') && screen.cursorLine() === PROMPT_LINE, 30_000, 'a clear screen');
}
