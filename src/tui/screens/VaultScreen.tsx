/**
 * Vault secrets: the workspace's (`:vault`), or an intern's (`v` on details) with an "effective"
 * tab naming the scope that wins for each name. Rows show name, hosts, a short fingerprint and
 * age; values are never read back. Add or replace (a), delete after a y/n (D), and copy workspace
 * secrets into the intern with a multi-select (C).
 */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { InternApi } from '../../client/types.js';
import type { EffectiveSecret, VaultSecret } from '../../contract/vault.js';
import { Confirm, confirmRows } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { Picker } from '../components/Picker.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import { type Column, Table } from '../components/Table.js';
import { useTui } from '../context.js';
import { useTick } from '../hooks/useTick.js';
import { counted, shortFingerprint } from '../format.js';
import { timeText, useTimeColumns } from '../times.js';
import { allVaultPages } from '../../client/pages.js';
import { useAction } from '../hooks/useAction.js';
import { useKeys } from '../hooks/useKeys.js';
import { useFilter } from '../hooks/useFilter.js';
import { type FilterField, fuzzyFilter } from '../fuzzy.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { useResource } from '../hooks/useResource.js';
import { useFollowRow, useSort } from '../hooks/useSort.js';
import { sortRows, type Ties } from '../state/sort.js';
import { type Scope, keyLabel, matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { SecretForm } from './SecretForm.js';
import { BulkPanel } from '../components/BulkPanel.js';
import { useBulk } from '../hooks/useBulk.js';
import { useMarks } from '../hooks/useMarks.js';

type Tab = 'effective' | 'own';
type Row = VaultSecret & { scope?: EffectiveSecret['scope'] };

const COLUMNS: Column<Row>[] = [
  { header: 'NAME', width: 22, fit: true, cell: (s) => sanitize(s.name), sort: { kind: 'text', by: (s) => s.name, key: 'sortName' } },
  { header: 'HOSTS', min: 10, cell: (s) => (s.hosts ?? []).map((h) => sanitize(h)).join(', ') || '—', sort: { kind: 'text', by: (s) => (s.hosts ?? []).join(', '), key: 'sortHost' } },
  { header: 'FINGERP.', width: 9, cell: (s) => shortFingerprint(s.fingerprint), color: () => theme.muted, sort: { kind: 'text', by: (s) => s.fingerprint, name: 'fingerprint' } },
  { header: 'AGE', width: 8, cell: (s) => timeText(s.created_at), color: () => theme.muted, sort: { kind: 'time', by: (s) => s.created_at, key: 'sortAge' } },
];
/** The effective view adds the scope each name's value comes from. */
const EFFECTIVE_COLUMNS: Column<Row>[] = [
  ...COLUMNS,
  { header: 'SCOPE', width: 10, fit: true, cell: (s) => s.scope ?? '', color: (s) => (s.scope === 'intern' ? theme.accent : theme.muted), sort: { kind: 'text', by: (s) => s.scope } },
];

/** What `/` matches a secret by: its name and hosts. */
/** The filter's fields: the name and the hosts, as their columns draw them. */
const filterFields = (r: Row): FilterField[] => [
  { text: r.name, column: 'NAME' },
  { text: (r.hosts ?? []).join(', '), column: 'HOSTS' },
];
const shownOf = (rows: readonly Row[], filter: string, sorted: boolean) => fuzzyFilter(rows, filter, filterFields, { keepOrder: sorted });
const rowKeyOf = (r: Row) => `${r.scope ?? ''}:${r.name}`;
const TIES: Ties<Row> = { name: (r) => r.name, id: rowKeyOf };
/** Why a secret shown on an intern's effective tab is not changed from here (another scope's), or null. */
const notHere = (r: Row, internId: string | undefined) =>
  internId && r.scope !== undefined && r.scope !== 'intern' ? `${sanitize(r.name)} is the ${r.scope} scope's: change it there, or override it here (${keyLabel('secretAdd')})` : null;

function loader(api: InternApi, internId: string | undefined, tab: Tab) {
  return (signal: AbortSignal): Promise<Row[]> => {
    if (!internId) return allVaultPages((q) => api.listVaultSecrets(q, { signal }));
    if (tab === 'effective') return allVaultPages((q) => api.listEffectiveSecrets(internId, q, { signal }));
    return allVaultPages((q) => api.listInternSecrets(internId, q, { signal }));
  };
}

type Mode = { kind: 'list' } | { kind: 'form'; existing?: Row } | { kind: 'delete'; row: Row } | { kind: 'copy'; from: VaultSecret[] | null };

export function VaultScreen({ internId }: { internId?: string }) {
  const { api, nav, active, setCapture, setScopes, size, pane } = useTui();
  // Its ages ("28s ago") move with the clock.
  useTick();
  const [tab, setTab] = useState<Tab>('effective');
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const intern = useResource(async (signal) => (internId ? api.getIntern(internId, { signal }) : null), internId ?? 'workspace');
  const listKey = `${internId ?? 'ws'}:${tab}`;
  const load = loader(api, internId, tab);
  const res = useResource(async (signal) => ({ key: listKey, rows: await load(signal) }), listKey);
  const { busy, error: actionError, run, fail: setActionError } = useAction(res.reload);
  // The last list stays while the same list reloads, never while another tab loads.
  const loadedRows = useMemo(() => (res.data?.key === listKey ? res.data.rows : []), [res.data, listKey]);
  // `/` filters by name or host as you type (esc clears it), as the intern list does.
  const filter = useFilter({ live: true, name: `vault.${internId ?? 'workspace'}`, claims: mode.kind === 'list' && !busy });
  const declared = internId && tab === 'effective' ? EFFECTIVE_COLUMNS : COLUMNS;
  const columns = useTimeColumns(declared, 'AGE');
  const sort = useSort('vault', declared, TIES, loadedRows);
  const sorted = sort.spec !== null;
  const matched = useMemo(() => shownOf(sort.rows, filter.applied, sorted), [sort.rows, filter.applied, sorted]);
  const rows = useMemo(() => matched.map((m) => m.row), [matched]);
  // The matches by row; each works out its marks when the table draws its row.
  const marks = useMemo(() => new Map(matched.map((m) => [rowKeyOf(m.row), m])), [matched]);
  const scopeLabel = internId ? (intern.data ? intern.data.name : 'this intern') : 'workspace';
  const question = mode.kind === 'delete' ? `Delete ${sanitize(mode.row.name)} from ${sanitize(scopeLabel)}? Programs there lose it.` : '';
  // The pane less the title, the table's header and each line shown with it (a spinner, an error,
  // the question, wrapped as Ink wraps it): what is not shown takes no row.
  const around = 2 + (filter.shown ? 1 : 0) + (busy ? 1 : 0) + (actionError ? 1 : 0) + (question ? confirmRows(question, pane.columns) : 0) + (res.error && rows.length > 0 ? 1 : 0);
  const listHeight = Math.max(3, pane.rows - around);
  const list = useListCursor(rows.length, listHeight);
  useFollowRow(sort.spec, rows, list.index, list.setIndex, rowKeyOf);
  const selected = rows[list.index];
  // Marks (space, *) stay across the filter and the tabs; D deletes every marked secret.
  const marking = useMarks(rowKeyOf, rows, filter.applied !== '' && mode.kind === 'list' && !busy, mode.kind === 'list' && !busy);
  const bulk = useBulk();
  const { refresh: refreshMarked } = marking;
  useEffect(() => {
    // Every page of this tab is loaded: a marked secret of this tab that is not there is gone.
    if (res.data?.key === listKey && !res.loading && !res.error) refreshMarked(loadedRows, (r) => (r.scope === undefined) === (!internId || tab === 'own'));
  }, [res.data, res.loading, res.error, listKey, loadedRows, internId, tab, refreshMarked]);
  // A secret just saved is selected once the list has loaded again (new data, not the list it was saved from).
  const [saved, setSaved] = useState<{ name: string; from: typeof res.data } | null>(null);
  const moveTo = list.setIndex;
  useEffect(() => {
    if (saved === null || res.data === saved.from) return;
    const loaded = shownOf(sortRows(res.data?.key === listKey ? res.data.rows : [], columns, sort.spec, TIES), filter.applied, sort.spec !== null);
    const at = loaded.findIndex(({ row: r }) => r.name === saved.name && (!internId || tab === 'own' || r.scope === 'intern'));
    if (at >= 0) moveTo(at);
    setSaved(null);
  }, [saved, res.data, listKey, internId, tab, moveTo, filter.applied, columns, sort.spec]);
  const editable = !internId || tab === 'own';

  // The secret form declares its own scopes (they follow its focus); the rest are declared here.
  // The list moves with the cursor keys but is not opened or filtered, and copying in and the
  // tabs exist only on an intern's secrets: the footer lists what this view does.
  useLayoutEffect(() => {
    if (mode.kind === 'form') return;
    setScopes(
      bulk.scopes ?? ((filter.editing
        ? ['prompt', 'text']
        : mode.kind === 'delete'
        ? ['confirm']
        : mode.kind === 'copy'
          ? ['chooser', 'chooserMulti', 'text']
          : internId
            ? ['vault', 'vaultIntern', 'cursor', 'global', 'sortable']
            : ['vault', 'cursor', 'global', 'sortable']) as Scope[]).concat(!bulk.scopes && !filter.editing && mode.kind === 'list' && rows.length > 0 ? (['marking'] as const) : []),
    );
  }, [setScopes, mode.kind, internId, filter.editing, bulk.scopes, rows.length]);
  useLayoutEffect(() => setCapture(mode.kind !== 'list' || filter.editing || bulk.phase !== null), [setCapture, mode.kind, filter.editing, bulk.phase]);


  const openCopy = () => {
    setMode({ kind: 'copy', from: null });
    allVaultPages((q) => api.listVaultSecrets(q)).then(
      (from) => setMode((m) => (m.kind === 'copy' ? { kind: 'copy', from } : m)),
      (e: unknown) => {
        setMode({ kind: 'list' });
        setActionError(e);
      },
    );
  };

  const answerDelete = (yes: boolean) => {
    if (mode.kind !== 'delete') return;
    const name = mode.row.name;
    setMode({ kind: 'list' });
    if (yes) void run('Deleting', () => (internId ? api.deleteInternSecret(internId, name) : api.deleteVaultSecret(name)), `deleted ${sanitize(name)}`);
  };

  useKeys((input, key) => {
    if (mode.kind !== 'list' || busy || bulk.phase) return;
    if (filter.handleKey(input, key)) return;
    // esc: the filter first, then the marks, then back.
    if (matches('cancel', input, key) && filter.applied !== '') return filter.clear();
    if (marking.handleKey(input, key, selected)) return;
    if (marking.count > 0 && matches('secretDelete', input, key)) {
      return bulk.open({
        plan: {
          items: marking.rows(),
          idOf: rowKeyOf,
          labelOf: (r) => r.name,
          skip: (r) => notHere(r, internId),
          act: (r, opts) => (internId ? api.deleteInternSecret(internId, r.name, opts) : api.deleteVaultSecret(r.name, opts)),
          goneIsDone: true,
        },
        words: { verb: 'Delete', doing: 'Deleting', done: 'deleted' },
        noun: 'secret',
        typeCount: true,
        onFinished: (p) => {
          marking.keep(new Set(p.rows.filter((r) => r.state === 'failed').map((r) => r.id)));
          res.reload();
          nav.flash(`${counted(p.counts.done, 'secret')} deleted from ${sanitize(scopeLabel)}${p.counts.failed ? `, ${p.counts.failed} failed` : ''}`, p.counts.failed ? 'error' : 'info');
        },
      });
    }
    if (list.handle(input, key)) return;
    if (sort.handleKey(input, key)) return;
    if (matches('secretFilter', input, key)) return filter.start();
    if (internId && matches('vaultTab', input, key)) return setTab((t) => (t === 'effective' ? 'own' : 'effective'));
    if (matches('refresh', input, key)) return res.reload();
    if (matches('secretAdd', input, key)) {
      if (internId) setTab('own');
      return setMode({ kind: 'form' });
    }
    if (internId && matches('secretCopy', input, key)) return openCopy();
    if (!selected) return;
    if (matches('secretReplace', input, key) || matches('secretDelete', input, key)) {
      // On the effective tab an intern's own secret is replaced or deleted where it is shown: the
      // tab stays (it used to switch to "own", and the row asked about vanished from under the question).
      const refused = editable ? null : notHere(selected, internId);
      if (refused) return nav.flash(refused);
      return setMode(matches('secretDelete', input, key) ? { kind: 'delete', row: selected } : { kind: 'form', existing: selected });
    }
  }, active);

  const title = internId ? `Secrets of ${sanitize(scopeLabel)}` : 'Workspace secrets';

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        {internId ? (
          <Text>
            {'  '}
            <Text inverse={tab === 'effective'}> effective </Text> <Text inverse={tab === 'own'}> own </Text>
            <Text color={theme.muted}> (tab)</Text>
          </Text>
        ) : null}
        <Text color={theme.muted}>
          {' '}
          · {rows.length}
          {filter.applied ? ` of ${loadedRows.length}` : ''} · values are never shown
        </Text>
        {marking.title ? <Text color={theme.accent}> · {marking.title}</Text> : null}
      </Text>
      {/* With the table: its line is counted in the table's height (around). */}
      {filter.shown && mode.kind !== 'form' && mode.kind !== 'copy' && !bulk.phase ? (
        <TextField label="/ filter" value={filter.text} onChange={filter.onChange} focused={filter.editing && active} placeholder="name or host" labelWidth={11} />
      ) : null}
      {busy ? <Spinner label={busy} /> : null}
      {actionError ? <ErrorView error={actionError} compact /> : null}
      <Confirm
        open={mode.kind === 'delete'}
        question={question}
        onAnswer={answerDelete}
        tone="error"
        active={active}
      />
      {mode.kind === 'form' ? (
        <SecretForm
          scopeLabel={scopeLabel}
          existing={mode.existing ? { name: mode.existing.name, hosts: mode.existing.hosts ?? [] } : undefined}
          taken={editable ? loadedRows.map((r) => r.name) : []}
          onClose={() => setMode({ kind: 'list' })}
          onSave={async (name, body) => {
            if (internId) await api.putInternSecret(internId, name, body);
            else await api.putVaultSecret(name, body);
            setMode({ kind: 'list' });
            nav.flash(`saved ${sanitize(name)} to ${sanitize(scopeLabel)}`);
            setSaved({ name, from: res.data });
            res.reload();
          }}
        />
      ) : null}
      {mode.kind === 'copy' ? (
        <Picker
          title={`Copy workspace secrets into ${sanitize(scopeLabel)}`}
          multi
          loading={mode.from === null}
          items={(mode.from ?? []).map((s) => ({ value: s.name, label: sanitize(s.name), detail: (s.hosts ?? []).map((h) => sanitize(h)).join(', ') }))}
          height={Math.max(3, size.rows - 14)}
          width={size.columns - 4}
          onClose={() => setMode({ kind: 'list' })}
          onPick={(picked) => {
            const names = picked.map((p) => p.value).filter((v): v is string => v !== null);
            setMode({ kind: 'list' });
            if (names.length === 0 || !internId) return;
            setTab('own');
            void run('Copying', () => api.copySecretsToIntern(internId, names), `copied ${counted(names.length, 'secret')} into ${sanitize(scopeLabel)}`);
          }}
        />
      ) : null}
      {bulk.phase ? <BulkPanel bulk={bulk} height={pane.rows - 1} width={pane.columns - 2} active={active} /> : null}
      {mode.kind === 'form' || mode.kind === 'copy' || bulk.phase ? null : (
        <>
          <Table
            columns={columns}
            rows={rows}
            fitRows={loadedRows}
            sort={sort.spec}
            rowKey={rowKeyOf}
            marks={(r) => marks.get(rowKeyOf(r))?.marks}
            picked={marking.has}
            selected={list.index}
            onSelect={mode.kind === 'list' && !busy ? list.setIndex : undefined}
            height={listHeight}
            width={size.columns - 2}
            loading={res.loading}
            loadingLabel="Loading secrets"
            error={res.error}
            empty={
              filter.applied && loadedRows.length > 0
                ? `Nothing matches "${sanitize(filter.applied)}".`
                : internId && tab === 'own'
                  ? 'No secrets of its own: a adds one, C copies from the workspace.'
                  : 'No secrets here yet: a adds one.'
            }
          />
          {res.error && rows.length > 0 ? <ErrorView error={res.error} compact /> : null}
        </>
      )}
    </Box>
  );
}
