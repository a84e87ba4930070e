/**
 * `:replay`: the attach recordings in the state folder, newest first, with the intern, when it
 * began, its length and size. enter plays one (full screen, PlayRecording), D deletes it after a
 * question. The files' first and last lines only are read (recordings.ts).
 */
import { Box } from 'ink';
import { useMemo, useState } from 'react';
import { clock } from '../../attach/asciicast.js';
import { Confirm, confirmRows } from '../components/Confirm.js';
import { type Column, Table } from '../components/Table.js';
import { Text } from '../components/Text.js';
import { useTui } from '../context.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { useScreen } from '../hooks/useScreen.js';
import { useFollowRow, useSort } from '../hooks/useSort.js';
import type { Ties } from '../state/sort.js';
import { keyLabel, matches } from '../keymap.js';
import { deleteRecording, listRecordings, type RecordingEntry } from '../state/recordings.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';

/** 1.2 MB, 340 KB, 12 B. */
export function sizeText(bytes: number): string {
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MB`;
  if (bytes >= 1 << 10) return `${Math.round(bytes / (1 << 10))} KB`;
  return `${bytes} B`;
}

const COLUMNS: Column<RecordingEntry>[] = [
  { header: 'INTERN', min: 10, cell: (r) => sanitize(r.intern), sort: { kind: 'text', by: (r) => r.intern, key: 'sortName' } },
  { header: 'BEGAN (UTC)', width: 17, cell: (r) => (r.started === null ? '—' : new Date(r.started).toISOString().slice(0, 16).replace('T', ' ')), sort: { kind: 'time', by: (r) => r.started, key: 'sortAge' } },
  { header: 'LENGTH', width: 8, cell: (r) => (r.problem ? '—' : clock(r.length)), sort: { kind: 'number', by: (r) => (r.problem ? null : r.length), first: 'desc' } },
  { header: 'SIZE', width: 8, cell: (r) => sizeText(r.bytes), sort: { kind: 'number', by: (r) => r.bytes, first: 'desc' } },
  { header: 'NOTE', min: 6, cell: (r) => sanitize(r.problem ?? ''), sort: { kind: 'text', by: (r) => r.problem } },
];
const TIES: Ties<RecordingEntry> = { name: (r) => r.intern, id: (r) => r.path };

export function Recordings() {
  const { nav, active, pane, options } = useTui();
  const dir = options.recordingsDir ?? null;
  const [serial, setSerial] = useState(0);
  const listed = useMemo(() => {
    if (dir === null) return { rows: [], error: 'no state folder (set HOME or XDG_STATE_HOME): nothing is recorded' };
    try {
      return { rows: listRecordings(dir), error: null };
    } catch (e) {
      return { rows: [], error: `cannot read ${sanitize(dir)}: ${sanitize((e as Error).message)}` };
    }
    // serial: read again after a delete or a refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dir, serial]);
  const [asking, setAsking] = useState<RecordingEntry | null>(null);
  const question = asking ? `Delete the recording ${sanitize(asking.file)}?` : '';
  const height = Math.max(3, pane.rows - 3 - (question ? confirmRows(question, pane.columns) : 0));
  const sort = useSort('recordings', COLUMNS, TIES, listed.rows);
  const list = useListCursor(sort.rows.length, height);
  useFollowRow(sort.spec, sort.rows, list.index, list.setIndex, TIES.id);
  useScreen(asking ? ['confirm'] : ['recordings', 'list', 'global', 'sortable']);
  const selected = sort.rows[list.index];

  const open = (entry: RecordingEntry) => {
    if (entry.problem) return nav.flash(`${sanitize(entry.file)}: ${sanitize(entry.problem)}`, 'error');
    nav.push({ name: 'recording', path: entry.path, title: entry.intern });
  };
  useKeys((input, key) => {
    if (list.handle(input, key)) return;
    if (sort.handleKey(input, key)) return;
    if (matches('refresh', input, key)) return setSerial((n) => n + 1);
    if (!selected) return;
    if (matches('open', input, key)) return open(selected);
    if (matches('recordingDelete', input, key)) return setAsking(selected);
  }, active && asking === null);

  const answer = (yes: boolean) => {
    const entry = asking;
    setAsking(null);
    if (!yes || !entry) return;
    try {
      deleteRecording(entry.path);
      nav.flash(`deleted ${sanitize(entry.file)}`);
    } catch (e) {
      nav.flash(`could not delete ${sanitize(entry.file)}: ${sanitize((e as Error).message)}`, 'error');
    }
    setSerial((n) => n + 1);
  };

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold wrap="truncate-end">
        Recordings <Text color={theme.muted}>· {listed.rows.length} · {dir === null ? 'no folder' : sanitize(dir)} · {keyLabel('open')} plays</Text>
      </Text>
      {listed.error ? <Text color={theme.error}>{listed.error}</Text> : null}
      <Confirm open={asking !== null} question={question} onAnswer={answer} tone="error" active={active} />
      <Table
        columns={COLUMNS}
        rows={sort.rows}
        sort={sort.spec}
        rowKey={(r) => r.path}
        selected={list.index}
        onSelect={asking === null ? list.setIndex : undefined}
        onOpen={(i) => listed.rows[i] && open(listed.rows[i])}
        height={height}
        width={pane.columns - 2}
        loading={false}
        error={null}
        empty="No recordings yet: attach with --record (:attach NAME --record), or set record: always in the profile."
      />
    </Box>
  );
}
