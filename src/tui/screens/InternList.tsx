/** The intern list: pages by cursor as you scroll, filters, and refreshes itself while interns move. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { FIRST_INTERN_PAGE } from '../../client/prefetch.js';
import { INTERN_PAGE } from '../../client/pages.js';
import { SUSPENDABLE_STATUSES, TRANSITIONAL_STATUSES, type Intern } from '../../contract/intern.js';
import { ErrorView } from '../components/ErrorView.js';
import { Table } from '../components/Table.js';
import { COLUMNS, filterFields, STATUS_FILTERS, TIES } from './internColumns.js';
import { TextField } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useTick } from '../hooks/useTick.js';
import { useScreen } from '../hooks/useScreen.js';
import { useTimeColumns } from '../times.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useFilter } from '../hooks/useFilter.js';
import { fuzzyFilter } from '../fuzzy.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { internScopes, lifecycleRefusal } from '../lifecycle.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { useSort } from '../hooks/useSort.js';
import { sortText } from '../state/sort.js';
import { usePolling } from '../hooks/usePolling.js';
import { type Scope, matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { BulkPanel } from '../components/BulkPanel.js';
import { useBulk } from '../hooks/useBulk.js';
import { useMarks } from '../hooks/useMarks.js';
import { INTERN_ACTION_WORDS, type InternAction, internPlan } from '../state/bulk.js';
import { counted } from '../format.js';

const PAGE: number = FIRST_INTERN_PAGE.limit;
const NO_ROWS: Intern[] = [];
const idOf = (i: Intern) => i.id;

export function InternList() {
  const { api, nav, active, pane, options } = useTui();
  // Its ages ("28s ago") move with the clock.
  useTick();
  const copy = useClipboard();
  // The first page, when the CLI's early request has already brought it: drawn in the first frame.
  const [first] = useState(() => (api === options.api ? options.takeFirstPage?.() : undefined));
  // The last rows loaded, remembered while the list is in the stack: back from a screen above, the
  // list shows them at once (refreshing under them), so keys typed ahead (`q j enter` from the
  // details) act on rows, and while the service is down it shows them with the error under it.
  const [lastLoaded, setLastLoaded] = useRemembered<{ status: string | null; rows: Intern[] }>('lastLoaded', { status: null, rows: first?.data ?? [] });
  const [statusIdx, setStatusIdx] = useRemembered('status', 0);
  const status = STATUS_FILTERS[statusIdx] ?? null;
  const [loadedItems, setItems] = useState<Intern[]>(() => first?.data ?? (lastLoaded.status === status ? lastLoaded.rows : []));
  // The status filter the rows were loaded for: once f changes it, they are not shown (nor acted
  // on: y, enter or p pressed before the new page came took a row of the old filter).
  const [rowsFor, setRowsFor] = useState(status);
  const items = rowsFor === status ? loadedItems : NO_ROWS;
  const rowsForRef = useRef(rowsFor);
  rowsForRef.current = rowsFor;
  const lastLoadedRef = useRef(lastLoaded);
  lastLoadedRef.current = lastLoaded;
  const [cursor, setCursorToken] = useState<string | undefined>(first?.next_cursor ?? undefined);
  const [hasMore, setHasMore] = useState(first?.has_more ?? false);
  const [loading, setLoading] = useState(first === undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [pollError, setPollError] = useState<unknown>(undefined);
  const filterField = useFilter({ live: true });
  const filter = filterField.applied;
  const filtering = filterField.editing;
  const loadingMore = useRef(false);
  // Bumped whenever the loaded rows and their cursor are replaced (a reload, a refresh of a short
  // list): a next page asked for before that belongs to the old list, and is dropped.
  const generation = useRef(0);
  const [staleAsks, setStaleAsks] = useState(0);
  // G (bottom) with pages still to load: load them all and keep the cursor on the last row, as a
  // list that had them all would; any other move stops it.
  const [toEnd, setToEnd] = useState(false);

  const loadFirst = useCallback(
    async (limit = PAGE) => {
      const page = await api.listInterns({ limit: Math.min(INTERN_PAGE, Math.max(PAGE, limit)), status: status ? [status] : undefined });
      return page;
    },
    [api, status],
  );

  // Set as a reload starts and ends, read by the next-page effect and the refresh, which must not
  // act on the rows a reload is replacing (state set now would reach them a render too late).
  const reloading = useRef(false);
  const reload = useCallback(() => {
    setLoading(true);
    reloading.current = true;
    const gen = ++generation.current;
    if (rowsForRef.current !== status) {
      // Another status's cursor would page this one from the wrong place.
      setCursorToken(undefined);
      setHasMore(false);
    }
    loadFirst().then(
      (page) => {
        // A later reload (f pressed again, r) is under way: its answer is the one to show.
        if (gen !== generation.current) return;
        reloading.current = false;
        setItems(page.data);
        setRowsFor(status);
        setLastLoaded({ status, rows: page.data });
        setCursorToken(page.next_cursor);
        setHasMore(page.has_more);
        setError(undefined);
        setPollError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (gen !== generation.current) return;
        reloading.current = false;
        setError(e);
        // Only rows of this status filter: another's would be shown under the wrong name.
        if (lastLoadedRef.current.status === status) {
          setItems((shown) => (rowsForRef.current === status && shown.length > 0 ? shown : lastLoadedRef.current.rows));
          setRowsFor(status);
        }
        setLoading(false);
      },
    );
  }, [loadFirst, status, setLastLoaded]);
  const seeded = useRef(first !== undefined);
  useEffect(() => {
    // Seeded with the first page: no second request for what is on screen.
    if (seeded.current) seeded.current = false;
    else reload();
  }, [reload]);

  const columns = useTimeColumns(COLUMNS, 'UPDATED');
  // Sorted (state/sort.ts) when the rows or the sort change; a sorted list keeps its order under a filter.
  const sort = useSort('interns', COLUMNS, TIES, items);
  const matched = useMemo(() => fuzzyFilter(sort.rows, filter, filterFields, { keepOrder: sort.spec !== null }), [sort.rows, filter, sort.spec]);
  const visible = useMemo(() => matched.map((m) => m.row), [matched]);
  // The matches by id; each works out its marks when the table draws its row.
  const marks = useMemo(() => new Map(matched.map((m) => [m.row.id, m])), [matched]);
  // Marked rows (space, *) and the bulk action on them (s, p, D while any are marked).
  const marking = useMarks(idOf, visible, filter !== '');
  const bulk = useBulk();
  // Loaded again: marks follow their rows' new status, and one the whole list (all statuses, every
  // page) no longer has is gone from the service.
  const { refresh: refreshMarked } = marking;
  useEffect(() => {
    if (rowsFor !== status || loading) return;
    refreshMarked(items, status === null && !hasMore && !error ? () => true : undefined);
  }, [items, rowsFor, status, loading, hasMore, error, refreshMarked]);

  // One error line under the table: the refresh asked for (r) over the polling's, each cleared by a
  // success (with no rows yet, the table shows the refresh's error itself).
  const lineError = error && items.length > 0 ? error : pollError;
  // The pane less the title, the table's header and each line shown around it: what is not shown
  // takes no row (it left three blank rows under the list).
  const listHeight = Math.max(3, pane.rows - 2 - (filterField.shown ? 1 : 0) - (hasMore ? 1 : 0) - (lineError ? 1 : 0));
  const list = useListCursor(visible.length, listHeight);
  // While the filter is typed into, its keys are the ones that work; else the list's, and the
  // selected intern's as its status allows (p on a stopped one, s on a running one); with no row
  // selected (an empty list, a failed load), none of an intern's, nor moving and opening.
  const selectedRow = visible[list.index];
  // With rows marked, s, p and D act on them whatever the cursor's row allows. The marks' keys come
  // after the global ones: the help lists them after "Everywhere", and the footer has no room for them.
  const rowScopes: Scope[] = marking.count > 0 ? ['provisionable', 'suspendable', 'intern'] : selectedRow ? internScopes(selectedRow) : [];
  useScreen(
    bulk.scopes ?? (filtering ? ['prompt', 'text'] : [...(selectedRow ? (['list'] as const) : []), 'internList', ...rowScopes, 'global', 'sortable', ...(selectedRow ? (['marking'] as const) : [])]),
    filtering || bulk.phase !== null,
  );

  // Load the next page when the cursor nears the end of what is loaded, and while a filter is
  // applied, every page: the service cannot search by name, and a filter over the first page alone
  // said "Nothing matches" of an intern on the second.
  useEffect(() => {
    // Not while the list reloads, nor for rows of another status: a page asked for now would
    // follow the old rows' cursor.
    if (reloading.current || rowsFor !== status || loading || !hasMore || !cursor || loadingMore.current || (filter === '' && !toEnd && list.index < items.length - 10)) return;
    loadingMore.current = true;
    const asked = generation.current;
    api.listInterns({ limit: PAGE, starting_after: cursor, status: status ? [status] : undefined }).then(
      (page) => {
        loadingMore.current = false;
        // The rows it followed were replaced meanwhile: asked again, after the new rows' cursor.
        if (asked !== generation.current) return setStaleAsks((n) => n + 1);
        setItems((prev) => {
          const known = new Set(prev.map((x) => x.id));
          return [...prev, ...page.data.filter((p) => !known.has(p.id))];
        });
        setCursorToken(page.next_cursor);
        setHasMore(page.has_more);
      },
      (e: unknown) => {
        loadingMore.current = false;
        if (asked === generation.current) setPollError(e);
      },
    );
  }, [loading, rowsFor, list.index, items.length, hasMore, cursor, api, status, filter, toEnd, staleAsks]);
  const { setIndex } = list;
  // The cursor stays on its intern when the rows change under it (a refresh put a new intern
  // above it, one above it was deleted): enter opens the intern that was selected, not its
  // neighbour. A move of the cursor itself is not undone (the rows are the same then). A new
  // filter text ranks the rows afresh, best first: the cursor goes to the best, as in fzf.
  const anchor = useRef<{ rows: Intern[]; id: string | undefined; filter: string }>({ rows: visible, id: undefined, filter });
  useLayoutEffect(() => {
    const was = anchor.current;
    if (filter !== '' && filter !== was.filter) {
      anchor.current = { rows: visible, id: visible[0]?.id, filter };
      setIndex(0);
      return;
    }
    // A cursor waiting for its row to be loaded again (past the rows there are, with pages to
    // come) anchors nothing: the row it shows is not the one it is on.
    if (list.clamped && hasMore) {
      anchor.current = { rows: visible, id: undefined, filter };
      return;
    }
    if (!toEnd && was.rows !== visible && was.id !== undefined && visible[list.index]?.id !== was.id) {
      const at = visible.findIndex((i) => i.id === was.id);
      if (at >= 0) {
        anchor.current = { rows: visible, id: was.id, filter };
        setIndex(at);
        return;
      }
    }
    anchor.current = { rows: visible, id: visible[list.index]?.id, filter };
  }, [visible, filter, list.index, list.clamped, hasMore, toEnd, setIndex]);
  useEffect(() => {
    if (!toEnd) return;
    setIndex(visible.length - 1);
    if (!hasMore) setToEnd(false);
  }, [toEnd, hasMore, visible.length, setIndex]);

  // While anything moves on its own, refresh what is loaded, in one request (the service's largest
  // page); back off when nothing changes. Past one page, the refreshed rows replace the head and
  // the rows loaded after them stay, with their cursor: replacing the whole list with one page
  // dropped the rest, which the next-page effect then walked again, for ever while anything moved.
  const moving = items.some((i) => TRANSITIONAL_STATUSES.includes(i.status));
  usePolling(moving, async () => {
    try {
      if (reloading.current) return false;
      const asked = generation.current;
      const page = await loadFirst(items.length);
      // A reload (r, f) began meanwhile: its rows win.
      if (asked !== generation.current || reloading.current) return false;
      const fresh = page.data;
      const whole = items.length <= INTERN_PAGE;
      const key = (list: Intern[]) => JSON.stringify(list.map((i) => [i.id, i.status, i.updated_at, i.progress]));
      const before = key(items.slice(0, whole ? items.length : INTERN_PAGE));
      const after = key(fresh);
      if (whole) {
        // Replaced only when something changed: a next page in flight follows the same cursor,
        // and throwing it away at every refresh could ask it again for ever on a slow service.
        if (before !== after || page.next_cursor !== cursor || page.has_more !== hasMore) {
          generation.current++;
          setItems(fresh);
          setCursorToken(page.next_cursor);
          setHasMore(page.has_more);
        }
      } else {
        setItems((prev) => {
          // The rows after the refreshed ones: from where the last of them was, so that a row a new
          // intern pushed past the first page (newest first) is kept, and one deleted is not.
          const ids = new Set(fresh.map((i) => i.id));
          const last = fresh.length > 0 ? prev.findIndex((i) => i.id === fresh[fresh.length - 1]!.id) : -1;
          return [...fresh, ...prev.slice(last >= 0 ? last + 1 : INTERN_PAGE).filter((i) => !ids.has(i.id))];
        });
      }
      setPollError(undefined);
      return before !== after;
    } catch (e) {
      setPollError(e);
      throw e;
    }
  });

  const askBulk = (action: InternAction) =>
    bulk.open({
      plan: internPlan(api, action, marking.rows()),
      words: INTERN_ACTION_WORDS[action],
      noun: 'intern',
      typeCount: action === 'delete',
      onFinished: (p) => {
        // The rows it failed on stay marked, to be tried again by choice; the list is read once.
        marking.keep(new Set(p.rows.filter((r) => r.state === 'failed').map((r) => r.id)));
        reload();
        const { done, failed } = p.counts;
        nav.flash(`${counted(done, 'intern')} ${INTERN_ACTION_WORDS[action].done}${failed ? `, ${failed} failed` : ''}`, failed ? 'error' : 'info');
      },
    });

  const open = (selected: Intern) => nav.push({ name: 'intern', id: selected.id, seed: selected });

  useKeys((input, key) => {
    if (bulk.phase) return;
    if (filterField.handleKey(input, key)) return;
    // esc: the filter first, then the marks (marking.handleKey), then back (the shell).
    if (matches('cancel', input, key) && filter !== '') return filterField.clear();
    if (marking.handleKey(input, key, visible[list.index])) return;
    if (marking.count > 0) {
      const action = (['provision', 'suspend', 'delete'] as const).find((a) => matches(a, input, key));
      if (action) return askBulk(action);
    }
    if (list.handle(input, key)) return setToEnd(hasMore && matches('bottom', input, key));
    if (sort.handleKey(input, key)) return;
    const selected = visible[list.index];
    if (matches('filter', input, key)) return filterField.start();
    if (matches('statusFilter', input, key)) return setStatusIdx((i) => (i + 1) % STATUS_FILTERS.length);
    if (matches('statusFilterBack', input, key)) return setStatusIdx((i) => (i + STATUS_FILTERS.length - 1) % STATUS_FILTERS.length);
    if (matches('refresh', input, key)) return reload();
    if (matches('newIntern', input, key)) return nav.push({ name: 'create' });
    if (!selected) return;
    if (matches('chat', input, key)) return nav.push({ name: 'chat', id: selected.id, seed: selected });
    if (matches('vault', input, key)) return nav.push({ name: 'vault', internId: selected.id });
    if (matches('open', input, key)) return open(selected);
    if (matches('edit', input, key)) return nav.push({ name: 'settings', id: selected.id, seed: selected });
    if (matches('connections', input, key)) return nav.push({ name: 'connections', id: selected.id });
    if (matches('attach', input, key)) return nav.push({ name: 'attach', intern: selected });
    if (matches('split', input, key) && SUSPENDABLE_STATUSES.includes(selected.status)) return nav.push({ name: 'split', intern: selected });
    if (matches('copyId', input, key)) return copy(selected.id, `the id of ${sanitize(selected.name)}`);
    if (matches('provision', input, key) || matches('suspend', input, key)) {
      const refused = lifecycleRefusal(matches('provision', input, key) ? 'provision' : 'suspend', selected);
      if (refused) return nav.flash(refused, 'error');
    }
    if (matches('provision', input, key)) {
      api.provisionIntern(selected.id).then(
        () => {
          nav.flash(`provisioning ${sanitize(selected.name)}`);
          reload();
        },
        (e: unknown) => setPollError(e),
      );
      return;
    }
    // Suspend and delete ask first, on the details screen: the question comes with what it is about.
    if (matches('suspend', input, key)) return nav.push({ name: 'intern', id: selected.id, seed: selected, ask: 'suspend' });
    if (matches('delete', input, key)) {
      const refused = lifecycleRefusal('delete', selected);
      return refused ? nav.flash(refused, 'error') : nav.push({ name: 'intern', id: selected.id, seed: selected, ask: 'delete' });
    }
  }, active);

  return (
    <Box flexDirection="column" flexGrow={1}>
      {/* One line, cut at the edge of a narrow terminal rather than wrapped under the title. */}
      <Text wrap="truncate-end">
        <Text bold>Interns</Text>
        <Text color={theme.muted}>
          {'  '}
          {/* No count before the first rows arrive: a failed load is not "0 interns". */}
          {error && items.length === 0 ? '' : `${visible.length}${filter ? ` of ${items.length}` : ''}${hasMore ? '+' : ''} · `}status: {status ?? 'all'} (f)
          {/* Paged by the service, which cannot sort: what is sorted is what is loaded. */}
          {sort.spec ? ` · sorted by ${sortText(sort.spec)}${hasMore ? ` · loaded ${items.length} of more` : ''}` : ''}
          {moving ? ' · auto-refresh' : ''}
          {visible.some((i) => i.created_by_you) ? ' · ★ yours' : ''}
        </Text>
        {marking.title ? <Text color={theme.accent}> · {marking.title}</Text> : null}
        {loading && items.length > 0 ? <Text color={theme.muted}> · refreshing…</Text> : null}
      </Text>
      {bulk.phase ? <BulkPanel bulk={bulk} height={pane.rows - 1} width={pane.columns - 2} active={active} /> : null}
      {bulk.phase ? null : filterField.shown ? (
        <TextField label="/ filter" value={filterField.text} onChange={filterField.onChange} focused={filtering} placeholder="name, model, status…" labelWidth={11} />
      ) : null}
      {bulk.phase ? null : <Table
        columns={columns}
        rows={visible}
        marks={(i) => marks.get(i.id)?.marks}
        picked={marking.has}
        fitRows={items}
        sort={sort.spec}
        rowKey={(i) => i.id}
        selected={list.index}
        onSelect={setIndex}
        onOpen={(i) => visible[i] && open(visible[i])}
        height={listHeight}
        width={pane.columns - 2}
        loadingLabel="Loading interns"
        loading={loading}
        error={error}
        empty={filter ? `Nothing matches "${sanitize(filter)}"${hasMore ? ' yet' : ''}.` : status ? `No interns are ${status}. f shows the next status.` : 'No interns here yet.'}
      />}
      {bulk.phase ? null : hasMore ? <Text color={theme.muted}>{filter || toEnd ? '  looking through the rest…' : '  more below: scroll to load'}</Text> : null}
      {lineError ? <ErrorView error={lineError} compact /> : null}
    </Box>
  );
}
