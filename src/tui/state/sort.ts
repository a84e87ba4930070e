/**
 * The one sort model of the TUI's lists and pickers (no React): a list's columns say how each
 * sorts next to the cell they draw (`Column.sort`), a sort is a column's name and a direction, and
 * rows are ordered by the column's kind: text by the locale's rules, case-insensitive, on the
 * sanitised text (numbers in names by value: intern-2 before intern-10); times by instant; numbers
 * by value; statuses in the order the status filter steps through (running, then the failures).
 * A row with no value comes last in either direction, and rows that tie are ordered by name, then
 * id, so that an order never depends on how the service happened to send them.
 */
import { closest } from '../../client/closest.js';
import { sanitize } from '../../text.js';
import type { BindingId } from '../keymap.js';
import { STATUS_ORDER } from '../lifecycle.js';

export type Direction = 'asc' | 'desc';

/** A list's sort: the column's name (`name`, `updated`) and its direction. */
export interface SortSpec {
  column: string;
  direction: Direction;
}

export type SortKind = 'text' | 'time' | 'number' | 'status';

/** How a column sorts, declared beside its cell. */
export interface ColumnSort<T> {
  kind: SortKind;
  /** The value sorted by: text as the server sent it (sanitised here), an ISO time or ms, a number; null when there is none. */
  by: (row: T) => string | number | null | undefined;
  /** The keymap's binding that sorts by it (shift+N for a name), where the list has one. */
  key?: BindingId;
  /** Its name for `:sort` and the preferences file; the header's first word in lower case by default. */
  name?: string;
  /** The direction it sorts in first: newest first for times, else ascending. */
  first?: Direction;
}

/** What the model needs of a column: its header and how it sorts. The Table's `Column<T>` is one. */
export interface Sortable<T> {
  header: string;
  sort?: ColumnSort<T>;
}

/** How ties are broken: by name, then id. */
export interface Ties<T> {
  name?: (row: T) => string;
  id: (row: T) => string;
}

/** A sortable column as the model uses it. */
export interface SortColumn<T> {
  name: string;
  header: string;
  sort: ColumnSort<T>;
}

/** The word that puts a list back in its own order (the service's, or the filter's best first). */
export const NO_SORT = 'none';

/** A column's name: declared, or its header's first word in lower case (`BEGAN (UTC)`: began). */
export const columnName = <T>(c: Sortable<T>): string =>
  c.sort?.name ?? (c.header.toLowerCase().match(/[a-z0-9]+/)?.[0] ?? '');

/** The columns that sort, in the order drawn. */
export function sortColumns<T>(columns: readonly Sortable<T>[]): SortColumn<T>[] {
  return columns.flatMap((c) => (c.sort ? [{ name: columnName(c), header: c.header, sort: c.sort }] : []));
}

/** The spec if it names one of these columns, else null (a column the list no longer has). */
export function validSpec<T>(spec: SortSpec | null | undefined, columns: readonly Sortable<T>[]): SortSpec | null {
  return spec && sortColumns(columns).some((c) => c.name === spec.column) ? spec : null;
}

/**
 * Made on the first comparison of texts, not as the module loads: the first Intl.Collator of a
 * process loads ICU's collation data, about 10 ms that the TUI's start paid before its first frame
 * (bench/README.md), for a list that most starts never sort by a text column.
 */
let collator: Intl.Collator | undefined;
const compareText = (a: string, b: string): number => (collator ??= new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })).compare(a, b);

/** A value made comparable: null when there is none (it goes last). */
function keyOf(kind: SortKind, v: string | number | null | undefined): string | number | null {
  if (v === null || v === undefined || v === '') return null;
  switch (kind) {
    case 'text':
      return sanitize(String(v));
    case 'time': {
      const ms = typeof v === 'number' ? v : Date.parse(v);
      return Number.isFinite(ms) ? ms : null;
    }
    case 'number':
      return typeof v === 'number' ? (Number.isFinite(v) ? v : null) : ((n) => (Number.isFinite(n) ? n : null))(Number(v));
    case 'status': {
      const at = STATUS_ORDER.indexOf(String(v));
      return at >= 0 ? at : STATUS_ORDER.length;
    }
  }
}

const compareKeys = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : compareText(String(a), String(b));

/**
 * The rows in the spec's order; the rows themselves (the same array) when there is no spec or it
 * names no column here. Each row's value is worked out once (not once a comparison).
 */
export function sortRows<T>(rows: readonly T[], columns: readonly Sortable<T>[], spec: SortSpec | null, ties: Ties<T>): readonly T[] {
  const column = spec ? sortColumns(columns).find((c) => c.name === spec.column) : undefined;
  if (!spec || !column) return rows;
  const sign = spec.direction === 'asc' ? 1 : -1;
  const decorated = rows.map((row) => ({ row, key: keyOf(column.sort.kind, column.sort.by(row)), name: ties.name ? sanitize(ties.name(row)) : '', id: ties.id(row) }));
  decorated.sort((a, b) => {
    if (a.key !== b.key) {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      const c = compareKeys(a.key, b.key);
      if (c !== 0) return sign * c;
    }
    return compareText(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  return decorated.map((d) => d.row);
}

const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');

/** A column's key pressed: sorts by it in its first direction, or, when it already sorts the list, the other way. */
export function toggle<T>(spec: SortSpec | null, column: SortColumn<T>): SortSpec {
  if (spec?.column === column.name) return { column: column.name, direction: flip(spec.direction) };
  return { column: column.name, direction: column.sort.first ?? (column.sort.kind === 'time' ? 'desc' : 'asc') };
}

/** The next column to sort by, left to right; after the last, none (the list's own order). */
export function nextColumn<T>(spec: SortSpec | null, columns: readonly Sortable<T>[]): SortSpec | null {
  const all = sortColumns(columns);
  const at = spec ? all.findIndex((c) => c.name === spec.column) : -1;
  const next = all[at + 1];
  return next ? toggle(null, next) : null;
}

/** The same column the other way; with no sort, the first column's other way. */
export function reverse<T>(spec: SortSpec | null, columns: readonly Sortable<T>[]): SortSpec | null {
  if (spec) return { column: spec.column, direction: flip(spec.direction) };
  const first = sortColumns(columns)[0];
  return first ? toggle(toggle(null, first), first) : null;
}

/** The arrow a sorted header carries: ↑ ascending, ↓ descending (shapes, so NO_COLOR shows them too). */
export const arrowOf = (d: Direction): string => (d === 'asc' ? '↑' : '↓');

/** How a title says a sort: `name ↑`. */
export const sortText = (spec: SortSpec): string => `${spec.column} ${arrowOf(spec.direction)}`;

const DIRECTIONS: Record<string, Direction> = { asc: 'asc', ascending: 'asc', desc: 'desc', descending: 'desc' };

/**
 * What `:sort COLUMN [asc|desc]` asks for: a column by its name or header, in any case, or the
 * start of one name only; the direction, or the column's first. `none` is the list's own order.
 * A bad word gets one line that names the columns there are (and the closest, for a typo).
 */
export function parseSort<T>(arg: string, columns: readonly Sortable<T>[]): { spec: SortSpec | null } | { error: string } {
  const all = sortColumns(columns);
  const names = all.map((c) => c.name);
  const [word = '', dir, ...extra] = arg.trim().toLowerCase().split(/\s+/);
  const listed = `columns: ${names.join(', ')}`;
  if (all.length === 0) return { error: 'this list has no columns to sort by' };
  if (word === '') return { error: `sort by which column? ${listed}` };
  if (extra.length > 0) return { error: `sort takes a column and asc or desc: "${sanitize(extra.join(' ')).slice(0, 40)}" is too many` };
  if (word === NO_SORT && dir === undefined) return { spec: null };
  const started = all.filter((c) => c.name.startsWith(word));
  const column = all.find((c) => c.name === word || c.header.toLowerCase() === word) ?? (started.length === 1 ? started[0] : undefined);
  if (!column) {
    const near = closest(word, names);
    const what = started.length > 1 ? `"${sanitize(word)}" is the start of ${started.map((c) => c.name).join(', ')}` : `no column "${sanitize(word).slice(0, 40)}" here${near ? ` (did you mean ${near}?)` : ''}`;
    return { error: `${what}; ${listed}` };
  }
  if (dir === undefined) return { spec: toggle(null, column) };
  const direction = DIRECTIONS[dir];
  if (!direction) return { error: `"${sanitize(dir).slice(0, 40)}" is no direction: asc or desc` };
  return { spec: { column: column.name, direction } };
}

/**
 * The list on screen that `:sort` sorts, by the shell it is drawn in (the shell's `nav`, one a
 * TUI): the list registers itself while it is shown (hooks/useSort.ts).
 */
export interface SortTarget {
  /** The names `:sort` completes. */
  columns: readonly string[];
  parse: (arg: string) => { spec: SortSpec | null } | { error: string };
  apply: (spec: SortSpec | null) => void;
}

const targets = new WeakMap<object, SortTarget>();

export const sortTargetOf = (shell: object): SortTarget | undefined => targets.get(shell);

/** Registers the list shown in `shell`; answers the undoing (which leaves a later list's registration be). */
export function registerSortTarget(shell: object, target: SortTarget): () => void {
  targets.set(shell, target);
  return () => {
    if (targets.get(shell) === target) targets.delete(shell);
  };
}
