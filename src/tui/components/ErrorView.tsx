/** One component renders every service error: the message, the reason, and what to do. */
import { Box } from 'ink';
import { Text } from './Text.js';
import { ApiError, MissingCredentialError, NetworkError, ResponseShapeError, explainCode, waitSeconds } from '../../client/errors.js';
import { CREDENTIAL_SOURCES, type CredentialKind, loginCommand } from '../../contract/routes.js';
import { type BindingId, keyLabel } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { useTui } from '../context.js';
import { firstLines, wrapText } from '../wrap.js';

export interface Explained {
  title: string;
  message: string;
  reason: string | null;
  /** What to do, or '' when trying again is all there is to it; never the key (the view names it). */
  hint: string;
  /** Whether trying again may help: the view then names the key that does. */
  retryable: boolean;
}

export function explain(error: unknown): Explained {
  if (error instanceof MissingCredentialError) {
    return {
      title: `No ${CREDENTIAL_SOURCES[error.kind].label} configured`,
      message: sanitize(error.message),
      reason: null,
      hint: `Set ${error.env}, pass ${error.flag}, or run: ${loginCommand(error.kind)}`,
      retryable: false,
    };
  }
  if (error instanceof ApiError) {
    const message = sanitize(error.message);
    const reason = error.reason === null ? null : sanitize(error.reason);
    const base = { message, reason, retryable: error.retryable };
    const kind = error.credential;
    const cred = kind && kind !== 'none' ? CREDENTIAL_SOURCES[kind] : null;
    switch (true) {
      case error.status === 401:
        return {
          ...base,
          title: 'Not authenticated',
          hint: cred ? `The ${cred.label} is missing or wrong: check ${cred.env} (or ${cred.flag}, or the profile).` : 'The credentials are missing or wrong: check the profile (intern-tui config show).',
        };
      case error.reason === 'personal_identity_required':
        return {
          ...base,
          title: 'Attach needs an OAuth token',
          hint: `Daemon access needs a personal identity. Set ${CREDENTIAL_SOURCES.oauth_token.env} or pass ${CREDENTIAL_SOURCES.oauth_token.flag}.`,
        };
      case error.status === 403:
        return { ...base, title: 'Forbidden', hint: 'The key owner may have lost access, a regional host may be in use, or this route needs another kind of key.' };
      case error.status === 404:
        return {
          ...base,
          title: 'Not found',
          hint: 'Not in the Intern API programme, not visible to this key, or already gone. Check the key and its workspace.',
        };
      case error.reason === 'name_taken':
        return { ...base, title: 'Name taken', hint: 'Another of your interns in this workspace has that name; choose another.' };
      case error.reason === 'intern_busy':
        return { ...base, title: 'The intern is busy', hint: 'Its current state does not allow this action; wait for it to settle and try again.' };
      case error.reason === 'intern_not_running':
        return { ...base, title: 'Not running', hint: 'Provision the intern (p) and attach when it is running.' };
      case error.status === 429 || error.reason === 'rate_limited':
        return {
          ...base,
          title: 'Rate limited',
          hint: `The service asks for fewer requests${error.retryAfterMs !== undefined ? `: wait ${waitSeconds(error.retryAfterMs)} s` : ''}.`,
          retryable: true,
        };
      case error.status === 408:
        return { ...base, title: 'Timed out', hint: 'The service took too long.', retryable: true };
      case error.status === 409:
        return { ...base, title: 'Conflict', hint: 'Someone changed this at the same time.', retryable: true };
      case error.status === 413:
        return { ...base, title: 'Too large', hint: 'The request body is over 1 MiB; shorten the long fields.' };
      case error.status >= 500 && error.reason === null && error.retryable:
        return { ...base, title: 'Service or proxy error', hint: 'Not the service\'s own error answer (a proxy\'s page, say); already retried with backoff.' };
      case error.status >= 500 && error.retryable:
        return { ...base, title: 'Service error', hint: 'A transient failure, already retried.' };
      case error.status >= 500:
        return { ...base, title: 'Service configuration error', hint: 'Retrying will not help; the service needs fixing.' };
      default:
        return { ...base, title: `Request failed (${error.status})`, hint: 'Check the values and try again.' };
    }
  }
  if (error instanceof NetworkError) {
    // The host and what happened, first: on one line at 80 columns the route template pushed them off.
    const where = error.host ?? 'the service';
    const what = error.timedOut ? `${where} did not answer in time (${error.route})` : `${where}: ${explainCode(error.cause_)} (${error.route})`;
    if (error.midAnswer) {
      return { title: 'Connection lost mid-answer', message: sanitize(what), reason: null, hint: 'The request reached the service and may have been done: look before doing it again.', retryable: true };
    }
    return { title: 'Cannot reach the service', message: sanitize(what), reason: null, hint: 'Check the base URL and the network.', retryable: true };
  }
  if (error instanceof ResponseShapeError) {
    return { title: 'Unexpected answer', message: sanitize(error.message), reason: null, hint: 'The service answered in a shape this version does not know.', retryable: true };
  }
  return { title: 'Something went wrong', message: sanitize(error instanceof Error ? error.message : String(error)), reason: null, hint: '', retryable: true };
}

/** A refused key's hint, said as where that key came from, when the CLI that started the TUI knows. */
function withRefusedFix(e: Explained, error: unknown, fixes: Partial<Record<CredentialKind, string>> | undefined): Explained {
  const kind = error instanceof ApiError && error.status === 401 ? error.credential : undefined;
  const fix = kind && kind !== 'none' ? fixes?.[kind] : undefined;
  return fix && kind && kind !== 'none' ? { ...e, hint: `The service refused the ${CREDENTIAL_SOURCES[kind].label}: ${fix}.` } : e;
}

/** The most rows an error's message takes in ErrorView (a third of the pane); the last one shown ends in "…" when it is cut. */
const messageLines = (paneRows: number) => Math.max(2, Math.floor(paneRows / 3));

/**
 * ErrorView's lines, wrapped as it draws them inside its border at `width` cells: the message cut
 * to `messageLines`, the reason and the hint whole. Drawn and counted from this one layout.
 */
function layout(e: Explained, width: number, paneRows: number): { dense: boolean; message: string[]; reason: string[]; hint: string[] } {
  // On a pane too short for a box (a 40x12 terminal), no border, and the reason on the title's row:
  // three rows that the key to try again would have given up.
  const dense = paneRows < DENSE_BELOW_ROWS;
  const inner = Math.max(10, dense ? width : width - 4);
  return {
    dense,
    message: firstLines(wrapText(e.message, inner), messageLines(paneRows), inner),
    reason: e.reason && !dense ? wrapText(`reason: ${e.reason}`, inner) : [],
    hint: e.hint ? wrapText(e.hint, inner) : [],
  };
}

/** A pane shorter than this draws an error without its box. */
const DENSE_BELOW_ROWS = 12;

/** The rows ErrorView takes at `width` cells on a pane of `paneRows`: its border, title, message, reason, hint and retry line, wrapped. */
export function errorViewRows(error: unknown, width: number, paneRows: number, fixes?: Partial<Record<CredentialKind, string>>): number {
  const e = withRefusedFix(explain(error), error, fixes);
  const l = layout(e, width, paneRows);
  return (l.dense ? 1 : 3) + l.message.length + l.reason.length + l.hint.length + (e.retryable ? 1 : 0);
}

/**
 * `retry` is the binding that tries again where the error is shown: refresh on a screen that
 * loads, save in a form, where r is a letter typed into a field. `width`: the cells it is drawn in
 * (the pane's, unless it sits inside a padding).
 */
export function ErrorView({ error, compact = false, retry = 'refresh', width }: { error: unknown; compact?: boolean; retry?: BindingId; width?: number }) {
  const { pane, options } = useTui();
  const e = withRefusedFix(explain(error), error, options.refusedFix);
  if (compact) {
    return (
      <Text color={theme.error} wrap="truncate-end">
        ✖ {e.title}: {e.message}
      </Text>
    );
  }
  // A message of a whole page gives up its end, not the reason, the hint and the key to try again.
  const l = layout(e, width ?? pane.columns, pane.rows);
  return (
    <Box flexDirection="column" flexShrink={0} {...(l.dense ? {} : { borderStyle: 'round' as const, borderColor: theme.error, paddingX: 1 })}>
      <Text color={theme.error} bold wrap="truncate-end">
        ✖ {e.title}
        {l.dense && e.reason ? <Text color={theme.muted}> ({e.reason})</Text> : null}
      </Text>
      <Text>{l.message.join('\n')}</Text>
      {l.reason.length > 0 ? <Text color={theme.muted}>{l.reason.join('\n')}</Text> : null}
      {/* The one place that names the key that tries again: the hints do not. Without the box (a
          short pane) it comes before the hint, which gives up its rows first. */}
      {l.dense && e.retryable ? <Text color={theme.muted}>{keyLabel(retry)}: try again</Text> : null}
      {l.hint.length > 0 ? <Text color={theme.warning}>{l.hint.join('\n')}</Text> : null}
      {!l.dense && e.retryable ? <Text color={theme.muted}>{keyLabel(retry)}: try again</Text> : null}
    </Box>
  );
}

/**
 * One line under a form drawn from what the previous screen had, when the fresh copy it asked for
 * could not be read (deleted meanwhile, a key revoked, the service down): the values may be old.
 */
export function StaleNote({ error }: { error: unknown }) {
  const e = explain(error);
  return (
    <Text color={theme.warning} wrap="truncate-end">
      ✖ the latest copy could not be read ({e.title}: {e.message}); these values are the ones the previous screen showed
    </Text>
  );
}
