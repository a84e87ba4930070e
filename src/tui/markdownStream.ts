/**
 * Markdown that grows at its end (an answer streaming in), laid out as it grows, and code blocks
 * kept as their lines: a long transcript is mostly a command's output, and a row of it is drawn
 * (built, coloured) only when a window shows it. See `MarkdownStream`.
 */
import { sanitize } from '../text.js';
import { block, codeBottom, codeLine, codeTop, lex, trimEnd, type MarkdownOptions } from './markdown.js';
import { type CodeBlock, type Row, wrapSegments } from './wrap.js';

/** Rows read by index: an array of rows, or a code block's lines drawn when asked for. */
export interface RowList {
  readonly length: number;
  at(i: number): Row | undefined;
}

/** A code block's lines that each fit in a row (its width less the rule), each drawn when read. */
export class CodeRows implements RowList {
  readonly lines: string[] = [];
  constructor(
    readonly block: CodeBlock,
    private readonly opts: MarkdownOptions,
  ) {}

  get length(): number {
    return this.lines.length;
  }

  at(i: number): Row | undefined {
    const line = this.lines[i];
    return line === undefined ? undefined : codeLine(line, this.block, this.opts, '')[0];
  }
}

/** Every row of `lists`, in order (for a test, or a whole layout). */
export function allRows(lists: readonly RowList[]): Row[] {
  return lists.flatMap((l) => Array.from({ length: l.length }, (_, i) => l.at(i)!));
}

const OPEN_FENCE = /^ {0,3}(`{3,}|~{3,})([^\n`]*)\n/;

/**
 * Each call is given the whole text so far, and lays out only what is new. Top-level blocks the
 * lexer has closed (any but the last) are laid out once and kept (`done`); the last is laid out
 * again on the next call, except an open fenced code block (a command's output streaming in),
 * whose finished lines are kept too, so a long answer costs its new lines, not its length. What
 * it lays out is what laying the text out whole gives (a unit test checks every prefix). Text
 * that does not extend the last one given starts over.
 */
export class MarkdownStream {
  private text = '';
  /** The length of the text whose blocks are laid out in `done`. */
  private doneLen = 0;
  private readonly done: RowList[] = [];
  /** An open code block at the end: where its lines start, how far they are laid out, and its parts so far. */
  private open: { from: number; upTo: number; block: CodeBlock; parts: RowList[] } | null = null;
  private last: RowList[] | null = null;

  constructor(private readonly opts: MarkdownOptions) {}

  /** The rows of `text` in parts, to be read in order (the parts kept are shared, not copied). */
  parts(text: string): RowList[] {
    if (text === this.text && this.last) return this.last;
    this.last = this.lay(text);
    return this.last;
  }

  private lay(text: string): RowList[] {
    if (!text.startsWith(this.text)) {
      this.doneLen = 0;
      this.done.length = 0;
      this.open = null;
    }
    this.text = text;
    const rest = text.slice(this.doneLen);
    const fence = OPEN_FENCE.exec(rest);
    // An open code block: its new whole lines join it (a fence that closes it ends this path).
    if (fence && !new RegExp(`\\n {0,3}${fence[1]![0]}{${fence[1]!.length},}[ \\t]*(\\n|$)`).test(rest.slice(fence[0].length - 1))) {
      const from = this.doneLen + fence[0].length;
      if (this.open?.from !== from) {
        const b: CodeBlock = { text: '', lang: sanitize(fence[2]!.trim().split(/\s/)[0] ?? '') };
        this.open = { from, upTo: from, block: b, parts: [[codeTop(b, '')]] };
      }
      const o = this.open;
      const end = text.lastIndexOf('\n') + 1;
      if (end > o.upTo) {
        const lines = sanitize(text.slice(o.upTo, end - 1), { multiline: true });
        o.block.text += (o.upTo > o.from ? '\n' : '') + lines;
        this.code(o.parts, o.block, lines.split('\n'));
        o.upTo = end;
      }
      // The line still coming, and the block's end drawn already, as the whole text's lexer draws it.
      const partial = text.slice(Math.max(o.upTo, from));
      const tail = partial || o.upTo === from ? codeLine(sanitize(partial), o.block, this.opts, '') : [];
      return [...this.done, ...o.parts, tail, [codeBottom(o.block, '')]];
    }
    this.open = null;
    const tokens = lex(rest);
    if (!tokens) return [...this.done, wrapSegments([{ text: sanitize(rest, { multiline: true }) }], this.opts.width)];
    // Every block but the last non-space one is closed: laid out for good.
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    const closed = tokens.slice(0, Math.max(0, last));
    const consumed = closed.map((t) => t.raw).join('');
    // Kept only where the tokens spell the text as it is (the lexer turns a CR into a line break).
    if (closed.length > 0 && rest.startsWith(consumed)) {
      for (const t of closed) {
        if (t.type !== 'code') {
          rows(this.done, block([t], this.opts, ''));
          continue;
        }
        // A code block as block() lays it out (its top, its lines, its bottom, a blank row), its lines kept as lines.
        const b: CodeBlock = { text: sanitize((t as { text: string }).text, { multiline: true }), lang: (t as { lang?: string }).lang ? sanitize((t as { lang: string }).lang) : '' };
        rows(this.done, [codeTop(b, '')]);
        this.code(this.done, b, b.text.split('\n'));
        rows(this.done, [codeBottom(b, ''), []]);
      }
      this.doneLen += consumed.length;
      return [...this.done, trimEnd(block(tokens.slice(last), this.opts, ''))];
    }
    return [...this.done, trimEnd(block(tokens, this.opts, ''))];
  }

  /** A code block's lines onto `parts`: those that fit as lines, a longer one wrapped to its rows. */
  private code(parts: RowList[], b: CodeBlock, lines: string[]): void {
    const room = this.opts.width - 2;
    for (const line of lines) {
      if (line.length <= room) {
        const last = parts[parts.length - 1];
        const tail = last instanceof CodeRows && last.block === b ? last : new CodeRows(b, this.opts);
        if (tail !== last) parts.push(tail);
        tail.lines.push(line);
      } else rows(parts, codeLine(line, b, this.opts, ''));
    }
  }
}

/** Rows onto `parts`: onto its last part when that is an array of rows. */
function rows(parts: RowList[], more: Row[]): void {
  let tail = parts[parts.length - 1];
  if (!Array.isArray(tail)) parts.push((tail = []));
  for (const r of more) (tail as Row[]).push(r);
}
