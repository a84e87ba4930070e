/**
 * A list's marks (state/marks.ts) with their keys: `space` marks the row under the cursor, `*`
 * every row shown, and `esc`, once no filter is applied, clears them. The marks stay while the
 * screen is in the stack (useRemembered). While any are marked, esc is the list's, not "back".
 */
import type { Key } from 'ink';
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useTui } from '../context.js';
import { matches } from '../keymap.js';
import { NO_MARKS, clearMarks, keepMarks, markCount, markShown, markedRows, marksTitle, refreshMarks, toggleMark, type Marks } from '../state/marks.js';
import { useRemembered } from './useRemembered.js';

/**
 * `filterClaims`: whether the screen's filter takes esc now (useFilter's claim): called after
 * useFilter, this hook's claim is set after the filter's, so esc stays the list's while either has a use for it.
 */
export function useMarks<T>(idOf: (row: T) => string, shown: readonly T[], filterClaims: boolean, listening = true) {
  const [marks, setMarks] = useRemembered<Marks<T>>('marks', NO_MARKS);
  const { claimCancel } = useTui();
  // `listening`: false while the screen ignores its keys (the vault at work): esc goes back then.
  const claims = (marks.size > 0 && listening) || filterClaims;
  useLayoutEffect(() => {
    claimCancel(claims);
    return () => claimCancel(false);
  }, [claimCancel, claims]);
  const count = useMemo(() => markCount(marks, shown, idOf), [marks, shown, idOf]);
  /** `space`, `*` and `esc` (call it after the filter has had its esc); true when the key was a mark's. */
  const handleKey = (input: string, key: Key, selected: T | undefined): boolean => {
    if (matches('mark', input, key)) {
      if (selected) setMarks((m) => toggleMark(m, idOf(selected), selected));
      return true;
    }
    if (matches('markShown', input, key)) {
      setMarks((m) => markShown(m, shown, idOf));
      return true;
    }
    if (matches('cancel', input, key) && marks.size > 0) {
      setMarks(clearMarks);
      return true;
    }
    return false;
  };
  /** After the rows were loaded again (see refreshMarks). */
  // With nothing marked, no state update at all: a list loading page after page renders no more for it.
  const marked = useRef(0);
  marked.current = marks.size;
  const refresh = useCallback(
    (loaded: readonly T[], covers?: (row: T) => boolean) => {
      if (marked.current > 0) setMarks((m) => refreshMarks(m, loaded, idOf, covers));
    },
    [setMarks, idOf],
  );
  return {
    marks,
    has: (row: T) => marks.has(idOf(row)),
    rows: () => markedRows(marks),
    title: marksTitle(count),
    count: count.count,
    handleKey,
    refresh,
    /** After a bulk action: only the rows it failed on stay marked. */
    keep: (ids: ReadonlySet<string>) => setMarks((m) => keepMarks(m, ids)),
  };
}
