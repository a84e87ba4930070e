/** BYOK credentials: a page at a time of one workspace's (the default one's, or w's), with a provider filter. */
import { Box } from 'ink';
import { useState } from 'react';
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
import { relativeTime } from '../format.js';
import { useFilter } from '../hooks/useFilter.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { WorkspacePicker } from '../components/WorkspacePicker.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { usePaged } from '../hooks/usePaged.js';
import { useScreen } from '../hooks/useScreen.js';
import { keyLabel, matches } from '../keymap.js';
import { sanitize, truncate } from '../../text.js';
import { theme } from '../theme.js';

const PAGE = LIMITS.byokList.defaultLimit;
const flagsOf = (c: ByokCredential) =>
  [c.disabled && 'off', c.is_fallback && 'fallback', c.is_byok_only && 'only', c.is_required && 'req'].filter(Boolean).join(',') || '—';
const COLUMNS: Column<ByokCredential>[] = [
  { header: 'PROVIDER', width: 18, fit: true, cell: (c) => sanitize(c.provider) },
  { header: 'NAME', min: 10, cell: (c) => sanitize(c.name ?? '—') },
  { header: 'LABEL', width: 16, fit: true, cell: (c) => sanitize(c.label) },
  { header: 'REGION', width: 8, fit: true, cell: (c) => sanitize(c.declared_region ?? '—') },
  { header: 'FLAGS', width: 12, fit: true, cell: flagsOf },
  { header: 'CREATED', width: 8, cell: (c) => relativeTime(c.created_at) },
];

export function ByokList() {
  const { api, nav, active, pane } = useTui();
  // Its ages ("28s ago") move with the clock.
  useTick();
  const copy = useClipboard();
  const filter = useFilter();
  // The slug the filter means: typed whole in any case, or the start of one slug ("az": azure);
  // anything else is sent as typed, and the empty list says it is no provider's slug.
  const provider = filter.applied === '' ? '' : (providerOf(filter.applied, true) ?? filter.applied);
  const unknown = provider !== '' && findProvider(provider) === undefined;
  // The start of several slugs ("ope": open-inference, openai) is not a typo: it says which.
  const startOf = unknown ? slugsStartingWith(provider) : [];
  // The service lists one workspace's keys: the default one's, or the one typed after w (an empty
  // line goes back to the default). esc clears the provider, not this.
  const [workspace, setWorkspace] = useRemembered<{ id: string; name: string | null }>('workspace', { id: '', name: null });
  const [picking, setPicking] = useState(false);
  const paged = usePaged(
    (page, q, signal) => api.listByok({ ...page, provider: q.provider || undefined, workspace_id: q.workspace || undefined }, { signal }),
    { provider, workspace: workspace.id },
    PAGE,
  );
  const { rows, total, offset } = paged;
  // The pane less the title, the table's header, and the filter's and an error's lines when shown.
  // An account whose default workspace was deleted lists nothing without one (400): w is the way.
  const needsWorkspace = !workspace.id && paged.error instanceof ApiError && paged.error.status === 400 && /workspace/i.test(paged.error.message);
  const height = Math.max(3, pane.rows - 2 - (filter.shown ? 1 : 0) - (picking ? 1 : 0) - (needsWorkspace ? 1 : 0) - (paged.error && rows.length > 0 ? 1 : 0));
  const list = useListCursor(rows.length, height);
  // With no row (none yet, a failed load), no moving and opening offered.
  const typing = filter.editing;
  useScreen(picking ? ['chooser', 'text'] : typing ? ['prompt', 'text'] : ['byok', 'paged', ...(rows.length > 0 ? (['list'] as const) : []), 'global'], typing || picking);

  const open = (selected: (typeof rows)[number]) => nav.push({ name: 'byokDetails', id: selected.id });
  useKeys((input, key) => {
    if (picking) return;
    if (filter.handleKey(input, key)) return;
    if (matches('cancel', input, key) && filter.applied !== '') return filter.clear();
    if (list.handle(input, key)) return;
    if (paged.handleKey(input, key)) return;
    if (matches('byokFilter', input, key)) return filter.start();
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
          · {total === 0 ? 'none' : `${offset + 1}-${offset + rows.length} of ${total}`} · provider: {sanitize(provider) || 'all'} (/) · workspace:{' '}
          {workspace.id ? truncate(sanitize(workspace.name ?? workspace.id), 16) : 'default'} ({keyLabel('byokWorkspace')})
        </Text>
      </Text>
      {filter.shown ? (
        <TextField label="provider" value={filter.text} onChange={filter.onChange} focused={filter.editing} placeholder={`slug or its start, e.g. openai (${keyLabel('accept')} applies)`} labelWidth={12} />
      ) : null}
      {picking ? (
        <WorkspacePicker current={workspace.id} height={Math.max(3, Math.min(10, pane.rows - 8))} width={pane.columns - 4} onClose={() => setPicking(false)} onPick={(id, name) => setWorkspace({ id, name })} />
      ) : null}
      {needsWorkspace ? <Text color={theme.warning} wrap="truncate-end">{`${keyLabel('byokWorkspace')}: pick a workspace whose keys to list (the service lists the default workspace's without one)`}</Text> : null}
      <Table
        columns={COLUMNS}
        rows={rows}
        rowKey={(c) => c.id}
        selected={list.index}
        onSelect={picking ? undefined : list.setIndex}
        onOpen={(i) => rows[i] && open(rows[i])}
        height={height}
        width={pane.columns - 2}
        loadingLabel="Loading credentials"
        loading={paged.loading}
        error={paged.error}
        empty={
          unknown && startOf.length > 1
            ? `"${sanitize(provider)}" is the start of ${startOf.slice(0, 5).join(', ')}${startOf.length > 5 ? '...' : ''}: type more of one. esc shows them all.`
            : unknown
            ? `"${sanitize(provider)}" is no provider's slug${((near) => (near ? ` (did you mean ${near}?)` : ''))(closest(provider, PROVIDERS.map((p) => p.slug)))}. esc shows them all.`
            : `No credentials${provider ? ` for ${sanitize(provider)}` : ''}. Press n to add one.`
        }
      />
      {paged.error && rows.length > 0 ? <ErrorView error={paged.error} compact /> : null}
    </Box>
  );
}
