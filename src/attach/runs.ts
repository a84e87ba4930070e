/**
 * A visible row of the emulator as styled runs of text: what a renderer that
 * draws cells itself (the split view's terminal pane, drawn by Ink) needs,
 * where the painter (painter.ts) writes ANSI to the real terminal. Cells that
 * share their attributes (the painter's SGR, sgrOf) are one run. It reads the
 * emulator's buffer and never writes to it; the cost is the row's width.
 */
import type xterm from '@xterm/headless';
import { sgrOf, type Cell } from './painter.js';

/** A run's look, in the colour words Ink takes: a name for the 16 palette colours, `ansi256(N)`, `#rrggbb`. */
export interface RunStyle {
  color?: string;
  backgroundColor?: string;
  bold?: boolean;
  dimColor?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strikethrough?: boolean;
}

export interface Run {
  text: string;
  style: RunStyle;
}

const PALETTE = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;

function colour(rgb: boolean, palette: boolean, c: number): string | undefined {
  if (rgb) return `#${c.toString(16).padStart(6, '0')}`;
  if (!palette) return undefined;
  if (c < 8) return PALETTE[c];
  if (c < 16) return c === 8 ? 'gray' : `${PALETTE[c - 8]}Bright`;
  return `ansi256(${c})`;
}

/** The look of one cell; `cursor` turns it inverse (the pane draws its cursor as a block). */
export function styleOf(cell: Cell, cursor = false): RunStyle {
  const style: RunStyle = {};
  const fg = colour(cell.isFgRGB(), cell.isFgPalette(), cell.getFgColor());
  const bg = colour(cell.isBgRGB(), cell.isBgPalette(), cell.getBgColor());
  if (fg) style.color = fg;
  if (bg) style.backgroundColor = bg;
  if (cell.isBold()) style.bold = true;
  if (cell.isDim()) style.dimColor = true;
  if (cell.isItalic()) style.italic = true;
  if (cell.isUnderline()) style.underline = true;
  if (cell.isStrikethrough()) style.strikethrough = true;
  const inverse = Boolean(cell.isInverse()) !== cursor;
  if (inverse) style.inverse = true;
  return style;
}

/**
 * The runs of the buffer line `index` (an absolute line of the active buffer). Trailing blanks in
 * the default look are left out; `cursorX` marks the cell the cursor is on (drawn inverse), and a
 * cursor past the row's text is drawn on a blank there.
 */
export function lineRuns(term: xterm.Terminal, index: number, cell: Cell, cursorX = -1): Run[] {
  const line = term.buffer.active.getLine(index);
  const runs: Run[] = [];
  let key = '';
  // Where the row's text ends: the runs after it are default blanks, dropped.
  let keep = 0;
  for (let x = 0; x < term.cols; x++) {
    const got = line?.getCell(x, cell);
    const width = got ? got.getWidth() : 1;
    if (width === 0) continue; // the second half of a wide character
    const sgr = got ? sgrOf(got) : '0';
    const atCursor = x === cursorX;
    const next = atCursor ? `${sgr}|cursor` : sgr;
    // A wide character cut by the right edge is a blank, as the painter draws it.
    const chars = !got || x + width > term.cols ? ' ' : got.getChars() || ' ';
    if (next !== key || runs.length === 0) {
      runs.push({ text: '', style: got ? styleOf(got, atCursor) : atCursor ? { inverse: true } : {} });
      key = next;
    }
    runs[runs.length - 1]!.text += chars;
    if (chars !== ' ' || sgr !== '0' || atCursor) keep = runs.length;
    if (!line && x > cursorX) break;
  }
  runs.length = keep;
  const last = runs[keep - 1];
  // The last run kept ends at its last cell that is not a default blank.
  if (last && Object.keys(last.style).length === 0) last.text = last.text.trimEnd();
  return runs;
}
