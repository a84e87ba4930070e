/**
 * BYOK credentials: a page at a time of one workspace's (the default one's, or w's). `/` is the one
 * filter (fuzzy, live) over the page loaded, as k9s and gh filter what the list holds; `p` asks the
 * service for one provider's keys (its query), across every page.
 */
import { Box } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { Text } from '../components/Text.js';
import type { ByokCredential } from '../../contract/byok.js';
import { LIMITS } from '../../contract/limits.js';
import { PROVIDERS, findProvider, providerOf, slugsStartingWith } from '../../contract/providers.js';
import { closest } from '../../client/closest.js';
import { ApiError } from '../../client/errors.js';
import { ErrorView } from '../components/ErrorView.js';
import { type Column, Table } from '../components/Table.js';
import { TextField } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useTick } from '../hooks/useTick.js';
import { timeText, useTimeColumns } from '../times.js';
import { useFilter } from '../hooks/useFilter.js';
import { type FilterField, fuzzyFilter } from '../fuzzy.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { WorkspacePicker } from '../components/WorkspacePicker.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { usePaged } from '../hooks/usePaged.js';
import { useScreen } from '../hooks/useScreen.js';
import { useFollowRow, useSort } from '../hooks/useSort.js';
import { sortText, type Ties } from '../state/sort.js';
import { keyLabel, matches } from '../keymap.js';
import { sanitize, truncate } from '../../text.js';
import { theme } from '../theme.js';
import { BulkPanel } from '../components/BulkPanel.js';
import { useBulk } from '../hooks/useBulk.js';
import { useMarks } from '../hooks/useMarks.js';
import { counted } from '../format.js';

const PAGE = LIMITS.byokList.defaultLimit;
const flagsOf = (c: ByokCredential) =>
  [c.disabled && 'off', c.is_fallback && 'fallback', c.is_byok_only && 'only', c.is_required && 'req'].filter(Boolean).join(',') || '—';
const COLUMNS: Column<ByokCredential>[] = [
  { header: 'PROVIDER', width: 18, fit: true, cell: (c) => sanitize(c.provider), sort: { kind: 'text', by: (c) => c.provider, key: 'sortProvider' } },
  { header: 'NAME', min: 10, cell: (c) => sanitize(c.name ?? '—'), sort: { kind: 'text', by: (c) => c.name, key: 'sortName' } },
  { header: 'LABEL', width: 16, fit: true, cell: (c) => sanitize(c.label), sort: { kind: 'text', by: (c) => c.label } },
  { header: 'REGION', width: 8, fit: true, cell: (c) => sanitize(c.declared_region ?? '—'), sort: { kind: 'text', by: (c) => c.declared_region } },
  { header: 'FLAGS', width: 12, fit: true, cell: flagsOf, sort: { kind: 'text', by: (c) => (flagsOf(c) === '—' ? null : flagsOf(c)) } },
  { header: 'CREATED', width: 8, cell: (c) => timeText(c.created_at), sort: { kind: 'time', by: (c) => c.created_at, key: 'sortAge' } },
];

/** What `/` matches, as the columns draw it; the allowed models and the id, drawn nowhere, in NAME's place when they matched. */
export const byokFilterFields = (c: ByokCredential): FilterField[] => [
  { text: c.provider, column: 'PROVIDER' },
  { text: c.name ?? '', column: 'NAME' },
  { text: c.label, column: 'LABEL' },
  { text: c.declared_region ?? '', column: 'REGION' },
  { text: flagsOf(c), column: 'FLAGS' },
  { text: (c.allowed_models ?? []).join(', '), column: 'NAME', hidden: 'models' },
  { text: c.id, column: 'NAME', hidden: 'id' },
];
const TIES: Ties<ByokCredential> = { name: (c) => c.name ?? c.label, id: (c) => c.id };

const idOf = (c: ByokCredential) => c.id;

export function ByokList() {
  const { api, nav, active, pane } = useTui();
  // Its ages ("28s ago") move with the clock.
  useTick();
  const copy = useClipboard();
  // The service's provider query (p, applied on enter): the slug typed whole in any case, or the
  // start of one slug ("az": azure); anything else is sent as typed, and the empty list says it is
  // no provider's slug.
  const [asked, setAsked] = useRemembered('provider', '');
  const [askText, setAskText] = useState<string | null>(null);
  const provider = asked === '' ? '' : (providerOf(asked, true) ?? asked);
  const unknown = provider !== '' && findProvider(provider) === undefined;
  // The start of several slugs ("ope": open-inference, openai) is not a typo: it says which.
  const startOf = unknown ? slugsStartingWith(provider) : [];
  // esc clears the filter first, then the provider query.
  const filter = useFilter({ live: true, holding: provider !== '' });
  // The service lists one workspace's keys: the default one's, or the one typed after w (an empty
  // line goes back to the default). esc clears the provider, not this.
  const [workspace, setWorkspace] = useRemembered<{ id: string; name: string | null }>('workspace', { id: '', name: null });
  const [picking, setPicking] = useState(false);
  const paged = usePaged(
    (page, q, signal) => api.listByok({ ...page, provider: q.provider || undefined, workspace_id: q.workspace || undefined }, { signal }),
    { provider, workspace: workspace.id },
    PAGE,
  );
  const { rows: loaded, total, offset } = paged;
  const columns = useTimeColumns(COLUMNS, 'CREATED');
  // The service pages and cannot sort: a sort orders the page shown, and the filter narrows it.
  const sort = useSort('byok', COLUMNS, TIES, loaded);
  const matched = useMemo(() => fuzzyFilter(sort.rows, filter.applied, byokFilterFields, { keepOrder: sort.spec !== null }), [sort.rows, filter.applied, sort.spec]);
  const rows = useMemo(() => matched.map((m) => m.row), [matched]);
  const marks = useMemo(() => new Map(matched.map((m) => [m.row.id, m])), [matched]);
  // The pane less the title, the table's header, and the filter's and an error's lines when shown.
  // An account whose default workspace was deleted lists nothing without one (400): w is the way.
  const needsWorkspace = !workspace.id && paged.error instanceof ApiError && paged.error.status === 400 && /workspace/i.test(paged.error.message);
  const height = Math.max(3, pane.rows - 2 - (filter.shown ? 1 : 0) - (askText !== null ? 1 : 0) - (picking ? 1 : 0) - (needsWorkspace ? 1 : 0) - (paged.error && rows.length > 0 ? 1 : 0));
  const list = useListCursor(rows.length, height);
  useFollowRow(sort.spec, rows, list.index, list.setIndex, TIES.id);
  // A new filter text ranks the rows afresh, best first: the cursor goes to the best, as in fzf.
  const { setIndex } = list;
  useLayoutEffect(() => {
    if (filter.applied !== '') setIndex(0);
  }, [filter.applied, setIndex]);
  // Marks (space, *) stay across pages and the filters; D deletes every marked key.
  const marking = useMarks(idOf, rows, filter.applied !== '');
  const bulk = useBulk();
  const { refresh: refreshMarked } = marking;
  useEffect(() => {
    // The whole list on one page, with no provider asked for: a marked key it lacks is gone.
    if (!paged.loading && !paged.error) refreshMarked(loaded, offset === 0 && loaded.length === total && provider === '' ? () => true : undefined);
  }, [loaded, offset, total, provider, paged.loading, paged.error, refreshMarked]);
  // With no row (none yet, a failed load), no moving and opening offered.
  const typing = filter.editing || askText !== null;
  useScreen(
    bulk.scopes ?? (picking ? ['chooser', 'text'] : typing ? ['prompt', 'text'] : ['byok', 'paged', ...(rows.length > 0 ? (['list'] as const) : []), 'global', 'sortable', ...(rows.length > 0 ? (['marking'] as const) : [])]),
    typing || picking || bulk.phase !== null,
  );

  const open = (selected: (typeof rows)[number]) => nav.push({ name: 'byokDetails', id: selected.id });
  useKeys((input, key) => {
    if (picking || bulk.phase) return;
    if (filter.handleKey(input, key)) return;
    if (askText !== null) {
      if (matches('accept', input, key)) setAsked(askText.trim());
      if (matches('accept', input, key) || matches('dismiss', input, key)) setAskText(null);
      return;
    }
    // esc: the filter first, then the marks, then the provider asked for, then back.
    if (matches('cancel', input, key) && filter.applied !== '') return filter.clear();
    if (marking.handleKey(input, key, rows[list.index])) return;
    if (matches('cancel', input, key) && asked !== '') return setAsked('');
    if (marking.count > 0 && matches('byokDelete', input, key)) {
      return bulk.open({
        plan: { items: marking.rows(), idOf, labelOf: (c) => `${c.provider} ${c.name ?? c.label}`, act: (c, opts) => api.deleteByok(c.id, opts), goneIsDone: true },
        words: { verb: 'Delete', doing: 'Deleting', done: 'deleted' },
        noun: 'credential',
        typeCount: true,
        onFinished: (p) => {
          marking.keep(new Set(p.rows.filter((r) => r.state === 'failed').map((r) => r.id)));
          paged.reload();
          nav.flash(`${counted(p.counts.done, 'credential')} deleted${p.counts.failed ? `, ${p.counts.failed} failed` : ''}`, p.counts.failed ? 'error' : 'info');
        },
      });
    }
    if (list.handle(input, key)) return;
    if (paged.handleKey(input, key)) return;
    if (sort.handleKey(input, key)) return;
    if (matches('byokFilter', input, key)) return filter.start();
    if (matches('byokProvider', input, key)) return setAskText(asked);
    if (matches('byokWorkspace', input, key)) return setPicking(true);
    if (matches('refresh', input, key)) return paged.reload();
    if (matches('new', input, key)) return nav.push({ name: 'byokForm' });
    const selected = rows[list.index];
    if (!selected) return;
    if (matches('open', input, key)) return open(selected);
    if (matches('byokEdit', input, key)) return nav.push({ name: 'byokForm', id: selected.id, seed: selected });
    if (matches('byokCopyId', input, key)) return copy(selected.id, `the id of the ${sanitize(selected.provider)} credential`);
    if (matches('byokDelete', input, key)) return nav.push({ name: 'byokDetails', id: selected.id, ask: 'delete' });
  }, active);

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold wrap="truncate-end">
        BYOK credentials{' '}
        <Text color={theme.muted}>
          · {total === 0 ? 'none' : `${offset + 1}-${offset + loaded.length} of ${total}`}
          {filter.applied !== '' ? ` · ${rows.length} ${rows.length === 1 ? 'match' : 'matches'}, filtering ${total > loaded.length ? `the ${loaded.length} of this page` : `all ${loaded.length}`}` : ''} · provider:{' '}
          {sanitize(provider) || 'all'} ({keyLabel('byokProvider')}) · workspace:{' '}
          {workspace.id ? truncate(sanitize(workspace.name ?? workspace.id), 16) : 'default'} ({keyLabel('byokWorkspace')})
          {sort.spec ? ` · sorted by ${sortText(sort.spec)}${total > rows.length ? ' · this page' : ''}` : ''}
        </Text>
        {marking.title ? <Text color={theme.accent}> · {marking.title}</Text> : null}
      </Text>
      {bulk.phase ? <BulkPanel bulk={bulk} height={pane.rows - 1} width={pane.columns - 2} active={active} /> : null}
      {!bulk.phase && filter.shown ? (
        <TextField label="/ filter" value={filter.text} onChange={filter.onChange} focused={filter.editing} placeholder={total > loaded.length ? 'this page: provider, name, label…' : 'provider, name, label…'} labelWidth={12} />
      ) : null}
      {askText !== null ? (
        <TextField label="provider" value={askText} onChange={setAskText} focused placeholder={`slug or its start, e.g. openai: the service lists its keys (${keyLabel('accept')} asks)`} labelWidth={12} />
      ) : null}
      {picking ? (
        <WorkspacePicker current={workspace.id} height={Math.max(3, Math.min(10, pane.rows - 8))} width={pane.columns - 4} onClose={() => setPicking(false)} onPick={(id, name) => setWorkspace({ id, name })} />
      ) : null}
      {needsWorkspace ? <Text color={theme.warning} wrap="truncate-end">{`${keyLabel('byokWorkspace')}: pick a workspace whose keys to list (the service lists the default workspace's without one)`}</Text> : null}
      {bulk.phase ? null : <Table
        columns={columns}
        rows={rows}
        sort={sort.spec}
        marks={(c) => marks.get(c.id)?.marks}
        fitRows={loaded}
        rowKey={(c) => c.id}
        picked={marking.has}
        selected={list.index}
        onSelect={picking ? undefined : list.setIndex}
        onOpen={(i) => rows[i] && open(rows[i])}
        height={height}
        width={pane.columns - 2}
        loadingLabel="Loading credentials"
        loading={paged.loading}
        error={paged.error}
        empty={
          filter.applied !== '' && loaded.length > 0
            ? `Nothing ${total > loaded.length ? 'on this page ' : ''}matches "${sanitize(filter.applied)}".${total > loaded.length ? ` ${keyLabel('byokProvider')} asks the service for a provider's keys.` : ''}`
            : unknown && startOf.length > 1
            ? `"${sanitize(provider)}" is the start of ${startOf.slice(0, 5).join(', ')}${startOf.length > 5 ? '...' : ''}: type more of one. esc shows them all.`
            : unknown
            ? `"${sanitize(provider)}" is no provider's slug${((near) => (near ? ` (did you mean ${near}?)` : ''))(closest(provider, PROVIDERS.map((p) => p.slug)))}. esc shows them all.`
            : `No credentials${provider ? ` for ${sanitize(provider)}` : ''}. Press n to add one.`
        }
      />}
      {paged.error && rows.length > 0 ? <ErrorView error={paged.error} compact /> : null}
    </Box>
  );
}
