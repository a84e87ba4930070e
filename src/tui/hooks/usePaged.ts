/**
 * Offset paging over a list endpoint: one page at a time, ←/→ (the keymap's
 * `prevPage`/`nextPage`) move between pages, and a change of `query` goes back
 * to the first page. The page is remembered while the screen's route is in the stack (useRemembered):
 * back from a row's details, or after a delete, the list is on the page it was on, not the first.
 */
import type { Key } from 'ink';
import { useEffect } from 'react';
import { matches } from '../keymap.js';
import { useRemembered } from './useRemembered.js';
import { useResource } from './useResource.js';

export function usePaged<T, Q>(
  load: (page: { offset: number; limit: number }, query: Q, signal: AbortSignal) => Promise<{ data: T[]; total_count: number }>,
  query: Q,
  pageSize: number,
) {
  const queryKey = JSON.stringify(query);
  const [at, setAt] = useRemembered('page', { offset: 0, queryKey });
  // A new query starts at the first page.
  const offset = at.queryKey === queryKey ? at.offset : 0;
  const res = useResource(async (signal) => ({ ...(await load({ offset, limit: pageSize }, query, signal)), queryKey }), `${offset}:${queryKey}`);
  // The rows of another query are not this one's: kept while the next page of the same query loads
  // (no flicker), gone once the query changed, so that a row of the old one (another workspace's
  // keys, when the new one was refused) cannot be opened, edited or deleted under the new title.
  const current = res.data?.queryKey === queryKey ? res.data : undefined;
  const rows = current?.data ?? [];
  const total = current?.total_count ?? 0;
  // A page emptied from under it (its last row deleted, here or elsewhere) gives way to the last page.
  const emptied = current !== undefined && rows.length === 0 && offset > 0 && total > 0;
  useEffect(() => {
    if (emptied) setAt({ offset: Math.floor((total - 1) / pageSize) * pageSize, queryKey });
  }, [emptied, total, pageSize, queryKey, setAt]);
  const handleKey = (input: string, key: Key): boolean => {
    if (matches('nextPage', input, key)) {
      if (offset + pageSize < total) setAt({ offset: offset + pageSize, queryKey });
      return true;
    }
    if (matches('prevPage', input, key)) {
      if (offset > 0) setAt({ offset: Math.max(0, offset - pageSize), queryKey });
      return true;
    }
    return false;
  };
  return { rows, total, offset, loading: res.loading, error: res.error, reload: res.reload, handleKey };
}
