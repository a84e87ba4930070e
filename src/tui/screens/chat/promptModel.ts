/**
 * The chat prompt as data, with no React: a multi-line value and its cursor, walking the prompt
 * history (up/^p from the first line, down/^n from the last), and ^r's incremental search backwards
 * through it, as a shell's. Each key is a function from one state to the next; the view
 * (ChatPrompt.tsx) draws `promptLayout`'s rows.
 */
import { widthOf } from '../../../text.js';
import { graphemeStart, nextGrapheme, prevGrapheme, wordStart } from '../../components/TextField.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The most rows the prompt grows to; past them it scrolls with the cursor. */
export const PROMPT_ROWS_MAX = 6;

export interface PromptState {
  value: string;
  cursor: number;
  /** Walking the history: the entry shown (an index into it), and what was typed before the walk began. */
  browse: { at: number; draft: string } | null;
  /** ^r: what is searched for, the entry it found (-1: none), and the prompt as it was before. */
  search: { query: string; at: number; before: { value: string; cursor: number } } | null;
}

export const promptState = (value = ''): PromptState => ({ value, cursor: value.length, browse: null, search: null });

/** A value set from outside (a draft, $EDITOR, text given back): the cursor at its end, any walk over. */
export const withValue = (value: string): PromptState => promptState(value);

const edit = (s: PromptState, value: string, cursor: number): PromptState => ({ value, cursor, browse: null, search: null });

export function insert(s: PromptState, text: string): PromptState {
  return edit(s, s.value.slice(0, s.cursor) + text + s.value.slice(s.cursor), s.cursor + text.length);
}

export const newline = (s: PromptState): PromptState => insert(s, '\n');

const lineStartOf = (v: string, i: number) => v.lastIndexOf('\n', i - 1) + 1;
const lineEndOf = (v: string, i: number) => {
  const nl = v.indexOf('\n', i);
  return nl < 0 ? v.length : nl;
};

export const onFirstLine = (s: PromptState): boolean => !s.value.slice(0, s.cursor).includes('\n');
export const onLastLine = (s: PromptState): boolean => !s.value.slice(s.cursor).includes('\n');

export function left(s: PromptState): PromptState {
  return { ...s, cursor: prevGrapheme(s.value, s.cursor) };
}
export function right(s: PromptState): PromptState {
  return { ...s, cursor: nextGrapheme(s.value, s.cursor) };
}
export const home = (s: PromptState): PromptState => ({ ...s, cursor: lineStartOf(s.value, s.cursor) });
export const end = (s: PromptState): PromptState => ({ ...s, cursor: lineEndOf(s.value, s.cursor) });

export function erase(s: PromptState, count = 1): PromptState {
  let from = s.cursor;
  for (let i = 0; i < count; i++) from = prevGrapheme(s.value, from);
  return from === s.cursor ? s : edit(s, s.value.slice(0, from) + s.value.slice(s.cursor), from);
}
export function eraseForward(s: PromptState): PromptState {
  const to = nextGrapheme(s.value, s.cursor);
  return to === s.cursor ? s : edit(s, s.value.slice(0, s.cursor) + s.value.slice(to), s.cursor);
}
export const killLine = (s: PromptState): PromptState => edit(s, s.value.slice(0, s.cursor) + s.value.slice(lineEndOf(s.value, s.cursor)), s.cursor);
export function killLineStart(s: PromptState): PromptState {
  const start = lineStartOf(s.value, s.cursor);
  return edit(s, s.value.slice(0, start) + s.value.slice(s.cursor), start);
}
export function killWord(s: PromptState): PromptState {
  const start = wordStart(s.value, s.cursor);
  return edit(s, s.value.slice(0, start) + s.value.slice(s.cursor), start);
}

/** The cursor a line up or down, in the same column as far as the line allows. */
export function lineMove(s: PromptState, dir: -1 | 1): PromptState {
  const start = lineStartOf(s.value, s.cursor);
  const col = s.cursor - start;
  if (dir < 0) {
    if (start === 0) return s;
    const prevStart = lineStartOf(s.value, start - 1);
    return { ...s, cursor: graphemeStart(s.value, prevStart + Math.min(col, start - 1 - prevStart)) };
  }
  const endAt = lineEndOf(s.value, s.cursor);
  if (endAt === s.value.length) return s;
  const nextEnd = lineEndOf(s.value, endAt + 1);
  return { ...s, cursor: graphemeStart(s.value, endAt + 1 + Math.min(col, nextEnd - endAt - 1)) };
}

/** up / ^p: a line up, or from the first line the entry before (the newest first, then older). */
export function historyBack(s: PromptState, entries: readonly string[]): PromptState {
  if (!onFirstLine(s)) return lineMove(s, -1);
  const at = (s.browse?.at ?? entries.length) - 1;
  if (at < 0) return s;
  const value = entries[at]!;
  // The cursor at the end of the recalled prompt's first line: one more up goes on to the one before.
  return { value, cursor: lineEndOf(value, 0), browse: { at, draft: s.browse?.draft ?? s.value }, search: null };
}

/** down / ^n: a line down, or from the last line the entry after; past the newest, what was typed. */
export function historyForward(s: PromptState, entries: readonly string[]): PromptState {
  if (!onLastLine(s)) return lineMove(s, 1);
  if (!s.browse) return s;
  const at = s.browse.at + 1;
  if (at >= entries.length) return { ...promptState(s.browse.draft), browse: null };
  const value = entries[at]!;
  return { value, cursor: value.length, browse: { at, draft: s.browse.draft }, search: null };
}

/** The newest entry before `from` that holds `query` (case as typed), or -1. */
function findBack(entries: readonly string[], query: string, from: number): number {
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) if (entries[i]!.includes(query)) return i;
  return -1;
}

/** ^r: the search begins (empty: it shows the newest entry once something is typed), or finds the next older match. */
export function searchBack(s: PromptState, entries: readonly string[]): PromptState {
  if (!s.search) return { ...s, browse: null, search: { query: '', at: -1, before: { value: s.value, cursor: s.cursor } } };
  const { query, at } = s.search;
  if (query === '') return s;
  const next = findBack(entries, query, (at < 0 ? entries.length : at) - 1);
  return next < 0 ? s : { ...s, search: { ...s.search, at: next } };
}

/** A character typed into the search (or erased): the newest match of the query as it now stands. */
export function searchType(s: PromptState, entries: readonly string[], query: string): PromptState {
  if (!s.search) return s;
  const at = query === '' ? -1 : findBack(entries, query, entries.length - 1);
  return { ...s, search: { ...s.search, query, at } };
}

/** enter: the match becomes the prompt (not sent: it can be edited first); no match, the prompt as it was. */
export function searchAccept(s: PromptState, entries: readonly string[]): PromptState {
  if (!s.search) return s;
  const found = s.search.at >= 0 ? entries[s.search.at] : undefined;
  return found === undefined ? { ...s.search.before, browse: null, search: null } : promptState(found);
}

export const searchCancel = (s: PromptState): PromptState => (s.search ? { ...s.search.before, browse: null, search: null } : s);

export interface PromptRow {
  text: string;
  /** The cursor's offset in `text`, or -1 when it is not on this row. */
  cursorAt: number;
}

/**
 * The value as rows `width` cells wide (each line wrapped by grapheme), and the window of at most
 * `maxRows` of them around the cursor. Costs what the value costs, not the transcript.
 */
export function promptLayout(value: string, cursor: number, width: number, maxRows = PROMPT_ROWS_MAX): { rows: PromptRow[]; total: number; first: number } {
  const room = Math.max(4, width - 1); // a cell for the cursor at a row's end
  const rows: PromptRow[] = [];
  let offset = 0;
  let cursorRow = 0;
  for (const line of value.split('\n')) {
    let start = 0;
    // Printable ASCII is a cell a character: cut by length (a long paste costs no segmenting).
    const ascii = PRINTABLE_ASCII.test(line);
    do {
      let endAt = ascii ? Math.min(line.length, start + room) : start;
      let cells = 0;
      while (!ascii && endAt < line.length) {
        const next = nextGrapheme(line, endAt);
        const w = widthOf(line.slice(endAt, next));
        if (cells + w > room) break;
        cells += w;
        endAt = next;
      }
      if (endAt === start && endAt < line.length) endAt = nextGrapheme(line, endAt);
      const rowStart = offset + start;
      const rowEnd = offset + endAt;
      const last = endAt >= line.length;
      const here = cursor >= rowStart && (cursor < rowEnd || (last && cursor === rowEnd));
      if (here) cursorRow = rows.length;
      rows.push({ text: line.slice(start, endAt), cursorAt: here ? cursor - rowStart : -1 });
      start = endAt;
    } while (start < line.length);
    offset += line.length + 1;
  }
  const shown = Math.min(maxRows, rows.length);
  const first = Math.max(0, Math.min(cursorRow - shown + 1, rows.length - shown));
  return { rows: rows.slice(first, first + shown), total: rows.length, first };
}

/** How many rows the prompt takes at `width`: what ChatScreen leaves the transcript. */
export function promptRows(s: PromptState, width: number): number {
  if (s.search) return 1;
  return promptLayout(s.value, s.cursor, width).rows.length;
}
