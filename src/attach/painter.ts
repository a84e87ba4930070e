/**
 * The painter: turns the emulator's visible rows into ANSI for the real
 * terminal (rowAnsi), and draws them into a region of it, only the rows that
 * changed since the last frame (FrameRenderer). It reads the emulator's buffer
 * and never writes to it.
 */
import type xterm from '@xterm/headless';
import type { TerminalModel } from './terminal.js';

export type Cell = NonNullable<ReturnType<xterm.IBufferLine['getCell']>>;

/**
 * Cells of a row drawn in another style than the emulator's (a search match, a selection): from
 * `from` up to, not including, `to`, with the SGR parameters `sgr` in place of the cell's own.
 */
export interface RowMark {
  from: number;
  to: number;
  sgr: string;
}

/**
 * The ANSI text of the buffer line `index` (an absolute line of the active buffer): SGR changes
 * only where attributes change, ending in a reset. `marks` restyle ranges of cells.
 */
export function lineAnsi(term: xterm.Terminal, index: number, cell: Cell, marks: readonly RowMark[] = []): string {
  const line = term.buffer.active.getLine(index);
  if (!line) return '';
  let out = '';
  let sgr = '0';
  // Trailing blanks in default colours are left to the erase-to-end-of-line that follows the row.
  let keep = 0;
  let keepSgr = '0';
  for (let x = 0; x < term.cols; x++) {
    const got = line.getCell(x, cell);
    if (!got) break;
    const width = got.getWidth();
    if (width === 0) continue; // the second half of a wide character
    const mark = marks.length === 0 ? undefined : marks.find((m) => x >= m.from && x < m.to);
    const next = mark ? mark.sgr : sgrOf(got);
    if (next !== sgr) {
      out += `\x1b[${next}m`;
      sgr = next;
    }
    // A wide character cut by the right edge (the terminal was narrowed) is a blank: written
    // out, the real terminal would wrap it onto the next row.
    const chars = x + width > term.cols ? ' ' : got.getChars();
    out += chars || ' ';
    if ((chars && chars !== ' ') || sgr !== '0') {
      keep = out.length;
      keepSgr = sgr;
    }
  }
  return out.slice(0, keep) + (keepSgr === '0' ? '' : '\x1b[0m');
}

/** The SGR parameters of one cell ("0;1;38;5;196"...). */
export function sgrOf(cell: Cell): string {
  let s = '0';
  if (cell.isBold()) s += ';1';
  if (cell.isDim()) s += ';2';
  if (cell.isItalic()) s += ';3';
  if (cell.isUnderline()) s += ';4';
  if (cell.isBlink()) s += ';5';
  if (cell.isInverse()) s += ';7';
  if (cell.isInvisible()) s += ';8';
  if (cell.isStrikethrough()) s += ';9';
  if (cell.isFgRGB()) {
    const c = cell.getFgColor();
    s += `;38;2;${(c >> 16) & 255};${(c >> 8) & 255};${c & 255}`;
  } else if (cell.isFgPalette()) {
    const c = cell.getFgColor();
    s += c < 8 ? `;${30 + c}` : c < 16 ? `;${90 + c - 8}` : `;38;5;${c}`;
  }
  if (cell.isBgRGB()) {
    const c = cell.getBgColor();
    s += `;48;2;${(c >> 16) & 255};${(c >> 8) & 255};${c & 255}`;
  } else if (cell.isBgPalette()) {
    const c = cell.getBgColor();
    s += c < 8 ? `;${40 + c}` : c < 16 ? `;${100 + c - 8}` : `;48;5;${c}`;
  }
  return s;
}

/** What a frame draws beyond the model: marks by visible row, and a cursor of its own. */
export interface Overlay {
  marks(y: number): readonly RowMark[];
  /** Where the cursor goes instead of the emulator's (a copy-mode cursor), if anywhere. */
  cursor?: { x: number; y: number };
}

/**
 * Draws the model into a region of the real terminal starting at `top` (1-based
 * screen row), writing only rows that changed since the previous frame.
 */
export class FrameRenderer {
  private previous: string[] = [];

  constructor(
    private readonly write: (s: string) => void,
    private top: number,
  ) {}

  /** Forgets what is on screen, so the next frame draws every row. */
  invalidate(top = this.top): void {
    this.top = top;
    this.previous = [];
  }

  /**
   * Draws a frame; answers how many rows were written. With an overlay, every row is looked at.
   * `maxRows` cuts the frame to the rows the region has (a recording taller than the terminal).
   */
  frame(model: TerminalModel, overlay?: Overlay, maxRows = model.rows): number {
    let out = '\x1b[?25l';
    let changed = 0;
    const changedRows = model.takeChangedRows();
    const { from, to } = overlay ? { from: 0, to: Number.POSITIVE_INFINITY } : changedRows;
    const rows = Math.min(model.rows, maxRows);
    for (let y = 0; y < rows; y++) {
      if ((y < from || y > to) && this.previous[y] !== undefined) continue;
      const row = model.rowAnsi(y, overlay?.marks(y));
      if (this.previous[y] === row) continue;
      this.previous[y] = row;
      out += `\x1b[${this.top + y};1H\x1b[0m${row}\x1b[0m\x1b[K`;
      changed++;
    }
    this.previous.length = rows;
    const c = overlay?.cursor ?? model.cursor;
    out += `\x1b[${this.top + Math.min(c.y, rows - 1)};${c.x + 1}H`;
    if ((overlay?.cursor || model.cursor.visible) && c.y < rows) out += '\x1b[?25h';
    this.write(out);
    return changed;
  }
}
