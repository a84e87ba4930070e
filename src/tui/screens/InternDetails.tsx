/** Every field of an intern, its icon and progress, and the lifecycle actions. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../client/errors.js';
import { TRANSITIONAL_STATUSES, type Intern } from '../../contract/intern.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { IconView } from '../components/IconView.js';
import { ProgressBar } from '../components/ProgressBar.js';
import { Spinner } from '../components/Spinner.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { TextField } from '../components/TextField.js';
import { useTui } from '../context.js';
import { relativeTime } from '../format.js';
import { useAction } from '../hooks/useAction.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { usePolling } from '../hooks/usePolling.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { type BindingId, keyLabel, matches } from '../keymap.js';
import { sanitize } from '../sanitize.js';
import { theme } from '../theme.js';

type Pending = { kind: 'suspend' } | { kind: 'delete'; typed: string; mismatch?: boolean } | null;

const notFound = (e: unknown) => e instanceof ApiError && e.status === 404;

export function InternDetails({ id, note, seed, ask }: { id: string; note?: string; seed?: Intern; ask?: 'suspend' | 'delete' }) {
  const { api, nav, active, options, size } = useTui();
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
  useScreen(pending ? (pending.kind === 'delete' ? ['prompt'] : ['confirm']) : gone ? ['global'] : ['intern', 'global'], pending !== null);

  usePolling(Boolean(intern && !gone && TRANSITIONAL_STATUSES.includes(intern.status)), async () => {
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
  }, 700, 5000);

  // An intern being deleted that the service no longer knows has been deleted: say so and go
  // back to the list, which loads afresh without it.
  useEffect(() => {
    if (!gone || !intern || (!deleteSent.current && intern.status !== 'destroying')) return;
    nav.flash(`deleted ${sanitize(intern.name)}`);
    nav.returnTo({ name: 'interns' });
  }, [gone, intern, nav]);


  useKeys((input, key) => {
    if (pending?.kind === 'delete') {
      if (matches('dismiss', input, key)) return setPending(null);
      if (matches('accept', input, key) && intern) {
        // A mismatch keeps the prompt open with what was typed, to be corrected.
        if (pending.typed !== intern.name) return setPending({ ...pending, mismatch: true });
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
    if (matches('edit', input, key)) return nav.push({ name: 'settings', id });
    if (matches('connections', input, key)) return nav.push({ name: 'connections', id });
    if (matches('attach', input, key)) return nav.push({ name: 'attach', intern });
    if (matches('chat', input, key)) return nav.push({ name: 'chat', id, seed: intern });
    if (matches('vault', input, key)) return nav.push({ name: 'vault', internId: id });
    if (matches('copyId', input, key)) return copy(id, `the id of ${sanitize(intern.name)}`);
    if (matches('provision', input, key)) return void act('provision', 'Provisioning', () => api.provisionIntern(id), `provisioning ${sanitize(intern.name)}`);
    if (matches('suspend', input, key)) return setPending({ kind: 'suspend' });
    if (matches('delete', input, key)) return setPending({ kind: 'delete', typed: '' });
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
  const wide = size.columns >= 100;
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Box>
        <IconView api={api} internId={intern.id} sha={intern.icon_sha256} cacheDir={options.iconCacheDir} />
        <Box flexDirection="column" marginLeft={2}>
          <Text bold>
            {sanitize(intern.name)} {intern.created_by_you ? <Text color={theme.accent}>★ yours</Text> : null}
          </Text>
          <StatusBadge status={intern.status} />
          {intern.progress ? <ProgressBar progress={intern.progress} /> : null}
          {intern.status === 'failed' && intern.last_failure_message ? (
            <Text color={theme.error} bold>
              ✖ {sanitize(intern.last_failure_message)}
            </Text>
          ) : null}
        </Box>
      </Box>
      {note ? <Text color={theme.warning}>{note}</Text> : null}
      {/* Prompts, progress of an action and its errors come first, so a short terminal never clips them. */}
      {busy ? <Spinner label={busy} /> : null}
      {actionError ? <ErrorView error={actionError} retry={retry} /> : null}
      {loadError ? <ErrorView error={loadError} compact /> : null}
      <Confirm open={pending?.kind === 'suspend'} question={`Suspend ${sanitize(intern.name)}? Its terminal sessions end.`} onAnswer={answerSuspend} active={active} />
      {pending?.kind === 'delete' ? (
        <Box flexDirection="column" borderStyle="round" borderColor={theme.error} paddingX={1}>
          <Text color={theme.error}>Delete {sanitize(intern.name)} and its workspace data? This cannot be undone.</Text>
          <TextField
            label="Type its name"
            labelWidth={16}
            value={pending.typed}
            onChange={(typed) => setPending({ kind: 'delete', typed })}
            focused
            error={pending.mismatch ? `that is not "${sanitize(intern.name)}": nothing was deleted` : null}
            note={`${keyLabel('accept')} deletes · ${keyLabel('dismiss')} cancels`}
          />
        </Box>
      ) : null}
      <Box flexDirection="column" marginTop={1}>
        <Field label="id" value={intern.id} />
        <Field label="model" value={intern.model ?? 'workspace default'} muted={!intern.model} />
        <Field label="hostname" value={intern.hostname ?? '— (assigned when provisioned)'} muted={!intern.hostname} />
        <Field label="workspace" value={intern.workspace_id} />
        <Field label="vault" value={intern.vault_id ?? '—'} muted={!intern.vault_id} />
        <Field label="attached vault" value={intern.attached_vault_id ?? '—'} muted={!intern.attached_vault_id} />
        <Field label="created" value={`${intern.created_at} (${relativeTime(intern.created_at)})`} />
        <Field label="updated" value={`${intern.updated_at} (${relativeTime(intern.updated_at)})`} />
        <Field label="icon sha256" value={intern.icon_sha256 ?? '— (no icon)'} muted={!intern.icon_sha256} />
        <Field label="description" value={intern.description ?? '—'} muted={!intern.description} />
        <InstructionsLabel text={intern.instructions} lines={wide ? 8 : 4} />
        <Box borderStyle="single" borderColor={theme.muted} paddingX={1} flexDirection="column">
          {intern.instructions ? <Instructions text={intern.instructions} lines={wide ? 8 : 4} /> : <Text color={theme.muted}>none</Text>}
        </Box>
      </Box>
    </Box>
  );
}

function Field({ label, value, muted = false }: { label: string; value: string; muted?: boolean }) {
  return (
    <Box>
      <Box width={16} flexShrink={0}>
        <Text color={theme.muted}>{label}</Text>
      </Box>
      <Text color={muted ? theme.muted : undefined} wrap="truncate-end">
        {sanitize(value)}
      </Text>
    </Box>
  );
}

export type { Intern };

/** The instructions' first lines (the box below the label; a short terminal may cut it). */
function Instructions({ text, lines }: { text: string; lines: number }) {
  return (
    <>
      {sanitize(text, { multiline: true })
        .split('\n')
        .slice(0, lines)
        .map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {line || ' '}
          </Text>
        ))}
    </>
  );
}

/** Above the box, so it is seen whenever any of the box is: how long the instructions are when the box shows only part, and where to read them all. */
function InstructionsLabel({ text, lines }: { text: string | null; lines: number }) {
  const count = text ? text.split('\n').length : 0;
  return (
    <Text color={theme.muted} wrap="truncate-end">
      instructions{count > lines ? ` (${count} lines, the first ${lines} below; ${keyLabel('edit')} shows them all)` : ''}:
    </Text>
  );
}
