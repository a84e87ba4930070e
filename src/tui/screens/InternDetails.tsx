/** Every field of an intern, its icon and progress, and the lifecycle actions. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../client/errors.js';
import { FAILED_STATUSES, NO_MODEL, SUSPENDABLE_STATUSES, TRANSITIONAL_STATUSES, type Intern } from '../../contract/intern.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { IconView } from '../components/IconView.js';
import { ProgressBar } from '../components/ProgressBar.js';
import { Spinner } from '../components/Spinner.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { TextField, type TextFieldProps } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useTick } from '../hooks/useTick.js';
import { timeText, useExactTimes } from '../times.js';
import { useAction } from '../hooks/useAction.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { usePolling } from '../hooks/usePolling.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { internScopes, lifecycleRefusal } from '../lifecycle.js';
import { type BindingId, keyLabel, matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { firstLines, wrapText } from '../wrap.js';
import { ScrollBody } from '../components/ScrollBody.js';

type Pending = { kind: 'suspend' } | { kind: 'delete'; typed: string; mismatch?: boolean } | null;

const notFound = (e: unknown) => e instanceof ApiError && e.status === 404;

/** The icon beside the name, in cells. */
const ICON = { cols: 8, rows: 4 };
/**
 * The instructions' lines the details draw, at most: the body scrolls (ScrollBody), so they need no
 * room counted out of the pane, but Ink lays out every line drawn at every frame (the ages tick).
 * Past it the label says how many more there are, and `e` shows them all.
 */
const INSTRUCTION_LINES_MAX = 100;

export function InternDetails({ id, note, seed, ask }: { id: string; note?: string; seed?: Intern; ask?: 'suspend' | 'delete' }) {
  const { api, nav, active, options, pane } = useTui();
  // Its ages ("28s ago") move with the clock.
  useTick();
  // Times are how long ago, or exact after T.
  useExactTimes();
  const copy = useClipboard();
  const res = useResource((signal) => api.getIntern(id, { signal }), id, seed);
  const { busy, error: actionError, run } = useAction(res.reload);
  // A failed action is tried again with its own key (r only reloads): the error says which.
  const [retry, setRetry] = useState<BindingId>('refresh');
  const act = (binding: BindingId, ...args: Parameters<typeof run>) => {
    setRetry(binding);
    return run(...args);
  };
  // Remembered with the route, so that the list's D or s asks once: coming back here from a screen
  // opened after it does not ask again.
  const [pending, setPending] = useRemembered<Pending>('pending', ask === 'delete' ? { kind: 'delete', typed: '' } : ask === 'suspend' ? { kind: 'suspend' } : null);
  // The poll's last failure: its 404 is how a deletion ends, so it must not be lost in the backoff.
  const [pollError, setPollError] = useState<unknown>(undefined);
  const deleteSent = useRef(false);
  const intern = res.data;
  const loadError = pollError ?? res.error;
  // Seen before and now answered 404: what is left on screen describes nothing.
  const gone = intern !== undefined && notFound(loadError);

  // The typed-name confirmation explains its own keys; a y/n one lists them in the footer.
  // Any confirmation takes every key: a key that is not its answer must not act on the screen behind it.
  // The fields' scroll keys while they are cut (ScrollBody).
  const [cut, setCut] = useState(false);
  useScreen(pending ? (pending.kind === 'delete' ? ['prompt'] : ['confirm']) : gone ? ['global'] : [...internScopes(intern), ...(cut ? (['cursor'] as const) : []), 'global'], pending !== null);

  // Read again while it is shown: often while it moves on its own, now and then once settled (it
  // may be changed or deleted elsewhere: a screen that never looked again offered p on a deleted intern).
  const moving = Boolean(intern && TRANSITIONAL_STATUSES.includes(intern.status));
  usePolling(Boolean(intern && !gone), async () => {
    const before = JSON.stringify(res.data);
    try {
      const next = await api.getIntern(id);
      setPollError(undefined);
      res.set(next);
      return JSON.stringify(next) !== before;
    } catch (e) {
      setPollError(e);
      throw e;
    }
  }, moving ? 700 : 10_000, moving ? 5000 : 30_000);

  // An intern being deleted that the service no longer knows has been deleted: say so and go
  // back to the list, which loads afresh without it.
  useEffect(() => {
    if (!gone || !intern || (!deleteSent.current && intern.status !== 'destroying')) return;
    nav.returnTo({ name: 'interns' });
    nav.flash(`deleted ${sanitize(intern.name)}`);
  }, [gone, intern, nav]);


  useKeys((input, key) => {
    if (pending?.kind === 'delete') {
      if (matches('dismiss', input, key)) return setPending(null);
      if (matches('accept', input, key) && intern) {
        // A mismatch keeps the prompt open with what was typed, to be corrected. Spaces around the name
        // (a pasted line's end, which a one-line field keeps as a space) are not a mismatch: no name has one.
        if (pending.typed.trim() !== intern.name) return setPending({ ...pending, mismatch: true });
        setPending(null);
        deleteSent.current = true;
        void act('delete', 'Deleting', () => api.deleteIntern(id), `deleting ${sanitize(intern.name)}`);
      }
      return;
    }
    if (matches('refresh', input, key)) {
      setPollError(undefined);
      return res.reload();
    }
    if (!intern || busy || gone) return;
    if (matches('edit', input, key)) return nav.push({ name: 'settings', id, seed: intern });
    if (matches('connections', input, key)) return nav.push({ name: 'connections', id });
    if (matches('attach', input, key)) return nav.push({ name: 'attach', intern });
    if (matches('chat', input, key)) return nav.push({ name: 'chat', id, seed: intern });
    if (matches('split', input, key) && SUSPENDABLE_STATUSES.includes(intern.status)) return nav.push({ name: 'split', intern });
    if (matches('vault', input, key)) return nav.push({ name: 'vault', internId: id });
    if (matches('copyId', input, key)) return copy(id, `the id of ${sanitize(intern.name)}`);
    if (matches('provision', input, key) || matches('suspend', input, key)) {
      const action = matches('provision', input, key) ? 'provision' : 'suspend';
      const refused = lifecycleRefusal(action, intern);
      if (refused) return nav.flash(refused, 'error');
      if (action === 'suspend') return setPending({ kind: 'suspend' });
      return void act('provision', 'Provisioning', () => api.provisionIntern(id), `provisioning ${sanitize(intern.name)}`);
    }
    if (matches('delete', input, key)) {
      const refused = lifecycleRefusal('delete', intern);
      return refused ? nav.flash(refused, 'error') : setPending({ kind: 'delete', typed: '' });
    }
  }, active && pending?.kind !== 'suspend');

  const answerSuspend = (yes: boolean) => {
    setPending(null);
    if (yes && intern) void act('suspend', 'Suspending', () => api.suspendIntern(id), `suspended ${sanitize(intern.name)}`);
  };

  if (!intern) {
    return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading the intern" />;
  }
  if (gone) {
    return (
      <Box flexDirection="column" borderStyle="round" borderColor={theme.error} paddingX={1}>
        <Text color={theme.error} bold>
          ✖ This intern no longer exists
        </Text>
        <Text>
          {sanitize(intern.name)} ({sanitize(intern.id)}) was deleted, or this key can no longer see it.
        </Text>
        <Text color={theme.muted}>
          {keyLabel('back')}: back · {keyLabel('refresh')}: look again
        </Text>
      </Box>
    );
  }
  const headerWidth = Math.max(10, pane.columns - ICON.cols - 2);
  // A long failure gives up rows first: two under a question (a delete is asked of failed interns
  // most), a quarter of the pane otherwise; the last row shown ends in "…" when cut.
  const failureLines = FAILED_STATUSES.includes(intern.status) && intern.last_failure_message ? wrapText(`✖ ${sanitize(intern.last_failure_message)}`, headerWidth) : [];
  const failure = firstLines(failureLines, pending ? 2 : Math.max(2, Math.floor(pane.rows / 4)), headerWidth);
  // A question on a short pane takes the icon's rows: its box is what must show whole.
  const iconShown = !(pending && pane.rows < 16);
  const noteLines = note ? wrapText(note, pane.columns) : [];
  const suspendQuestion = `Suspend ${sanitize(intern.name)}? Its terminal sessions end.`;
  const deleteQuestion = wrapText(`Delete ${sanitize(intern.name)} and its workspace data? This cannot be undone.`, pane.columns - 4);
  const deleteField: TextFieldProps | null =
    pending?.kind === 'delete'
      ? {
          label: 'Type its name',
          labelWidth: 16,
          value: pending.typed,
          onChange: (typed) => setPending({ kind: 'delete', typed }),
          focused: true,
          error: pending.mismatch ? `that is not "${sanitize(intern.name)}": nothing was deleted` : null,
          note: `${keyLabel('accept')} deletes · ${keyLabel('dismiss')} cancels`,
        }
      : null;
  // A final line break ends the last line; it starts no line of its own.
  const instructionLines = intern.instructions ? sanitize(intern.instructions, { multiline: true }).replace(/\n$/, '').split('\n') : [];
  // One row each, cut at the pane's edge.
  const fields: [label: string, value: string, muted: boolean][] = [
    ['id', intern.id, false],
    ['model', intern.model ?? NO_MODEL, !intern.model],
    ['hostname', intern.hostname ?? '— (assigned when provisioned)', !intern.hostname],
    ['workspace', intern.workspace_id, false],
    ['vault', intern.vault_id ?? '—', !intern.vault_id],
    ['attached vault', intern.attached_vault_id ?? '—', !intern.attached_vault_id],
    ['created', timeText(intern.created_at), false],
    ['updated', timeText(intern.updated_at), false],
    ['icon sha256', intern.icon_sha256 ?? '— (no icon)', !intern.icon_sha256],
  ];
  const shown = Math.min(instructionLines.length, INSTRUCTION_LINES_MAX);
  const header = (
    <Box flexShrink={0}>
      {iconShown ? <IconView api={api} internId={intern.id} sha={intern.icon_sha256} cacheDir={options.iconCacheDir} cols={ICON.cols} rows={ICON.rows} /> : null}
      <Box flexDirection="column" marginLeft={iconShown ? 2 : 0}>
        <Text bold>
          {sanitize(intern.name)} {intern.created_by_you ? <Text color={theme.accent}>★ yours</Text> : null}
        </Text>
        <StatusBadge status={intern.status} />
        {intern.progress ? <ProgressBar progress={intern.progress} /> : null}
        {failure.map((line, i) => (
          <Text key={i} color={theme.error} bold>
            {line}
          </Text>
        ))}
      </Box>
    </Box>
  );
  const prompts = (
    <Box flexDirection="column" flexShrink={0}>
      {noteLines.map((line, i) => (
        <Text key={i} color={theme.warning}>
          {line}
        </Text>
      ))}
      {busy ? <Spinner label={busy} /> : null}
      {actionError ? <ErrorView error={actionError} retry={retry} /> : null}
      {loadError ? <ErrorView error={loadError} compact /> : null}
      <Confirm open={pending?.kind === 'suspend'} question={suspendQuestion} onAnswer={answerSuspend} active={active} />
      {deleteField ? (
        <Box flexDirection="column" borderStyle="round" borderColor={theme.error} paddingX={1}>
          {deleteQuestion.map((line, i) => (
            <Text key={i} color={theme.error}>
              {line}
            </Text>
          ))}
          <TextField {...deleteField} />
        </Box>
      ) : null}
    </Box>
  );
  // The pane's height: the name and what is asked keep their rows (a question above the name, so
  // that a short pane cuts the name before it), and the facts scroll in what is left (ScrollBody),
  // every one of them whole: the failure that the header cut, the description, the instructions.
  return (
    <Box flexDirection="column" height={pane.rows}>
      {pending ? prompts : header}
      {pending ? header : prompts}
      <ScrollBody active={active && pending === null} onCut={setCut}>
        <Box flexDirection="column" marginTop={1}>
          {fields.map(([label, value, muted]) => (
            <Field key={label} label={label} value={value} muted={muted} />
          ))}
          <Field label="description" value={intern.description ?? '—'} muted={!intern.description} wrapAt={pane.columns} />
          {failure.length < failureLines.length ? <Field label="last failure" value={intern.last_failure_message ?? ''} wrapAt={pane.columns} /> : null}
          <InstructionsLabel count={instructionLines.length} shown={shown} />
          {shown > 0 ? (
            <Box borderStyle="single" borderColor={theme.muted} paddingX={1} flexDirection="column">
              {instructionLines.slice(0, shown).map((line, i) => (
                <Text key={i} wrap="truncate-end">
                  {line || ' '}
                </Text>
              ))}
            </Box>
          ) : null}
        </Box>
      </ScrollBody>
    </Box>
  );
}

/**
 * A fact on a row: cut at the pane's edge, or (`wrapAt`: prose, the pane's width) wrapped under its
 * own start by words, each row trimmed (Ink's own wrapping starts a row with the space it broke at).
 */
function Field({ label, value, muted = false, wrapAt }: { label: string; value: string; muted?: boolean; wrapAt?: number }) {
  return (
    <Box>
      <Box width={16} flexShrink={0}>
        <Text color={theme.muted}>{label}</Text>
      </Box>
      <Text color={muted ? theme.muted : undefined} wrap="truncate-end">
        {wrapAt === undefined ? sanitize(value) : wrapText(sanitize(value), Math.max(10, wrapAt - 16)).join('\n')}
      </Text>
    </Box>
  );
}

export type { Intern };

/**
 * Above the box, so it is seen whenever any of the box is: how long the instructions are when the
 * box shows only part of them (or, on a pane with no room for the box, none), and where to read them all.
 */
function InstructionsLabel({ count, shown }: { count: number; shown: number }) {
  const all = `${keyLabel('edit')} shows them all`;
  const text = count === 0 ? 'instructions: none' : `instructions${count > shown ? ` (${count} lines, the first ${shown} below; ${all})` : ''}:`;
  return (
    <Text color={theme.muted} wrap="truncate-end">
      {text}
    </Text>
  );
}
