/**
 * The attach screen. Before connecting it explains what is missing (an OAuth
 * token, a running intern) through Ink; once connected, an AttachSession owns
 * the screen and Ink's output is gated until detach.
 */
import { Box, useStdin, useStdout } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useRef, useState } from 'react';
import type { Recorder } from '../../attach/recorder.js';
import { AttachSession } from '../../attach/session.js';
import { WebSocketTransport } from '../../attach/transport.js';
import { ApiError } from '../../client/errors.js';
import type { InternApi } from '../../client/types.js';
import { FAILED_STATUSES, PROVISIONABLE_STATUSES, STARTING_STATUSES, type DaemonAccess, type Intern } from '../../contract/intern.js';
import { REASONS } from '../../contract/errors.js';
import { CREDENTIAL_SOURCES, loginCommand } from '../../contract/routes.js';
import { ErrorView, explain } from '../components/ErrorView.js';
import { ProgressBar } from '../components/ProgressBar.js';
import { Spinner } from '../components/Spinner.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { useKeys } from '../hooks/useKeys.js';
import { usePolling } from '../hooks/usePolling.js';
import { keyLabel, matches } from '../keymap.js';
import { screen } from '../output.js';
import { sanitize } from '../../text.js';
import { historyAction, historyHint } from '../rawKeys.js';
import { recordingProblem, startRecording } from '../state/recordings.js';
import { AFTER_ATTACH, osc52 } from '../terminal.js';
import { theme } from '../theme.js';

export interface AttachScreenProps {
  api: InternApi;
  intern: Intern;
  scrollback: number;
  /** Back to the intern's details (the detach key, or any key after the remote exited). */
  onDetach: () => void;
  /** Offered when the intern is stopped or failed: provisions it (throws what the service refused). */
  onProvision?: () => Promise<void>;
  /** Record the session into this folder (recorder.ts), and typed input too when `input`. */
  record?: { dir: string | null; input?: boolean };
  /** Said once the session ends (where the recording went, or why it could not be made). */
  onRecorded?: (message: string, kind: 'info' | 'error') => void;
}

type Phase =
  | { kind: 'checking' }
  | { kind: 'no-oauth' }
  | { kind: 'not-running'; intern: Intern }
  /**
   * On its way up, or just provisioned from here: read again until it runs, then attached. `from`
   * is the intern as a provision from here was sent (its status and last change, and when), until
   * it is seen to leave that status or change.
   */
  | { kind: 'waiting'; intern: Intern; from: ProvisionedFrom | null }
  | { kind: 'error'; error: unknown }
  | { kind: 'attached' };

type ProvisionedFrom = { status: string; updated_at: string; at: number };

/** How soon a starting intern is read again, at first and at most (it backs off while nothing changes). */
const WAIT_POLL_MS = 1000;
const WAIT_POLL_MAX_MS = 5000;
/** Failed reads in a row that end a wait with the last one's error. */
const WAIT_READ_FAILURES = 3;
/** How long an intern provisioned from here may stay as it was before the wait says how it is. */
const UNMOVED_MAX_MS = 30_000;

/**
 * Where an intern read while waiting leaves the screen: running, attach; on its way up, wait on;
 * just provisioned from here and not changed since (the service starts it in the background), wait
 * on, for a while; anything else is said as the not-running state is: failed again (a status it
 * was provisioned from, but a later change: it went up and failed between two reads), going away.
 */
function afterWaiting(fresh: Intern, from: ProvisionedFrom | null, now = Date.now()): Phase {
  if (fresh.status === 'running') return { kind: 'checking' };
  if (STARTING_STATUSES.includes(fresh.status)) return { kind: 'waiting', intern: fresh, from: null };
  if (from && fresh.status === from.status && fresh.updated_at === from.updated_at && now - from.at < UNMOVED_MAX_MS) return { kind: 'waiting', intern: fresh, from };
  return { kind: 'not-running', intern: fresh };
}

export function AttachScreen({ api, intern, scrollback, onDetach, onProvision, record, onRecorded }: AttachScreenProps) {
  const { internal_eventEmitter: inputEvents, setRawMode, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  const [phase, setPhase] = useState<Phase>(api.configured.oauth_token ? { kind: 'checking' } : { kind: 'no-oauth' });
  const access = useRef<DaemonAccess | null>(null);

  // Fetch daemon access; the token stays in this ref, in memory only. The service mints none for
  // an intern that is not running (409 intern_not_running): only then is the intern read again,
  // to say what state it is in, so a running intern attaches one round trip sooner.
  useEffect(() => {
    if (phase.kind !== 'checking') return;
    let live = true;
    (async () => {
      try {
        access.current = await api.getDaemonAccess(intern.id);
      } catch (error) {
        if (!(error instanceof ApiError && error.reason === REASONS.intern_not_running)) throw error;
        const fresh = await api.getIntern(intern.id);
        if (fresh.status !== 'running') return live && setPhase(afterWaiting(fresh, null));
        access.current = await api.getDaemonAccess(intern.id); // it has started since
      }
      if (live) setPhase({ kind: 'attached' });
    })().catch((error: unknown) => live && setPhase({ kind: 'error', error }));
    return () => {
      live = false;
    };
  }, [api, intern.id, phase.kind]);

  // Attached: the session draws; Ink is gated until detach.
  useEffect(() => {
    if (phase.kind !== 'attached') return;
    const real = process.stdout;
    const gate = screen.gate;
    if (gate) gate.suspended = true;
    // The intern gets the bytes as typed or pasted, not split into keys (set below).
    const keys = screen.keys;
    let done = false;
    const cols = stdout.columns || 80;
    const rows = stdout.rows || 24;
    let recorder: Recorder | undefined;
    if (record) {
      try {
        // The remote gets one row fewer than the screen (the status bar): the recording is its size.
        recorder = startRecording({ dir: record.dir, intern: intern.name, title: `intern ${sanitize(intern.name)}`, cols, rows: Math.max(1, rows - 1), input: record.input });
      } catch (e) {
        onRecorded?.(`not recording: ${recordingProblem(e)}`, 'error');
      }
    }
    const stopRecording = () => {
      if (!recorder) return;
      const r = recorder;
      recorder = undefined;
      void r.close().then(() => onRecorded?.(r.error ? `the recording stopped: ${recordingProblem(r.error)}` : `recorded to ${sanitize(r.path)}`, r.error ? 'error' : 'info'));
    };
    const detach = () => {
      if (done) return;
      done = true;
      session.dispose();
      stopRecording();
      real.write(AFTER_ATTACH);
      if (gate) gate.suspended = false;
      if (keys) keys.attached = null;
      onDetach();
    };
    const session = new AttachSession({
      title: `intern ${sanitize(intern.name)}`,
      cols,
      rows,
      scrollback,
      write: (s) => real.write(s),
      onDetach: detach,
      recorder,
      history: { action: historyAction, copy: (text) => real.write(osc52(text)), hint: historyHint() },
      makeTransport: (handlers, size) =>
        new WebSocketTransport({
          ...size,
          handlers,
          access: async (freshToken) => {
            if (freshToken || !access.current) access.current = await api.getDaemonAccess(intern.id);
            return access.current;
          },
        }),
    });
    const onInput = (chunk: string) => session.input(chunk);
    const onResize = () => session.resize(real.columns || 80, real.rows || 24);
    // No useInput is active while attached, so hold raw mode ourselves (Ink counts holders).
    if (isRawModeSupported) setRawMode(true);
    // Straight from the key splitter, ahead of Ink; through Ink's input events where there is no
    // splitter (component tests).
    if (keys) keys.attached = onInput;
    else inputEvents.on('input', onInput);
    real.on('resize', onResize);
    session.start();
    return () => {
      if (isRawModeSupported) setRawMode(false);
      if (keys) keys.attached = null;
      else inputEvents.off('input', onInput);
      real.off('resize', onResize);
      if (!done) {
        done = true;
        session.dispose();
        stopRecording();
        if (gate) gate.suspended = false;
      }
      access.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase.kind]);

  // A starting intern is read again until it runs, and then attached: pressing `a` on one just
  // provisioned opens its terminal once it is up, as `interns provision --wait` waits.
  // A read that fails ends the wait with its error when it says the intern is gone (404), or after
  // three failures in a row; r asks again from the start.
  const waiting = phase.kind === 'waiting' ? phase : null;
  const failedReads = useRef(0);
  usePolling(
    waiting !== null,
    async () => {
      if (!waiting) return false;
      let fresh: Intern;
      try {
        fresh = await api.getIntern(intern.id);
        failedReads.current = 0;
      } catch (error) {
        failedReads.current++;
        if ((error instanceof ApiError && error.status === 404) || failedReads.current >= WAIT_READ_FAILURES) {
          failedReads.current = 0;
          setPhase((now) => (now.kind === 'waiting' ? { kind: 'error', error } : now));
        }
        throw error;
      }
      const next = afterWaiting(fresh, waiting.from);
      const changed = next.kind !== 'waiting' || next.intern.status !== waiting.intern.status;
      setPhase((now) => (now.kind === 'waiting' ? next : now));
      return changed;
    },
    WAIT_POLL_MS,
    WAIT_POLL_MAX_MS,
  );

  const provision = (current: Intern) => {
    if (!onProvision) return;
    setPhase({ kind: 'waiting', intern: current, from: { status: current.status, updated_at: current.updated_at, at: Date.now() } });
    // Refused, it is said, unless the wait has moved on meanwhile (a slow refusal must not end a
    // session that attached). Refused as busy (provisioned by someone else at the same moment),
    // the wait goes on and reads what it became.
    onProvision().catch((error: unknown) => {
      const busy = error instanceof ApiError && error.reason === REASONS.intern_busy;
      setPhase((now) => (now.kind !== 'waiting' ? now : busy ? { ...now, from: null } : { kind: 'error', error }));
    });
  };

  useKeys((input, key) => {
    if (matches('detach', input, key)) return onDetach();
    if (phase.kind === 'not-running' && PROVISIONABLE_STATUSES.includes(phase.intern.status) && matches('attachProvision', input, key)) return provision(phase.intern);
    if (phase.kind === 'error' && matches('attachRetry', input, key)) return setPhase({ kind: 'checking' });
  }, phase.kind !== 'attached' && phase.kind !== 'checking');

  if (phase.kind === 'attached') return null;
  return (
    <Box flexDirection="column" padding={1}>
      <Text bold>Attach to {sanitize(intern.name)}</Text>
      {phase.kind === 'checking' ? <Spinner label="Asking for daemon access" /> : null}
      {phase.kind === 'no-oauth' ? (
        <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
          <Text color={theme.warning} bold>
            Attach needs an OAuth token
          </Text>
          <Text>Daemon access is personal: an API key cannot open an intern's terminal.</Text>
          <Text>
            Set {CREDENTIAL_SOURCES.oauth_token.env}, pass {CREDENTIAL_SOURCES.oauth_token.flag}, or run: {loginCommand('oauth_token')}
          </Text>
        </Box>
      ) : null}
      {phase.kind === 'not-running' ? (
        <Box flexDirection="column">
          <Text>
            {sanitize(phase.intern.name)} is not running: <StatusBadge status={phase.intern.status} />
            {FAILED_STATUSES.includes(phase.intern.status) && phase.intern.last_failure_message ? ` (${sanitize(phase.intern.last_failure_message)})` : ''}
          </Text>
          {PROVISIONABLE_STATUSES.includes(phase.intern.status) && onProvision ? (
            <Text color={theme.accent}>{keyLabel('attachProvision')} provisions it, and attaches once it is running.</Text>
          ) : null}
        </Box>
      ) : null}
      {phase.kind === 'waiting' ? (
        <Box flexDirection="column">
          <Text>
            {sanitize(phase.intern.name)} is not running yet: <StatusBadge status={phase.intern.status} />
          </Text>
          {phase.intern.progress ? <ProgressBar progress={phase.intern.progress} /> : null}
          <Spinner label="Attaching once it is running" />
        </Box>
      ) : null}
      {phase.kind === 'error' ? <ErrorView error={phase.error} retry="attachRetry" width={(stdout.columns || 80) - 2} /> : null}
      <Text color={theme.muted}>
        {/* r asks again after any error; the error view names it only for one that trying again may mend. */}
        esc back{phase.kind === 'error' && !explain(phase.error).retryable ? ` · ${keyLabel('attachRetry')} retry` : ''}
      </Text>
    </Box>
  );
}
