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
import { counted, relativeTime, shortFingerprint } from '../format.js';
import { allVaultPages } from '../../client/pages.js';
import { useAction } from '../hooks/useAction.js';
import { useKeys } from '../hooks/useKeys.js';
import { useFilter } from '../hooks/useFilter.js';
import { type FilterField, fuzzyFilter } from '../fuzzy.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { useResource } from '../hooks/useResource.js';
import { keyLabel, matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { SecretForm } from './SecretForm.js';

type Tab = 'effective' | 'own';
type Row = VaultSecret & { scope?: EffectiveSecret['scope'] };

const COLUMNS: Column<Row>[] = [
  { header: 'NAME', width: 22, fit: true, cell: (s) => sanitize(s.name) },
  { header: 'HOSTS', min: 10, cell: (s) => (s.hosts ?? []).map((h) => sanitize(h)).join(', ') || '—' },
  { header: 'FINGERP.', width: 9, cell: (s) => shortFingerprint(s.fingerprint), color: () => theme.muted },
  { header: 'AGE', width: 8, cell: (s) => relativeTime(s.created_at), color: () => theme.muted },
];
/** The effective view adds the scope each name's value comes from. */
const EFFECTIVE_COLUMNS: Column<Row>[] = [
  ...COLUMNS,
  { header: 'SCOPE', width: 10, fit: true, cell: (s) => s.scope ?? '', color: (s) => (s.scope === 'intern' ? theme.accent : theme.muted) },
];

/** What `/` matches a secret by: its name and hosts. */
/** The filter's fields: the name and the hosts, as their columns draw them. */
const filterFields = (r: Row): FilterField[] => [
  { text: r.name, column: 'NAME' },
  { text: (r.hosts ?? []).join(', '), column: 'HOSTS' },
];
const shownOf = (rows: Row[], filter: string) => fuzzyFilter(rows, filter, filterFields);
const rowKeyOf = (r: Row) => `${r.scope ?? ''}:${r.name}`;

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
  const matched = useMemo(() => shownOf(loadedRows, filter.applied), [loadedRows, filter.applied]);
  const rows = useMemo(() => matched.map((m) => m.row), [matched]);
  const marks = useMemo(() => new Map(matched.map((m) => [rowKeyOf(m.row), m.marks])), [matched]);
  const scopeLabel = internId ? (intern.data ? intern.data.name : 'this intern') : 'workspace';
  const question = mode.kind === 'delete' ? `Delete ${sanitize(mode.row.name)} from ${sanitize(scopeLabel)}? Programs there lose it.` : '';
  // The pane less the title, the table's header and each line shown with it (a spinner, an error,
  // the question, wrapped as Ink wraps it): what is not shown takes no row.
  const around = 2 + (filter.shown ? 1 : 0) + (busy ? 1 : 0) + (actionError ? 1 : 0) + (question ? confirmRows(question, pane.columns) : 0) + (res.error && rows.length > 0 ? 1 : 0);
  const listHeight = Math.max(3, pane.rows - around);
  const list = useListCursor(rows.length, listHeight);
  const selected = rows[list.index];
  // A secret just saved is selected once the list has loaded again (new data, not the list it was saved from).
  const [saved, setSaved] = useState<{ name: string; from: typeof res.data } | null>(null);
  const moveTo = list.setIndex;
  useEffect(() => {
    if (saved === null || res.data === saved.from) return;
    const loaded = shownOf(res.data?.key === listKey ? res.data.rows : [], filter.applied);
    const at = loaded.findIndex(({ row: r }) => r.name === saved.name && (!internId || tab === 'own' || r.scope === 'intern'));
    if (at >= 0) moveTo(at);
    setSaved(null);
  }, [saved, res.data, listKey, internId, tab, moveTo, filter.applied]);
  const editable = !internId || tab === 'own';

  // The secret form declares its own scopes (they follow its focus); the rest are declared here.
  // The list moves with the cursor keys but is not opened or filtered, and copying in and the
  // tabs exist only on an intern's secrets: the footer lists what this view does.
  useLayoutEffect(() => {
    if (mode.kind === 'form') return;
    setScopes(
      filter.editing
        ? ['prompt', 'text']
        : mode.kind === 'delete'
        ? ['confirm']
        : mode.kind === 'copy'
          ? ['chooser', 'chooserMulti', 'text']
          : internId
            ? ['vault', 'vaultIntern', 'cursor', 'global']
            : ['vault', 'cursor', 'global'],
    );
  }, [setScopes, mode.kind, internId, filter.editing]);
  useLayoutEffect(() => setCapture(mode.kind !== 'list' || filter.editing), [setCapture, mode.kind, filter.editing]);


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
    if (mode.kind !== 'list' || busy) return;
    if (filter.handleKey(input, key)) return;
    if (matches('cancel', input, key) && filter.applied !== '') return filter.clear();
    if (list.handle(input, key)) return;
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
      if (!editable && selected.scope !== 'intern') {
        return nav.flash(`${sanitize(selected.name)} is the ${selected.scope} scope's: change it there, or override it here (${keyLabel('secretAdd')})`);
      }
      return setMode(matches('secretDelete', input, key) ? { kind: 'delete', row: selected } : { kind: 'form', existing: selected });
    }
  }, active);

  const columns = internId && tab === 'effective' ? EFFECTIVE_COLUMNS : COLUMNS;
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
      </Text>
      {/* With the table: its line is counted in the table's height (around). */}
      {filter.shown && mode.kind !== 'form' && mode.kind !== 'copy' ? (
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
      {mode.kind === 'form' || mode.kind === 'copy' ? null : (
        <>
          <Table
            columns={columns}
            rows={rows}
            fitRows={loadedRows}
            rowKey={rowKeyOf}
            marks={(r) => marks.get(rowKeyOf(r))}
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
