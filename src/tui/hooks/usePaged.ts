/**
 * Offset paging over a list endpoint: one page at a time, ←/→ (the keymap's
 * `prevPage`/`nextPage`) move between pages, and a change of `query` goes back
 * to the first page.
 */
import type { Key } from 'ink';
import { useState } from 'react';
import { matches } from '../keymap.js';
import { useResource } from './useResource.js';

export function usePaged<T, Q>(
  load: (page: { offset: number; limit: number }, query: Q, signal: AbortSignal) => Promise<{ data: T[]; total_count: number }>,
  query: Q,
  pageSize: number,
) {
  const queryKey = JSON.stringify(query);
  const [at, setAt] = useState({ offset: 0, queryKey });
  // A new query starts at the first page.
  const offset = at.queryKey === queryKey ? at.offset : 0;
  const res = useResource((signal) => load({ offset, limit: pageSize }, query, signal), `${offset}:${queryKey}`);
  const rows = res.data?.data ?? [];
  const total = res.data?.total_count ?? 0;
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
