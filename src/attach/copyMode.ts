/**
 * Copy mode: what history mode (shift+pgup) does with the keyboard. A cursor
 * moves over the emulator's scrollback and screen; `/` and `?` type a search
 * forward or backward, `n` and `N` step through its matches (highlighted on
 * the rows in view); `v` starts a selection that the cursor extends, and `y`
 * hands its text to be copied. No React and no keys of its own: the caller
 * maps keys to actions (the TUI's keymap) and draws the marks (painter.ts).
 *
 * A search is plain text, not a pattern; it ignores case unless it holds a
 * capital letter (vim's smartcase). Each buffer row is searched by itself: a
 * match across the edge of a wrapped row is not found. Marking the rows in
 * view reads those rows only, whatever the scrollback holds.
 */
import type xterm from '@xterm/headless';
import type { KeyEvent } from './keys.js';
import type { RowMark } from './painter.js';
import { sanitize } from '../text.js';

export type CopyAction =
  | 'up' | 'down' | 'left' | 'right' | 'lineStart' | 'lineEnd' | 'pageUp' | 'pageDown' | 'top' | 'bottom'
  | 'searchForward' | 'searchBackward' | 'next' | 'previous' | 'select' | 'copy' | 'exit';

/** A match, the cursor, the selection, as the painter draws them. */
const MATCH_SGR = '0;30;43';
const CURRENT_SGR = '0;30;46';
const SELECTION_SGR = '0;7';

interface Point {
  line: number;
  col: number;
}

/** A row's text with the cell each character starts in (wide characters take two cells, one character). */
function rowText(term: xterm.Terminal, line: number): { text: string; cols: number[] } {
  const row = term.buffer.active.getLine(line);
  let text = '';
  const cols: number[] = [];
  if (!row) return { text, cols };
  const cell = term.buffer.active.getNullCell();
  for (let x = 0; x < term.cols; x++) {
    const c = row.getCell(x, cell);
    if (!c || c.getWidth() === 0) continue;
    const chars = c.getChars() || ' ';
    for (let i = 0; i < chars.length; i++) cols.push(x);
    text += chars;
  }
  return { text, cols };
}

export class CopyMode {
  cursor: Point;
  /** Where `v` was pressed; null without a selection. */
  anchor: Point | null = null;
  /** The search in force, and whether `n` goes forward. */
  query = '';
  forward = true;
  /** A search being typed (after `/` or `?`); null when none is. */
  prompt: string | null = null;
  private promptForward = true;
  /** What the last search or step said (no match, wrapped), for the status bar. */
  note = '';

  constructor(private readonly term: xterm.Terminal) {
    const b = term.buffer.active;
    this.cursor = { line: b.viewportY + term.rows - 1, col: 0 };
  }

  private get lastLine(): number {
    return this.term.buffer.active.length - 1;
  }

  /** Runs an action; answers the text to copy for `copy` (then copy mode ends), 'exit' to leave, else undefined. */
  act(action: CopyAction): string | 'exit' | undefined {
    this.note = '';
    const c = this.cursor;
    const rows = this.term.rows;
    switch (action) {
      case 'up': c.line--; break;
      case 'down': c.line++; break;
      case 'left': c.col--; break;
      case 'right': c.col++; break;
      case 'lineStart': c.col = 0; break;
      case 'lineEnd': {
        const { text, cols } = rowText(this.term, c.line);
        c.col = cols[text.trimEnd().length - 1] ?? 0;
        break;
      }
      case 'pageUp': c.line -= rows - 1; break;
      case 'pageDown': c.line += rows - 1; break;
      case 'top': c.line = 0; break;
      case 'bottom': c.line = this.lastLine; break;
      case 'searchForward':
      case 'searchBackward':
        this.prompt = '';
        this.promptForward = action === 'searchForward';
        return undefined;
      case 'next': this.step(this.forward); break;
      case 'previous': this.step(!this.forward); break;
      case 'select': this.anchor = this.anchor ? null : { ...c }; break;
      case 'copy': return this.anchor ? this.selectedText() : this.lineText(c.line);
      case 'exit': return 'exit';
    }
    this.clamp();
    return undefined;
  }

  /**
   * A key in copy mode, with the action the caller's keymap makes of it (if any). While a search
   * is typed, every key goes to it. Answers what the key did: nothing (`ignored`: the key is the
   * remote's again, and copy mode ends), text to copy, or `exit`.
   */
  key(event: KeyEvent, action: CopyAction | undefined): 'done' | 'ignored' | 'exit' | { copy: string } {
    if (this.prompt !== null) {
      if (event.kind === 'raw' && event.bytes === '\x1b') this.type('escape');
      else if (event.kind === 'text' && !event.alt) {
        for (const ch of event.text) {
          if (ch === '\r' || ch === '\n') this.type('enter');
          else if (ch === '\x7f' || ch === '\b') this.type('backspace');
          else if (ch === '\x1b' || ch === '\x03') this.type('escape');
          else if (ch >= ' ') this.type({ text: ch });
          if (this.prompt === null) break;
        }
      } else if (event.kind === 'paste') this.type({ text: event.text });
      return 'done';
    }
    if (!action) return 'ignored';
    const result = this.act(action);
    if (result === 'exit') return 'exit';
    return result === undefined ? 'done' : { copy: result };
  }

  /** A key typed while a search is being typed: text is added, backspace takes the last character off, enter searches, escape drops it. */
  type(key: 'enter' | 'escape' | 'backspace' | { text: string }): void {
    if (this.prompt === null) return;
    if (key === 'escape') this.prompt = null;
    else if (key === 'backspace') this.prompt = this.prompt.slice(0, -1);
    else if (key === 'enter') {
      const query = this.prompt;
      this.prompt = null;
      if (query === '') return;
      this.query = query;
      this.forward = this.promptForward;
      this.step(this.forward);
    } else this.prompt += sanitize(key.text);
  }

  /** Moves the cursor to the next match (or the previous), wrapping round the buffer once. */
  private step(forward: boolean): void {
    if (!this.query) {
      this.note = 'no search yet: / or ?';
      return;
    }
    const total = this.lastLine + 1;
    const { line, col } = this.cursor;
    for (let n = 0; n <= total; n++) {
      const at = forward ? (line + n) % total : (line - n + total) % total;
      const found = this.matchesIn(at);
      const hit = forward
        ? found.find((m) => n > 0 || m.from > col)
        : [...found].reverse().find((m) => n > 0 || m.from < col);
      if (hit) {
        if (forward ? at < line : at > line) this.note = forward ? 'search went past the end: from the top' : 'search went past the top: from the end';
        this.cursor = { line: at, col: hit.from };
        return;
      }
    }
    this.note = `no match for "${this.query}"`;
  }

  /** The cells of row `line` that match the search: [from, to). */
  private matchesIn(line: number): { from: number; to: number }[] {
    if (!this.query) return [];
    const { text, cols } = rowText(this.term, line);
    const smart = /[A-Z]/.test(this.query);
    const hay = smart ? text : text.toLowerCase();
    const needle = smart ? this.query : this.query.toLowerCase();
    const out: { from: number; to: number }[] = [];
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) {
      const last = i + needle.length - 1;
      out.push({ from: cols[i]!, to: (cols[last] ?? cols[i]!) + 1 });
    }
    return out;
  }

  private clamp(): void {
    const c = this.cursor;
    c.line = Math.max(0, Math.min(this.lastLine, c.line));
    c.col = Math.max(0, Math.min(this.term.cols - 1, c.col));
  }

  /** The view's first line that keeps the cursor in view (the caller scrolls there). */
  viewTop(): number {
    const b = this.term.buffer.active;
    const top = b.viewportY;
    const line = this.cursor.line;
    if (line < top) return line;
    if (line >= top + this.term.rows) return line - this.term.rows + 1;
    return top;
  }

  /** The marks of visible row `y` (the view's first line is `top`): matches, the selection. */
  marks(y: number, top: number): RowMark[] {
    const line = top + y;
    const marks: RowMark[] = [];
    if (this.anchor) {
      const [a, b] = this.ordered();
      if (line >= a.line && line <= b.line) marks.push({ from: line === a.line ? a.col : 0, to: line === b.line ? b.col + 1 : this.term.cols, sgr: SELECTION_SGR });
    }
    for (const m of this.matchesIn(line)) {
      const current = line === this.cursor.line && m.from === this.cursor.col;
      marks.push({ ...m, sgr: current ? CURRENT_SGR : MATCH_SGR });
    }
    return marks;
  }

  private ordered(): [Point, Point] {
    const a = this.anchor!;
    const b = this.cursor;
    return a.line < b.line || (a.line === b.line && a.col <= b.col) ? [a, b] : [b, a];
  }

  private lineText(line: number): string {
    return sanitize(rowText(this.term, line).text.trimEnd());
  }

  /** The selection's text: rows joined by line breaks, but a row that wrapped on into the next, trailing blanks off each line. */
  private selectedText(): string {
    const [a, b] = this.ordered();
    let out = '';
    for (let line = a.line; line <= b.line; line++) {
      const { text, cols } = rowText(this.term, line);
      const from = line === a.line ? cols.findIndex((x) => x >= a.col) : 0;
      const endCol = line === b.line ? b.col : Infinity;
      let to = cols.findIndex((x) => x > endCol);
      if (to === -1) to = text.length;
      const piece = text.slice(Math.max(0, from), to);
      const wrapsOn = line < b.line && this.term.buffer.active.getLine(line + 1)?.isWrapped === true;
      out += wrapsOn ? piece : `${piece.trimEnd()}${line < b.line ? '\n' : ''}`;
    }
    return sanitize(out, { multiline: true });
  }
}
