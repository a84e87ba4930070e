/**
 * The one table: columns are declared once and give both the header and the
 * cells. Widths are display cells measured with string-width (src/text.ts's
 * `pad`), so a CJK or emoji name keeps the columns aligned. A column is fixed
 * (`width`), as wide as its widest cell up to `width` (`fit`), or takes a
 * share of what is left (`grow`, at least `min`). The selected row is drawn
 * whole in inverse video (the cursor marker too), which shows under NO_COLOR as well. The
 * table draws its own loading, error and empty states, and only the window of
 * rows around the cursor that fits in `height`. With `onSelect` it takes the mouse: a click
 * selects a row, a double-click opens it (`onOpen`), the wheel moves the cursor.
 */
import { Box, type DOMElement } from 'ink';
import { useMemo, useRef } from 'react';
import { windowOf } from '../hooks/useListCursor.js';
import { useMouse } from '../hooks/useMouse.js';
import { WHEEL_ROWS } from '../mouse.js';
import { pad, widthOf } from '../../text.js';
import type { CellMark } from '../fuzzy.js';
import { arrowOf, columnName, type ColumnSort, type SortSpec } from '../state/sort.js';
import { MarkedCell } from './MarkedCell.js';
import { theme } from '../theme.js';
import { ErrorView } from './ErrorView.js';
import { Spinner } from './Spinner.js';
import { Text } from './Text.js';

export interface Column<T> {
  header: string;
  /** Fixed width in cells; otherwise the column grows. */
  width?: number;
  /**
   * With `width`: only as wide as the header and the widest cell of the rows loaded (not only
   * those shown, so that scrolling does not move the columns), `width` at most; the cells it
   * leaves go to the growing columns. (Sized for the longest value there could be, the BYOK
   * list's provider column cut the names beside it on an 80-column terminal.)
   */
  fit?: boolean;
  /** Share of the remaining width (default 1) for a growing column, and its minimum. */
  grow?: number;
  min?: number;
  /**
   * Text, sanitised, cut and padded to the width. Only text: a node would need a box that clips it
   * to the width, and Ink clips by the innermost box alone, so a row below the pane's bottom edge
   * was drawn anyway, over what comes after the pane (the palette showed "○ stopped" in its input).
   */
  cell: (row: T) => string;
  /** A semantic colour for a text cell. */
  color?: (row: T) => string | undefined;
  /** No gap before this column (a marker glued to the one before). */
  tight?: boolean;
  /** How the list sorts by this column (state/sort.ts); none: it does not. */
  sort?: ColumnSort<T>;
}

/** The cursor's cell on a row marked for a bulk action (a glyph: it shows under NO_COLOR too). */
export const PICKED = '✓';

/** A column narrower than this shows nothing worth reading ("a…"): it goes instead. */
const MIN_SHOWN = 3;

/**
 * The widths of the columns for a total width: fixed ones first, growing ones share the rest. On a
 * terminal too narrow for them all, the columns give up cells from the right (each keeps one), so
 * a row never runs past the edge (it would wrap, or be cut mid-cell); and while one is left
 * narrower than MIN_SHOWN, the rightmost column is dropped (width 0: not drawn, nor its gap) and
 * the rest share its cells. The first column (with any tight markers before it) always stays.
 */
export function columnWidths<T>(columns: readonly Column<T>[], total: number): number[] {
  const keep = Math.max(0, columns.findIndex((c) => !c.tight));
  let kept = columns.length;
  for (;;) {
    const widths = fit(columns.slice(0, kept), total);
    // (A column declared narrower, a one-cell marker, is as narrow as it means to be.)
    const narrow = widths.some((w, i) => i > keep && w < MIN_SHOWN && (columns[i]!.width ?? MIN_SHOWN) >= MIN_SHOWN);
    if (!narrow || kept - 1 <= keep) return [...widths, ...columns.slice(kept).map(() => 0)];
    kept--;
  }
}

/** Fixed columns first, growing ones share the rest; then cells given up from the right, each column keeping one. */
function fit<T>(columns: readonly Column<T>[], total: number): number[] {
  const gaps = columns.filter((c, i) => i > 0 && !c.tight).length + 1; // +1: the cursor marker
  const fixed = columns.reduce((n, c) => n + (c.width ?? 0), 0);
  const shares = columns.reduce((n, c) => n + (c.width === undefined ? (c.grow ?? 1) : 0), 0);
  const left = Math.max(0, total - fixed - gaps);
  const widths = columns.map((c) => (c.width !== undefined ? c.width : Math.max(c.min ?? 1, Math.floor((left * (c.grow ?? 1)) / shares))));
  let over = widths.reduce((n, w) => n + w, 0) + gaps - total;
  for (let i = widths.length - 1; i >= 0 && over > 0; i--) {
    const give = Math.max(0, Math.min(over, widths[i]! - 1));
    widths[i]! -= give;
    over -= give;
  }
  return widths;
}

export interface TableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The cursor's row. */
  selected: number;
  /** Rows of the body (the header is one more). */
  height: number;
  width: number;
  loading?: boolean;
  /** What the spinner says while the first rows load. */
  loadingLabel?: string;
  error?: unknown;
  /** What an empty, loaded table says. */
  empty: string;
  /**
   * The rows the `fit` columns are sized by, when `rows` is a filtered subset of them: every row
   * loaded, so that a filter does not make the columns jump as it narrows what is shown.
   */
  fitRows?: readonly T[];
  /** What a filter matched in a row's cells, by column header: those characters are drawn marked. */
  marks?: (row: T) => ReadonlyMap<string, CellMark> | undefined;
  /** The list's sort: its column's header carries ↑ or ↓. */
  sort?: SortSpec | null;
  /** Rows marked for a bulk action (`space`): drawn with ✓ in the cursor's cell (the selected row shows by its inverse video). */
  picked?: (row: T) => boolean;
  /** The mouse (hooks/useMouse.ts): a click puts the cursor on a row, the wheel moves it WHEEL_ROWS rows. */
  onSelect?: (index: number) => void;
  /** A double-click on a row: what enter does there. */
  onOpen?: (index: number) => void;
}

/**
 * The window of rows shown: around the cursor (windowOf), but where a click left it (`pinned`, its
 * first row) for as long as the cursor stays inside it, so the row clicked does not move from
 * under the pointer (and a second click is on the same row). Null pin: around the cursor.
 */
export function tableWindow(pinned: number | null, selected: number, length: number, height: number): [number, number] {
  const h = Math.max(1, height);
  if (pinned === null || selected < pinned || selected >= pinned + h) return windowOf(selected, length, height);
  const start = Math.max(0, Math.min(pinned, length - h));
  return [start, Math.min(length, start + h)];
}

/** The columns with each `fit` one's width brought down to what its header and cells need. */
export function fitted<T>(columns: readonly Column<T>[], rows: readonly T[]): Column<T>[] {
  return columns.map((c) => {
    if (!c.fit || c.width === undefined) return c;
    // A column that sorts keeps a cell for its arrow, so that sorting does not move the columns.
    let need = widthOf(c.header) + (c.sort ? 1 : 0);
    for (const row of rows) if (need < c.width) need = Math.max(need, widthOf(c.cell(row)));
    return { ...c, width: Math.min(c.width, need) };
  });
}

/** A sorted column's header: its arrow kept when the header must be cut (`TURN↓`). */
export function sortedHeader(header: string, sort: SortSpec, width: number): string {
  const arrow = arrowOf(sort.direction);
  const h = widthOf(header) + 1 <= width ? header : header.slice(0, Math.max(0, width - 1));
  return pad(h + arrow, width);
}

export function Table<T>({ columns: declared, rows, rowKey, selected, height, width, loading, loadingLabel = 'Loading', error, empty, fitRows, marks, sort, picked, onSelect, onOpen }: TableProps<T>) {
  // Fitting reads every loaded row's cells: once per list, not on every cursor move.
  const sizedBy = fitRows ?? rows;
  const columns = useMemo(() => fitted(declared, sizedBy), [declared, sizedBy]);
  const widths = columnWidths(columns, width);
  const gap = (i: number) => (i > 0 && !columns[i]!.tight ? ' ' : '');
  const box = useRef<DOMElement>(null);
  const pin = useRef<number | null>(null);
  const clicked = useRef(-1);
  // A cursor moved out of the window a click left ends the pin: the window follows the cursor again.
  if (pin.current !== null && (selected < pin.current || selected >= pin.current + Math.max(1, height))) pin.current = null;
  const [start, end] = tableWindow(pin.current, selected, rows.length, height);
  useMouse(box, (e) => {
    if (!onSelect || rows.length === 0) return;
    if (e.type === 'wheel' && (e.wheel === 'up' || e.wheel === 'down')) {
      pin.current = null;
      return onSelect(Math.max(0, Math.min(rows.length - 1, selected + (e.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS))));
    }
    // The header is the first row; a click past the last row shown is on no row.
    const index = start + e.y - 1;
    if (e.type !== 'press' || e.button !== 0 || e.y < 1 || index >= end) return;
    pin.current = start;
    onSelect(index);
    if (e.clicks >= 2 && clicked.current === index) onOpen?.(index);
    clicked.current = index;
  });
  return (
    <Box ref={box} flexDirection="column">
      <Text color={theme.muted}>
        {' '}
        {sort
          ? columns.map((c, i) =>
              widths[i] === 0 ? '' : c.sort && columnName(c) === sort.column ? (
                <Text key={i} bold color={theme.accent}>
                  {gap(i) + sortedHeader(c.header, sort, widths[i]!)}
                </Text>
              ) : (
                gap(i) + pad(c.header, widths[i]!)
              ),
            )
          : columns.map((c, i) => (widths[i] === 0 ? '' : gap(i) + pad(c.header, widths[i]!))).join('')}
      </Text>
      {error && rows.length === 0 ? <ErrorView error={error} /> : null}
      {loading && rows.length === 0 && !error ? <Spinner label={loadingLabel} /> : null}
      {!loading && !error && rows.length === 0 ? <Text color={theme.muted}>{empty}</Text> : null}
      {rows.slice(start, end).map((row, n) => {
        const isSelected = start + n === selected;
        const marked = marks?.(row);
        return (
          <Box key={rowKey(row)}>
            <Text inverse={isSelected} color={isSelected ? theme.selection : undefined}>
              {picked?.(row) ? PICKED : isSelected ? '›' : ' '}
            </Text>
            {columns.map((c, i) => {
              if (widths[i] === 0) return null;
              const mark = marked?.get(c.header);
              return (
                <Box key={c.header || i} flexShrink={0}>
                  {gap(i) ? <Text inverse={isSelected}> </Text> : null}
                  <Text bold={isSelected} inverse={isSelected} color={c.color?.(row)}>
                    <MarkedCell text={mark?.text ?? c.cell(row)} positions={mark?.positions} width={widths[i]!} />
                  </Text>
                </Box>
              );
            })}
          </Box>
        );
      })}
    </Box>
  );
}
