/**
 * Tables and detail views as text: aligned by display width (string-width), fitted to a
 * terminal's width, tab-separated without a header when piped. Every cell is sanitised.
 */
import { sanitize, truncate, widthOf } from '../../text.js';
import { wrapText } from '../../tui/wrap.js';
import type { Paint, Tone } from './style.js';

export type Cell = string | number | boolean | null | undefined;
export interface Column<T> {
  header: string;
  get: (row: T) => Cell;
  /** Colour for a TTY, by the cell's text. */
  tone?: (text: string) => Tone | undefined;
  /**
   * Never cut to fit a terminal: what a person copies into the next command (an intern's name, a
   * BYOK key's id, a model's id), and short words (a status). The other columns are cut.
   */
  keep?: boolean;
  /** On a terminal, the cell shortened thus (a BYOK key's id, which commands take as short as shown); piped, it is whole. */
  short?: (text: string) => string;
  /** What an empty cell says on a terminal, dim (a dash by default; piped, the cell stays empty). */
  empty?: string;
}
/**
 * A `label  value` line of a detail view (`object`): its label, its value, what an empty value says
 * on a terminal (a dash by default), and how a terminal shows the value (a time with its age);
 * piped, it is as sent. Only a `prose` row (a description, instructions, a failure message) keeps
 * its own line breaks: in any other, a line break from the service would draw a row of its own
 * (`status: running` then a fake `last failure` line).
 */
export type DetailRow<T> = [label: string, get: (value: T) => Cell, empty?: string, shown?: (text: string) => string, prose?: 'prose'];

/** Where the text goes: a terminal (and how wide, when known) or a pipe; how it paints. */
export interface Surface {
  tty: boolean;
  columns: number | undefined;
  paint: Paint;
}

export const cellText = (c: Cell): string => (c === null || c === undefined ? '' : sanitize(String(c)));

/** Two cells between columns. */
const GAP = 2;

/**
 * The widths a table's columns get on a terminal `screen` cells wide: their own when the rows fit;
 * else the columns that may be cut share what the kept ones leave, the widest cut first and to one
 * width (what a floor leaves over goes to the first cut ones), never below one cell (an ellipsis):
 * a terminal too narrow for the kept columns alone wraps. Returns whether any was cut.
 */
export function fitColumns(widths: number[], keep: boolean[], screen: number): { widths: number[]; cut: boolean } {
  const total = widths.reduce((a, w) => a + w, 0) + GAP * (widths.length - 1);
  if (total <= screen) return { widths, cut: false };
  const room = screen - widths.reduce((a, w, i) => a + (keep[i] ? w : 0), 0) - GAP * (widths.length - 1);
  const flexible = widths.filter((_, i) => !keep[i]).sort((a, b) => a - b);
  let left = room;
  let cap = Infinity;
  for (let i = 0; i < flexible.length; i++) {
    if (flexible[i]! * (flexible.length - i) > left) {
      cap = Math.max(1, Math.floor(left / (flexible.length - i)));
      break;
    }
    left -= flexible[i]!;
  }
  const fitted = widths.map((w, i) => (keep[i] ? w : Math.min(w, cap)));
  let spare = room - fitted.reduce((a, w, i) => a + (keep[i] ? 0 : w), 0);
  for (let i = 0; i < fitted.length && spare > 0; i++) {
    if (!keep[i] && fitted[i]! < widths[i]!) {
      fitted[i]!++;
      spare--;
    }
  }
  return { widths: fitted, cut: fitted.some((w, i) => w < widths[i]!) };
}

/** The table as printed, and whether it cut values to fit the terminal. */
export function tableText<T>(rows: T[], columns: Column<T>[], empty: string, to: Surface): { text: string; cut: boolean } {
  const cells = rows.map((r) =>
    columns.map((c) => {
      const cell = cellText(c.get(r));
      return to.tty && c.short && cell ? c.short(cell) : cell;
    }),
  );
  if (!to.tty) return { text: cells.map((r) => r.join('\t') + '\n').join(''), cut: false };
  if (rows.length === 0) return { text: to.paint(empty, 'dim') + '\n', cut: false };
  const headers = columns.map((c) => c.header);
  // An empty cell is dim words for people (`empty`, else a dash); piped, it stays empty.
  const blank = columns.map((c) => c.empty ?? '—');
  const natural = columns.map((c, i) => Math.max(widthOf(c.header), ...cells.map((r) => widthOf(r[i] || blank[i]!))));
  // On a terminal, columns are cut (with an ellipsis) to fit its width instead of wrapping.
  const { widths, cut } = to.columns ? fitColumns(natural, columns.map((c) => Boolean(c.keep)), to.columns) : { widths: natural, cut: false };
  const line = (r: string[], tones: (Tone | undefined)[]) =>
    r
      .map((cell, i) => {
        const fitted = truncate(cell || blank[i]!, widths[i]!);
        const padded = i === r.length - 1 ? fitted : fitted + ' '.repeat(widths[i]! - widthOf(fitted));
        return to.paint(padded, cell === '' ? 'dim' : tones[i]);
      })
      .join(' '.repeat(GAP))
      .trimEnd() + '\n';
  const body = cells.map((r) => line(r, columns.map((c, i) => c.tone?.(r[i]!)))).join('');
  return { text: line(headers, columns.map(() => 'bold' as const)) + body, cut };
}

/** One object as `label  value` lines (the text printed, its last line break included). */
export function detailText<T>(value: T, rows: DetailRow<T>[], to: Surface): string {
  const width = Math.max(...rows.map(([l]) => widthOf(l)));
  // On a terminal a long value (the instructions) wraps under itself, its own line breaks kept;
  // piped, each is one line after a tab.
  const room = (to.columns ?? 0) - width - GAP;
  const lines = rows.map(([label, get, empty = '—', shown, prose]) => {
    if (!to.tty) return `${label}\t${cellText(get(value))}`;
    const raw = get(value);
    const v = raw === null || raw === undefined ? '' : sanitize(shown ? shown(String(raw)) : String(raw), { multiline: prose === 'prose' });
    // Nothing there: dim words for people, as the TUI draws them (piped, the value stays empty).
    if (v === '') return `${to.paint(label.padEnd(width), 'dim')}${' '.repeat(GAP)}${to.paint(empty, 'dim')}`;
    // (wrapText keeps the value's line breaks; a blank line stays blank.)
    const wrapped = room >= 20 ? wrapText(v, room) : [v.replace(/\n/g, ' ')];
    const under = ' '.repeat(width + GAP);
    return wrapped.map((line, i) => (i === 0 ? `${to.paint(label.padEnd(width), 'dim')}${' '.repeat(GAP)}${line}` : line ? under + line : '').trimEnd()).join('\n');
  });
  return lines.join('\n') + '\n';
}
