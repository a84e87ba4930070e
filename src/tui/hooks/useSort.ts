/**
 * A list's sort (state/sort.ts), for a screen: the sort chosen for this list in this profile
 * (state/sortPrefs.ts), the rows in its order (worked out when the rows or the sort change, never
 * on a cursor move), the keys that change it (the keymap's `sortable` scope, or a picker's
 * `chooserSort`), and `:sort` pointed at this list while it is shown.
 */
import type { Key } from 'ink';
import { useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { TuiContext } from '../context.js';
import { type BindingId, matches } from '../keymap.js';
import { nextColumn, parseSort, registerSortTarget, reverse, sortColumns, sortRows, toggle, validSpec, type Sortable, type SortSpec, type Ties } from '../state/sort.js';
import { sortPrefsFor } from '../state/sortPrefs.js';

/** The keymap's binding a key press is, among those that sort by a column. */
function columnKeyOf(input: string, key: Key): BindingId | null {
  if (matches('sortName', input, key)) return 'sortName';
  if (matches('sortStatus', input, key)) return 'sortStatus';
  if (matches('sortModel', input, key)) return 'sortModel';
  if (matches('sortHost', input, key)) return 'sortHost';
  if (matches('sortAge', input, key)) return 'sortAge';
  if (matches('sortProvider', input, key)) return 'sortProvider';
  return null;
}

/**
 * `list` names the list in the preferences file (`interns`, `byok`...). `columns` and `ties` are
 * compared by identity: declare them once (module constants, or memoised), or the rows are sorted
 * again on every render.
 */
/** Whose in-memory sorts a list drawn outside the TUI's shell shares. */
const ALONE = {};

export function useSort<T>(list: string, columns: readonly Sortable<T>[], ties: Ties<T>, rows: readonly T[], opts: { picker?: boolean } = {}) {
  // Outside the TUI's shell (a picker drawn alone) the sort is kept for the session only.
  const tui = useContext(TuiContext);
  const nav = tui?.nav;
  const stateDir = tui?.options.stateDir;
  const profile = tui?.options.profile ?? null;
  const api: object = tui?.api ?? ALONE;
  const prefs = useMemo(() => sortPrefsFor(stateDir, profile, api), [stateDir, profile, api]);
  const [chosen, setChosen] = useState<SortSpec | null>(() => prefs.get(list));
  // A sort of a column this view does not have (the vault's SCOPE on its "own" tab) leaves the rows in their order.
  const spec = validSpec(chosen, columns);
  useEffect(() => {
    const problem = prefs.takeProblem();
    if (problem) nav?.flash(problem, 'error');
  }, [prefs, nav]);
  const set = useCallback(
    (next: SortSpec | null) => {
      setChosen(next);
      prefs.set(list, next);
      const problem = prefs.takeProblem();
      if (problem) nav?.flash(problem, 'error');
    },
    [prefs, list, nav],
  );
  const sorted = useMemo(() => sortRows(rows, columns, spec, ties), [rows, columns, spec, ties]);

  /** Answers whether the key changed the sort. */
  const handleKey = (input: string, key: Key): boolean => {
    if (opts.picker) {
      if (matches('chooserSort', input, key)) return set(nextColumn(spec, columns)), true;
      if (matches('chooserSortReverse', input, key)) return set(reverse(spec, columns)), true;
      return false;
    }
    if (matches('sortNext', input, key)) return set(nextColumn(spec, columns)), true;
    if (matches('sortReverse', input, key)) return set(reverse(spec, columns)), true;
    const id = columnKeyOf(input, key);
    const column = id ? sortColumns(columns).find((c) => c.sort.key === id) : undefined;
    if (!id) return false;
    // A letter this list has no column for is still the sort's: it does nothing here.
    if (column) set(toggle(spec, column));
    return true;
  };

  // `:sort` sorts the list on screen. A picker is not one: the palette cannot open over it.
  useLayoutEffect(() => {
    if (opts.picker || !nav) return;
    return registerSortTarget(nav, {
      columns: sortColumns(columns).map((c) => c.name),
      parse: (arg) => parseSort(arg, columns),
      apply: set,
    });
  }, [nav, columns, set, opts.picker]);

  return { rows: sorted, spec, set, handleKey };
}

/**
 * The cursor stays on its row when the sort changes: `rows` as shown (sorted, and filtered where
 * the list filters), the cursor's index and setter, and the row's key. Only a new sort moves it;
 * what else changes the rows (a reload, another page) is the screen's to decide.
 */
export function useFollowRow<T>(spec: SortSpec | null, rows: readonly T[], index: number, setIndex: (i: number) => void, keyOf: (row: T) => string): void {
  const last = useRef<{ spec: SortSpec | null; key: string | undefined }>({ spec, key: undefined });
  useLayoutEffect(() => {
    const was = last.current;
    const selected = rows[index];
    if (was.spec !== spec && was.key !== undefined && (!selected || keyOf(selected) !== was.key)) {
      const at = rows.findIndex((r) => keyOf(r) === was.key);
      if (at >= 0) {
        last.current = { spec, key: was.key };
        setIndex(at);
        return;
      }
    }
    last.current = { spec, key: selected ? keyOf(selected) : undefined };
  });
}
