/**
 * Marks on a list's rows (`space`, `*`), React-free: the ids marked, each with the row as last
 * seen, so that a mark outlives a filter that hides its row, a status filter that does not load
 * it, a refresh and paging, and the bulk action's confirmation can still name it. Every function
 * answers the same object when nothing changed (React then draws nothing new).
 *
 * A mark is dropped when a listing that would have shown its row came back without it (the row is
 * gone from the service), when it is unmarked, when the marks are cleared (`esc`, once no filter is
 * applied), and after a bulk action, which keeps only the rows it failed on.
 */

/** Marked rows by id, in the order they were marked. */
export type Marks<T> = ReadonlyMap<string, T>;

export const NO_MARKS: Marks<never> = new Map<string, never>();

/** Marks the row, or unmarks it when it was marked. */
export function toggleMark<T>(marks: Marks<T>, id: string, row: T): Marks<T> {
  const next = new Map(marks);
  if (!next.delete(id)) next.set(id, row);
  return next;
}

/**
 * Marks every row shown (what the filter lets through); when every one of them is marked
 * already, unmarks them instead, so the same key undoes itself.
 */
export function markShown<T>(marks: Marks<T>, shown: readonly T[], idOf: (row: T) => string): Marks<T> {
  if (shown.length === 0) return marks;
  const next = new Map(marks);
  if (shown.every((r) => marks.has(idOf(r)))) for (const r of shown) next.delete(idOf(r));
  else for (const r of shown) next.set(idOf(r), r);
  return next;
}

/** No marks. */
export function clearMarks<T>(marks: Marks<T>): Marks<T> {
  return marks.size === 0 ? marks : new Map();
}

/**
 * After the rows were loaded again: a marked row that came back is kept with its new data (its
 * status, for what an action would do to it); one that did not is dropped only when `covers`
 * says the load would have listed it (the whole list for a filter that takes it), since a page
 * not loaded yet or another status filter hides a row without its being gone.
 */
export function refreshMarks<T>(marks: Marks<T>, loaded: readonly T[], idOf: (row: T) => string, covers?: (row: T) => boolean): Marks<T> {
  if (marks.size === 0) return marks;
  const fresh = new Map(loaded.map((r) => [idOf(r), r] as const));
  let changed = false;
  const next = new Map<string, T>();
  for (const [id, row] of marks) {
    const now = fresh.get(id);
    if (now !== undefined) {
      next.set(id, now);
      if (now !== row) changed = true;
    } else if (covers?.(row)) {
      changed = true;
    } else {
      next.set(id, row);
    }
  }
  return changed ? next : marks;
}

/** Only the marks whose ids are in `ids` (after a bulk action: the rows it failed on). */
export function keepMarks<T>(marks: Marks<T>, ids: ReadonlySet<string>): Marks<T> {
  const next = new Map([...marks].filter(([id]) => ids.has(id)));
  return next.size === marks.size ? marks : next;
}

/** How many rows are marked, and how many of them the rows shown leave out. */
export function markCount<T>(marks: Marks<T>, shown: readonly T[], idOf: (row: T) => string): { count: number; hidden: number } {
  if (marks.size === 0) return { count: 0, hidden: 0 };
  let seen = 0;
  for (const r of shown) if (marks.has(idOf(r))) seen++;
  return { count: marks.size, hidden: marks.size - seen };
}

/** The title's words for the marks: `3 marked (1 hidden)`; '' with none. */
export function marksTitle({ count, hidden }: { count: number; hidden: number }): string {
  if (count === 0) return '';
  return `${count} marked${hidden > 0 ? ` (${hidden} hidden)` : ''}`;
}

/** The marked rows, in the order they were marked. */
export function markedRows<T>(marks: Marks<T>): T[] {
  return [...marks.values()];
}
