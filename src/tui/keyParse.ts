/**
 * Pure key parsing, apart from the React key queue (hooks/useKeys.ts) and from
 * stdin (stdinSplitter.ts):
 * - `tokenize` cuts raw terminal input into single keys: an escape sequence,
 *   a control byte, one code point, or a whole bracketed paste;
 * - `splitKeys` cuts a chunk Ink already parsed into keys (for input that did
 *   not pass the splitter, as in component tests);
 * - a paste travels as one chunk marked with PASTE_MARK, so a pasted "foo\r"
 *   is text for a field, never an enter.
 */
import type { Key } from 'ink';
import { ESC, PASTE_END, PASTE_START } from './terminal.js';

/** Leads a chunk that is a paste (a private-use code point no keyboard sends). */
export const PASTE_MARK = '\ue000';
/** Stands for a line break inside a paste (Unicode's line separator), so it is not read as enter. */
export const PASTE_NEWLINE = '\u2028';
/** The longest paste kept (longer ones are cut): a field is no place for a file. */
export const PASTE_MAX = 1 << 20;

/** The chunk a paste becomes: marked, line breaks as PASTE_NEWLINE, other controls (and escapes) dropped. */
export function pasteChunk(text: string): string {
  const clean = text
    .slice(0, PASTE_MAX)
    .replace(/\r\n?|\n/g, PASTE_NEWLINE)
    .replace(/\t/g, ' ')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x1f\x7f]/g, '');
  return PASTE_MARK + clean;
}

/** The text of a paste chunk, with real line breaks; null for anything else. */
export function pastedText(input: string): string | null {
  if (!input.startsWith(PASTE_MARK)) return null;
  return input.slice(PASTE_MARK.length).replaceAll(PASTE_NEWLINE, '\n');
}

const CSI_FINAL = /[@-~]/;

/**
 * Cuts raw input into keys. Returns the keys and what is left over: an escape
 * sequence or a paste cut off at the end of the chunk waits for the next one.
 * A lone ESC at the end is the escape key (Ink decides the same way).
 */
export function tokenize(input: string): { keys: string[]; rest: string } {
  const keys: string[] = [];
  let i = 0;
  while (i < input.length) {
    if (input.startsWith(PASTE_START, i)) {
      const end = input.indexOf(PASTE_END, i + PASTE_START.length);
      if (end < 0) {
        if (input.length - i > PASTE_MAX + 64) {
          keys.push(pasteChunk(input.slice(i + PASTE_START.length)));
          return { keys, rest: '' };
        }
        return { keys, rest: input.slice(i) };
      }
      keys.push(pasteChunk(input.slice(i + PASTE_START.length, end)));
      i = end + PASTE_END.length;
      continue;
    }
    const ch = input[i]!;
    if (ch === ESC) {
      const seq = escapeSequence(input, i);
      if (seq === 'pending') {
        // ESC[2 alone could be the start of a paste marker or a key: wait for more.
        if (i + 1 === input.length) {
          keys.push(ESC);
          return { keys, rest: '' };
        }
        return { keys, rest: input.slice(i) };
      }
      keys.push(input.slice(i, seq));
      i = seq;
      continue;
    }
    const cp = input.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    keys.push(input.slice(i, i + len));
    i += len;
  }
  return { keys, rest: '' };
}

/** Where the escape sequence starting at `i` ends, or 'pending' when the input stops inside it. */
function escapeSequence(input: string, i: number): number | 'pending' {
  const next = input[i + 1];
  if (next === undefined) return 'pending';
  if (next === '[') {
    // A legacy (X10) mouse report: ESC [ M and three bytes of any value (attach/mouse.ts).
    if (input[i + 2] === 'M') return i + 6 <= input.length ? i + 6 : 'pending';
    let j = i + 2;
    // A legacy function key: ESC [ [ A.
    if (input[j] === '[') j++;
    for (; j < input.length; j++) if (CSI_FINAL.test(input[j]!) && !/[0-?]/.test(input[j]!)) return j + 1;
    return 'pending';
  }
  if (next === 'O') return i + 3 <= input.length ? i + 3 : 'pending';
  // ESC ESC [A: meta and an arrow.
  if (next === ESC) {
    if (i + 2 >= input.length) return 'pending';
    const inner = escapeSequence(input, i + 1);
    return inner;
  }
  // Meta and a key: ESC and one code point.
  const cp = input.codePointAt(i + 1)!;
  return i + 1 + (cp > 0xffff ? 2 : 1);
}

/**
 * A key as the splitter hands it to Ink. Ink reports DEL, the byte most terminals send for
 * backspace, and the Delete key (ESC [3~) alike as `delete`; so DEL goes to Ink as BS, which it
 * reports as `backspace` (as it does ctrl+h), and `delete` is the Delete key alone: it deletes
 * forward. Alt+backspace likewise. Only keys for Ink: the attach screen gets the bytes as typed.
 */
export function inkKey(key: string): string {
  return key === '\x7f' ? '\b' : key === '\x1b\x7f' ? '\x1b\b' : key;
}

/** A run Ink hands over whole: it splits escape sequences off, but not text from the control keys typed with it. */
const TYPED_CHUNK = /^[^\x1b]+$/u;
/** How Ink reports these keys when they come alone; DEL is backspace, as the splitter hands it (inkKey). */
const CONTROL_KEYS: Record<string, { input: string; flags: Partial<Key> }> = {
  '\r': { input: '\r', flags: { return: true } },
  '\n': { input: '\r', flags: { return: true } },
  '\t': { input: '', flags: { tab: true } },
  '\x7f': { input: '', flags: { backspace: true } },
  '\b': { input: '', flags: { backspace: true } },
};

/** The key flags of a single typed character. */
export function plainKey(ch: string): Key {
  return {
    upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
    home: false, end: false, return: false, escape: false, ctrl: false, shift: /[A-Z]/.test(ch), tab: false,
    backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
    ...CONTROL_KEYS[ch]?.flags,
  } as Key;
}

/** One control character as Ink reports it alone: enter, tab and backspace by name, ^A..^Z as ctrl+letter. */
function controlKey(ch: string): [string, Key] {
  const named = CONTROL_KEYS[ch];
  if (named) return [named.input, plainKey(ch)];
  const code = ch.charCodeAt(0);
  if (code >= 1 && code <= 26) {
    const letter = String.fromCharCode(code + 96);
    return [letter, { ...plainKey(letter), ctrl: true }];
  }
  return [ch, plainKey(ch)];
}

/**
 * Splits a chunk read at once into the keys it holds. Ink hands over "openai\r"
 * or "hex^S" (typed fast, or sent by a script) as one input; they are letters
 * and then an enter, or a ctrl+s. A run of printable characters stays whole
 * when a text field is taking text (a paste); otherwise each character is a
 * key of its own. A marked paste stays whole for a text field and is dropped
 * otherwise: pasted text never runs commands.
 */
export function splitKeys(input: string, key: Key, textTaken: boolean): [string, Key][] {
  if (input.startsWith(PASTE_MARK)) return textTaken ? [[input, plainKey('')]] : [];
  const flagged = key.ctrl || key.meta || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow;
  if (flagged || [...input].length < 2 || !TYPED_CHUNK.test(input)) return [[input, key]];
  const keys: [string, Key][] = [];
  for (const part of input.match(/[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+/gu) ?? []) {
    if (/^[\x00-\x1f\x7f]$/.test(part)) keys.push(controlKey(part));
    else if (textTaken) keys.push([part, plainKey(part)]);
    else for (const ch of part) keys.push([ch, plainKey(ch)]);
  }
  return keys;
}
