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
import { renderMarkdown } from '../../markdown.js';
import { theme } from '../../theme.js';
import { type Row, wrapSegments } from '../../wrap.js';
import { type Turn, usageLine } from '../chatModel.js';

/** How the transcript is laid out: anything here changing lays every turn out again. */
export interface LayoutOptions {
  width: number;
  /** Reasoning folded to one line (^o). */
  folded: boolean;
  /** The terminal draws OSC 8 hyperlinks. */
  hyperlinks: boolean;
}

/** One turn as wrapped rows: the prompt, reasoning, tool calls (a request with its reply), the answer, steering notes, its usage, and a blank row. */
export function turnRows(t: Turn, { width, folded, hyperlinks }: LayoutOptions): Row[] {
  const rows: Row[] = [];
  rows.push(...wrapSegments([{ text: 'you › ', bold: true, color: theme.accent }, { text: sanitize(t.prompt, { multiline: true }) }], width, '      ', ''));
  if (t.reasoning) {
    const r = sanitize(t.reasoning, { multiline: true }).trim();
    if (folded) rows.push([{ text: `▸ reasoning, ${counted(r.length, 'char')} (^o unfolds)`, dim: true, italic: true }]);
    else rows.push(...wrapSegments([{ text: r, dim: true, italic: true }], width, '┆ ', '┆ '));
  }
  for (const tool of t.tools) {
    const asks = parseProvideInput({ function: { name: tool.name, arguments: tool.args } });
    if (asks) {
      const what = asks.kind === 'permission' ? `asks permission: ${sanitize(asks.operation ?? 'an operation')}` : `asks: ${sanitize(asks.message)}`;
      rows.push(...wrapSegments([{ text: `? ${what}`, color: theme.warning }], width, '  '));
      // The reply under its request, where it was given: before what the intern did with it.
      const reply = t.replies[tool.id];
      if (reply) rows.push(...wrapSegments([{ text: sanitize(reply), color: theme.muted }], width, '    ', '  '));
      continue;
    }
    const args = sanitize(tool.args).slice(0, Math.max(10, width - 20));
    rows.push(...wrapSegments([{ text: `⚙ ${sanitize(tool.name)} `, color: theme.badge }, { text: args, dim: true }], width, '  '));
  }
  if (t.answer) rows.push(...renderMarkdown(t.answer, { width, hyperlinks }));
  for (const n of t.notes) rows.push(...wrapSegments([{ text: sanitize(n, { multiline: true }), color: theme.muted }], width, '  '));
  if (t.streamError) rows.push(...wrapSegments([{ text: `✖ ${sanitize(t.streamError)}`, color: theme.error }], width, '  '));
  // A turn that failed outside its stream (a dropped connection) says so where it stands: the
  // error box under the transcript is the last turn's only, and a later prompt takes its place.
  else if (t.status === 'failed' && t.started) rows.push(...wrapSegments([{ text: '✖ did not finish: the answer above may be incomplete', color: theme.error }], width, '  '));
  const tail =
    t.status === 'running' ? `… streaming (${keyLabel('chatCancel')} cancels)` : t.status === 'cancelled' ? '(cancelled)' : t.status === 'waiting' ? '… waiting for your answer' : '';
  if (t.usage) rows.push([{ text: `${tail ? `${tail} · ` : ''}${usageLine(t.usage)}`, dim: true }]);
  else if (tail) rows.push([{ text: tail, dim: true }]);
  rows.push([]);
  return rows;
}

/** Every turn as wrapped rows. */
export function transcriptRows(turns: Turn[], opts: LayoutOptions): Row[] {
  return turns.flatMap((t) => turnRows(t, opts));
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
