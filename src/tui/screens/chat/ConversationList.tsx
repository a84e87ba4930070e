/**
 * An intern's saved conversations (^g in the chat): when, title, turns, cost, the most recently
 * used first. enter continues one in the chat, r renames it, D deletes it (asked first). The list
 * is read from the state folder when the screen opens; a file skipped is said in the flash.
 */
import { Box } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { Intern } from '../../../contract/intern.js';
import { sanitize } from '../../../text.js';
import { Confirm } from '../../components/Confirm.js';
import { Table, type Column } from '../../components/Table.js';
import { Text } from '../../components/Text.js';
import { TextField } from '../../components/TextField.js';
import { useTui } from '../../context.js';
import { costText } from '../../format.js';
import { useKeys } from '../../hooks/useKeys.js';
import { useListCursor } from '../../hooks/useListCursor.js';
import { useScreen } from '../../hooks/useScreen.js';
import { useFollowRow, useSort } from '../../hooks/useSort.js';
import type { Ties } from '../../state/sort.js';
import { keyLabel, matches } from '../../keymap.js';
import { theme } from '../../theme.js';
import type { SavedConversation } from '../../state/conversations.js';
import { conversationOf } from '../chatModel.js';
import { chatStores, loadInto, savedId, startNew } from './saved.js';

const when = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const COLUMNS: Column<SavedConversation>[] = [
  { header: 'WHEN', width: 16, cell: (c) => when(c.updated), sort: { kind: 'time', by: (c) => c.updated, key: 'sortAge' } },
  { header: 'TURNS', width: 5, cell: (c) => String(c.turns), sort: { kind: 'number', by: (c) => c.turns, first: 'desc' } },
  { header: 'COST', width: 10, fit: true, cell: (c) => (c.cost === null ? '—' : costText(c.cost)), sort: { kind: 'number', by: (c) => c.cost, first: 'desc' } },
  { header: 'TITLE', grow: 1, min: 10, cell: (c) => c.title, sort: { kind: 'text', by: (c) => c.title, key: 'sortName' } },
];
const TIES: Ties<SavedConversation> = { name: (c) => c.title, id: (c) => c.id };

export function ConversationList({ id, seed }: { id: string; seed?: Intern }) {
  const { api, nav, active, pane, options } = useTui();
  const stores = useMemo(() => chatStores(options.stateDir, options.profile, options.host, api), [options.stateDir, options.profile, options.host, api]);
  const store = stores.conversations;
  const read = () => store?.list(id) ?? { conversations: [], problems: [] };
  const [listed, setListed] = useState(read);
  const sort = useSort('conversations', COLUMNS, TIES, listed.conversations);
  const rows = sort.rows;
  const cursor = useListCursor(rows.length, Math.max(1, pane.rows - 4), 'conversations');
  useFollowRow(sort.spec, rows, cursor.index, cursor.setIndex, TIES.id);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const selected = rows[cursor.index];
  const convo = conversationOf(api, id);
  const open = savedId(convo);
  const columns = useMemo(() => COLUMNS.map((c) => (c.header === 'TITLE' ? { ...c, cell: (r: SavedConversation) => `${r.id === open ? '● ' : ''}${r.title}` } : c)), [open]);

  useEffect(() => {
    const problems = listed.problems;
    if (problems.length) nav.flash(`${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, 'error');
    // Said once, for the list as it was read on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useScreen(renaming !== null ? ['prompt', 'text'] : deleting ? ['confirm'] : ['chatSessions', 'cursor', 'sortable'], true);

  const resume = (chosen: SavedConversation) => {
    if (!store) return;
    loadInto(convo, store, chosen);
    nav.flash(`continuing "${chosen.title}"`);
    nav.pop();
  };
  useKeys((ch, key) => {
    if (!store) return;
    if (cursor.handle(ch, key)) return;
    if (sort.handleKey(ch, key)) return;
    if (matches('conversationsBack', ch, key)) return nav.pop();
    if (!selected) return;
    if (matches('resumeConversation', ch, key)) return resume(selected);
    if (matches('renameConversation', ch, key)) return setRenaming(selected.title);
    if (matches('deleteConversation', ch, key)) return setDeleting(true);
  }, active && renaming === null && !deleting);

  useKeys((ch, key) => {
    if (matches('dismiss', ch, key)) setRenaming(null);
  }, active && renaming !== null);

  const rename = (title: string) => {
    if (!selected || !store) return;
    if (title.trim() === '') return nav.flash('a title needs a word or two', 'error');
    const log = store.continue(selected);
    log.rename(title);
    const problem = log.takeProblem();
    if (problem) nav.flash(problem, 'error');
    setRenaming(null);
    setListed(read());
  };

  const remove = (yes: boolean) => {
    setDeleting(false);
    if (!yes || !selected || !store) return;
    store.remove(id, selected.id);
    // The chat that showed it starts afresh (its file is gone: nothing could be saved into it).
    if (open === selected.id) startNew(convo);
    nav.flash(`deleted "${selected.title}"`);
    setListed(read());
  };

  const name = sanitize(seed?.name ?? id);
  if (!store) return <Text color={theme.muted}>No state folder (HOME or XDG_STATE_HOME): conversations are not saved.</Text>;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        Conversations with {name}
        <Text color={theme.muted}> · {rows.length} saved{open ? ' · ● open in the chat' : ''}</Text>
      </Text>
      <Table
        columns={columns}
        rows={rows}
        sort={sort.spec}
        rowKey={(c) => c.id}
        selected={cursor.index}
        onSelect={renaming === null && !deleting ? cursor.setIndex : undefined}
        onOpen={(i) => rows[i] && resume(rows[i])}
        height={Math.max(1, pane.rows - 3)}
        width={pane.columns}
        empty={`No saved conversations with ${name} yet: a prompt in the chat starts one (${keyLabel('conversationsBack')} goes back).`}
      />
      {renaming !== null ? (
        <TextField label="title" labelWidth={7} value={renaming} onChange={setRenaming} onSubmit={rename} focused={active} />
      ) : null}
      <Confirm open={deleting} question={`Delete "${selected?.title ?? ''}" for good?`} onAnswer={remove} tone="error" active={active} />
    </Box>
  );
}
