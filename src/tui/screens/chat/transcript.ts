/**
 * The chat transcript as rows, with no React: every turn laid out as wrapped, styled rows (the
 * prompt, reasoning, tool calls with their replies, the answer as Markdown, steering notes, the
 * status and usage), and the window of them a pane of a given height shows at a scroll position.
 * `scroll` counts rows up from the end, so a transcript that grows keeps its bottom in view.
 */
import { parseProvideInput } from '../../../contract/chat.js';
import { sanitize } from '../../../text.js';
import { counted } from '../../format.js';
import { keyLabel } from '../../keymap.js';
import type { MarkdownOptions } from '../../markdown.js';
import { MarkdownStream, type RowList, allRows } from '../../markdownStream.js';
import { theme } from '../../theme.js';
import { type Row, wrapSegments } from '../../wrap.js';
import { type Turn, usageLine } from '../chatModel.js';

/** How the transcript is laid out: width, hyperlinks or the highlighter changing lays every turn out again. */
export interface LayoutOptions {
  width: number;
  /** Reasoning folded to one line (^o). */
  folded: boolean;
  /** The terminal draws OSC 8 hyperlinks. */
  hyperlinks: boolean;
  /** Tool calls shown whole (enter on one in the transcript), by id; the others take a row. */
  expanded?: ReadonlySet<string>;
  /** Colours a code block's line (the highlighter, once loaded). */
  highlight?: MarkdownOptions['highlight'];
}

/** What a run of rows is: the message `y` copies, the tool call `enter` folds. */
export interface Piece {
  kind: 'prompt' | 'reasoning' | 'tool' | 'ask' | 'answer' | 'note' | 'status';
  /** The message as text (sanitised): what `y` copies. */
  text: string;
  /** A tool call's id (`tool`): what enter expands or folds. */
  toolId?: string;
}

interface Part {
  rows: RowList;
  piece: Piece | null;
}

interface TurnLayout {
  turn: Turn;
  folded: boolean;
  expandedKey: string;
  parts: Part[];
  count: number;
  /** The answer's Markdown, kept while the turn streams so that only what is new is laid out. */
  md: MarkdownStream;
}

/** A tool call's arguments whole: JSON indented, anything else as it came (sanitised either way). */
function argsText(args: string): string {
  try {
    return sanitize(JSON.stringify(JSON.parse(args), null, 2), { multiline: true });
  } catch {
    return sanitize(args, { multiline: true });
  }
}

/** One turn as parts of rows: the prompt, reasoning, tool calls (a request with its reply), the answer, steering notes, its usage, and a blank row. */
function turnParts(t: Turn, opts: LayoutOptions, md: MarkdownStream): Part[] {
  const { width, folded } = opts;
  const parts: Part[] = [];
  const add = (rows: RowList, piece: Piece | null) => parts.push({ rows, piece });
  const prompt = sanitize(t.prompt, { multiline: true });
  add(wrapSegments([{ text: 'you › ', bold: true, color: theme.accent }, { text: prompt }], width, '      ', ''), { kind: 'prompt', text: prompt });
  if (t.reasoning) {
    const r = sanitize(t.reasoning, { multiline: true }).trim();
    const piece: Piece = { kind: 'reasoning', text: r };
    if (folded) add([[{ text: `▸ reasoning, ${counted(r.length, 'char')} (^o unfolds)`, dim: true, italic: true }]], piece);
    else add(wrapSegments([{ text: r, dim: true, italic: true }], width, '┆ ', '┆ '), piece);
  }
  for (const tool of t.tools) {
    const asks = parseProvideInput({ function: { name: tool.name, arguments: tool.args } });
    if (asks) {
      const what = asks.kind === 'permission' ? `asks permission: ${sanitize(asks.operation ?? 'an operation')}` : `asks: ${sanitize(asks.message)}`;
      const reply = t.replies[tool.id];
      const piece: Piece = { kind: 'ask', text: `${what}${reply ? `\n${sanitize(reply)}` : ''}`, toolId: tool.id };
      add(wrapSegments([{ text: `? ${what}`, color: theme.warning }], width, '  '), piece);
      // The reply under its request, where it was given: before what the intern did with it.
      if (reply) add(wrapSegments([{ text: sanitize(reply), color: theme.muted }], width, '    ', '  '), piece);
      continue;
    }
    const whole = argsText(tool.args);
    const piece: Piece = { kind: 'tool', text: whole, toolId: tool.id };
    if (opts.expanded?.has(tool.id)) {
      add(wrapSegments([{ text: `▾ ⚙ ${sanitize(tool.name)}`, color: theme.badge }], width, '  '), piece);
      add(wrapSegments([{ text: whole, dim: true }], width, '    '), piece);
    } else {
      const args = sanitize(tool.args).slice(0, Math.max(10, width - 20));
      add(wrapSegments([{ text: `⚙ ${sanitize(tool.name)} `, color: theme.badge }, { text: args, dim: true }], width, '  '), piece);
    }
  }
  if (t.answer) {
    const piece: Piece = { kind: 'answer', text: sanitize(t.answer, { multiline: true }) };
    for (const rows of md.parts(t.answer)) add(rows, piece);
  }
  for (const n of t.notes) {
    const note = sanitize(n, { multiline: true });
    add(wrapSegments([{ text: note, color: theme.muted }], width, '  '), { kind: 'note', text: note });
  }
  if (t.streamError) add(wrapSegments([{ text: `✖ ${sanitize(t.streamError)}`, color: theme.error }], width, '  '), null);
  // A turn that failed outside its stream (a dropped connection) says so where it stands: the
  // error box under the transcript is the last turn's only, and a later prompt takes its place.
  else if (t.status === 'failed' && t.started) add(wrapSegments([{ text: '✖ did not finish: the answer above may be incomplete', color: theme.error }], width, '  '), null);
  const tail =
    t.status === 'running' ? `… streaming (${keyLabel('chatCancel')} cancels)` : t.status === 'cancelled' ? '(cancelled)' : t.status === 'waiting' ? '… waiting for your answer' : '';
  if (t.usage) add([[{ text: `${tail ? `${tail} · ` : ''}${usageLine(t.usage)}`, dim: true }]], null);
  else if (tail) add([[{ text: tail, dim: true }]], null);
  add([[]], null);
  return parts;
}

/** One turn as wrapped rows (laid out from scratch). */
export function turnRows(t: Turn, opts: LayoutOptions): Row[] {
  return allRows(turnParts(t, opts, new MarkdownStream({ width: opts.width, hyperlinks: opts.hyperlinks, highlight: opts.highlight })).map((p) => p.rows));
}

/** Every turn as wrapped rows (laid out from scratch). */
export function transcriptRows(turns: Turn[], opts: LayoutOptions): Row[] {
  return turns.flatMap((t) => turnRows(t, opts));
}

/** Where a row of the transcript is: its turn, its piece and the row. */
export interface RowAt {
  turn: number;
  row: Row;
  piece: Piece | null;
}

/**
 * The transcript laid out once and kept: each turn's rows are kept while the turn, the width,
 * the reasoning's fold and its tool calls' folds stay the same, so a key laid out nothing, and a
 * streaming turn lays out only what it added (its answer's Markdown through a MarkdownStream).
 * Only a new width (a resize), the hyperlinks or the highlighter arriving lay out everything again.
 */
export class TranscriptLayout {
  private key = '';
  private turns: TurnLayout[] = [];
  /** The first row of each turn, and the rows in all. */
  private starts: number[] = [];
  total = 0;
  /** Counts the updates that changed anything: a window of the same version at the same place is the same rows. */
  version = 0;

  /** Lays `turns` out, only what changed; returns the layout. */
  update(turns: readonly Turn[], opts: LayoutOptions): this {
    const key = `${opts.width} ${opts.hyperlinks} ${opts.highlight ? 1 : 0}`;
    let changed = this.starts.length !== turns.length;
    if (key !== this.key) {
      this.key = key;
      this.turns = [];
    }
    const mdOpts = { width: opts.width, hyperlinks: opts.hyperlinks, highlight: opts.highlight };
    this.turns.length = Math.min(this.turns.length, turns.length);
    this.starts = [];
    this.total = 0;
    turns.forEach((turn, i) => {
      const expandedKey = turn.tools.filter((t) => opts.expanded?.has(t.id)).map((t) => t.id).join(' ');
      let laid = this.turns[i];
      if (!laid || laid.turn !== turn || laid.folded !== opts.folded || laid.expandedKey !== expandedKey) {
        // The same turn grown (a chunk, a new status) keeps its Markdown; another turn starts its own.
        const md = laid && laid.turn.prompt === turn.prompt ? laid.md : new MarkdownStream(mdOpts);
        const parts = turnParts(turn, opts, md);
        laid = { turn, folded: opts.folded, expandedKey, parts, count: parts.reduce((n, p) => n + p.rows.length, 0), md };
        this.turns[i] = laid;
        changed = true;
      }
      this.starts.push(this.total);
      this.total += laid.count;
    });
    if (changed) this.version++;
    return this;
  }

  /** The turn that holds row `at` (binary search over the turns' first rows). */
  turnOf(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first row of turn `i`. */
  startOf(i: number): number {
    return this.starts[Math.max(0, Math.min(i, this.starts.length - 1))] ?? 0;
  }

  get turnCount(): number {
    return this.starts.length;
  }

  /** Rows `from` to `to` (not included), each with its turn and piece: what a window draws. */
  slice(from: number, to: number): RowAt[] {
    const out: RowAt[] = [];
    if (this.turns.length === 0) return out;
    from = Math.max(0, from);
    to = Math.min(this.total, to);
    let i = this.turnOf(from);
    let at = this.starts[i]!;
    while (i < this.turns.length && at < to) {
      for (const part of this.turns[i]!.parts) {
        const n = part.rows.length;
        if (at + n > from && at < to) {
          for (let r = Math.max(0, from - at); r < n && at + r < to; r++) out.push({ turn: i, row: part.rows.at(r)!, piece: part.piece });
        }
        at += n;
        if (at >= to) break;
      }
      i++;
      at = this.starts[i] ?? at;
    }
    return out;
  }

  /** The row at `at`, with its turn and piece. */
  at(at: number): RowAt | undefined {
    return this.slice(at, at + 1)[0];
  }

  /** Every row's index whose text holds `query` (case-insensitive), in order: the search's matches. */
  find(query: string): number[] {
    const q = query.toLowerCase();
    const hits: number[] = [];
    if (!q) return hits;
    let at = 0;
    for (const t of this.turns) {
      for (const part of t.parts) {
        for (let r = 0; r < part.rows.length; r++) {
          if (rowText(part.rows.at(r)!).toLowerCase().includes(q)) hits.push(at);
          at++;
        }
      }
    }
    return hits;
  }
}

/** A row's text, as drawn. */
export function rowText(row: Row): string {
  return row.map((s) => s.text).join('');
}

/** The rows a pane `height` rows high shows of `total`, scrolled `scroll` rows up from the end (clamped). */
export function scrollWindow(total: number, height: number, scroll: number): { top: number; maxScroll: number; scroll: number } {
  const maxScroll = Math.max(0, total - height);
  const s = Math.max(0, Math.min(scroll, maxScroll));
  return { top: Math.max(0, total - height - s), maxScroll, scroll: s };
}

/**
 * The scroll position after the transcript went from `before` rows to `after`: scrolled back while
 * a turn streams, the rows it adds would move the text under the reader's eyes, so the offset
 * grows with them; at the bottom (0) it stays there and follows.
 */
export function keepPlace(scroll: number, before: number, after: number): number {
  return scroll > 0 && after > before ? scroll + after - before : scroll;
}

/** The scroll position (rows up from the end) that keeps row `cursor` in a window `height` rows high: unchanged when it is in view. */
export function follow(cursor: number, total: number, height: number, scroll: number): number {
  const { top } = scrollWindow(total, height, scroll);
  if (cursor < top) return Math.max(0, total - height - cursor);
  if (cursor >= top + height) return Math.max(0, total - cursor - 1);
  return scroll;
}

/** The next (`step` 1) or previous (-1) of sorted `rows` from `cursor`, wrapping round; undefined when there is none. */
export function nextOf(rows: readonly number[], cursor: number, step: 1 | -1): number | undefined {
  if (rows.length === 0) return undefined;
  if (step === 1) return rows.find((r) => r > cursor) ?? rows[0];
  return [...rows].reverse().find((r) => r < cursor) ?? rows[rows.length - 1];
}

/** The first row of the turn before (`step` -1; the start of the cursor's own turn when it is inside it) or after (1) the cursor's. */
export function turnStep(layout: TranscriptLayout, cursor: number, step: 1 | -1): number {
  const turn = layout.turnOf(cursor);
  if (step === 1) return turn + 1 < layout.turnCount ? layout.startOf(turn + 1) : cursor;
  const start = layout.startOf(turn);
  return cursor > start ? start : layout.startOf(Math.max(0, turn - 1));
}
