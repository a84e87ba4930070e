/**
 * A bulk action in a list's place: the rows it acts on (skipped ones with why), one question (y/n,
 * or the count typed for a delete), then each row's progress, and at the end the failures first,
 * each with its reason. Only the rows that fit are drawn, however many are marked; j/k scroll.
 * Each row's state has a glyph of its own, so it reads under NO_COLOR too.
 */
import { Box } from 'ink';
import { useMemo, useState } from 'react';
import type { Bulk } from '../hooks/useBulk.js';
import { useKeys } from '../hooks/useKeys.js';
import { keyLabel, matches } from '../keymap.js';
import { type BulkRow, type BulkState, countStates, planRows } from '../state/bulk.js';
import { counted } from '../format.js';
import { pad } from '../../text.js';
import { theme } from '../theme.js';
import { Confirm } from './Confirm.js';
import { Text } from './Text.js';
import { TextField } from './TextField.js';

export const BULK_GLYPHS: Record<BulkState, string> = { pending: '·', running: '…', done: '✓', failed: '✖', skipped: '–', stopped: '○' };
const TONE: Partial<Record<BulkState, string>> = { running: theme.accent, done: theme.success, failed: theme.error, skipped: theme.muted, stopped: theme.muted };
/** At the end, what needs reading first. */
const END_ORDER: Record<BulkState, number> = { failed: 0, stopped: 1, skipped: 2, running: 3, pending: 3, done: 4 };

export function BulkPanel({ bulk, height, width, active }: { bulk: Bulk; height: number; width: number; active: boolean }) {
  const { ask, progress, phase } = bulk;
  const [typed, setTyped] = useState<{ text: string; mismatch: boolean }>({ text: '', mismatch: false });
  const [scrolled, setScrolled] = useState<number | null>(null);
  const planned = useMemo(() => (ask ? planRows(ask.plan) : []), [ask]);
  const rows = useMemo(() => {
    const now = progress?.rows ?? planned;
    return phase === 'done' ? [...now].sort((a, b) => END_ORDER[a.state] - END_ORDER[b.state]) : now;
  }, [progress, planned, phase]);
  const counts = progress?.counts ?? countStates(planned);
  const toSend = countStates(planned).pending;
  // The title, the question (a typed one takes three rows) and the "more" line.
  const around = 1 + (phase === 'confirm' ? (ask?.typeCount ? 4 : 1) : 0) + 1;
  const shown = Math.max(1, height - around);
  const maxTop = Math.max(0, rows.length - shown);
  // While it runs, the window follows the rows under way, unless it was scrolled.
  const following = phase === 'running' ? Math.max(0, rows.findIndex((r) => r.state === 'running' || r.state === 'pending') - 1) : 0;
  const top = Math.min(maxTop, scrolled ?? following);

  useKeys((input, key) => {
    if (!ask) return;
    const scroll = (to: number) => setScrolled(Math.max(0, Math.min(maxTop, to)));
    if (phase === 'confirm' && ask.typeCount) {
      if (matches('dismiss', input, key)) return bulk.close();
      if (matches('accept', input, key)) return typed.text.trim() === String(toSend) ? bulk.start() : setTyped({ ...typed, mismatch: true });
      return;
    }
    if (matches('down', input, key)) return scroll(top + 1);
    if (matches('up', input, key)) return scroll(top - 1);
    if (matches('pageDown', input, key)) return scroll(top + shown);
    if (matches('pageUp', input, key)) return scroll(top - shown);
    if (matches('top', input, key)) return scroll(0);
    if (matches('bottom', input, key)) return scroll(maxTop);
    if (phase === 'running' && matches('bulkStop', input, key)) return bulk.stop();
    if (phase === 'done' && matches('bulkClose', input, key)) return bulk.close();
  }, active && ask !== null);

  if (!ask || !phase) return null;
  const n = rows.length;
  const { verb, doing, done } = ask.words;
  const title =
    phase === 'confirm'
      ? `${verb} ${counted(toSend, ask.noun)}?${counts.skipped ? ` (${counts.skipped} of the ${n} marked skipped: see why below)` : ''}`
      : phase === 'running'
        ? `${doing} ${counted(toSend, ask.noun)}: ${counts.done} done${counts.failed ? `, ${counts.failed} failed` : ''}, ${counts.running + counts.pending} to go${progress?.stopping ? ` · stopping (those under way finish)` : ''}`
        : `${counts.done} of ${counted(toSend, ask.noun)} ${done}${counts.failed ? `; ${counts.failed} failed (listed first, still marked)` : ''}${counts.stopped ? `; ${counts.stopped} not started` : ''}`;
  const question = `${verb} ${counted(toSend, ask.noun)}?`;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end" color={phase === 'done' && counts.failed ? theme.error : undefined}>
        {title}
      </Text>
      {rows.slice(top, top + shown).map((r) => (
        <BulkLine key={r.id} row={r} width={width} />
      ))}
      <Text color={theme.muted} wrap="truncate-end">
        {n > shown ? `  rows ${top + 1}-${Math.min(n, top + shown)} of ${n} (${keyLabel('down')} scroll)` : ' '}
      </Text>
      {phase === 'confirm' && !ask.typeCount ? <Confirm open question={question} onAnswer={(yes) => (yes ? bulk.start() : bulk.close())} tone="warning" active={active} /> : null}
      {phase === 'confirm' && ask.typeCount ? (
        <Box flexDirection="column" borderStyle="round" borderColor={theme.error} paddingX={1} width={width}>
          <Text color={theme.error}>{`${question} This cannot be undone: type the count, ${toSend}.`}</Text>
          <TextField
            label="The count"
            labelWidth={11}
            value={typed.text}
            onChange={(text) => setTyped({ text, mismatch: false })}
            focused={active}
            error={typed.mismatch ? `that is not ${toSend}: nothing was sent` : null}
            note={`${keyLabel('accept')} ${verb.toLowerCase()}s · ${keyLabel('dismiss')} cancels`}
          />
        </Box>
      ) : null}
    </Box>
  );
}

function BulkLine({ row, width }: { row: BulkRow; width: number }) {
  const label = pad(row.label, Math.max(8, Math.min(30, Math.floor(width / 3))));
  return (
    <Text wrap="truncate-end">
      <Text color={TONE[row.state]}>{BULK_GLYPHS[row.state]}</Text> {label}
      {row.note ? <Text color={row.state === 'failed' ? theme.error : theme.muted}>{`  ${row.note}`}</Text> : null}
    </Text>
  );
}
