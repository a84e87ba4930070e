/** How long the chat waits: a busy or rate-limited answer retried by itself, and a turn long enough to signal its end. */
import { ApiError, RETRY_AFTER_MAX_MS } from '../../../client/errors.js';

/** Reasons the service answers while the intern cannot take a prompt yet; retried after Retry-After. */
const WAIT_REASONS = ['busy', 'rate_limited'];
export const DEFAULT_RETRY_MS = 2000;
/** A turn that went on this long without the person is signalled when it ends (issue 39). */
export const LONG_TURN_MS = 10_000;

/**
 * An answer to wait out and retry by itself (busy, rate limited), within the client's longest wait:
 * asked for longer (an hour), it is an error that says how long, as a command's is, rather than a
 * prompt that hangs silently.
 */
export function isWaitError(e: unknown): e is ApiError {
  return e instanceof ApiError && (WAIT_REASONS.includes(e.reason ?? '') || e.status === 429) && (e.retryAfterMs ?? 0) <= RETRY_AFTER_MAX_MS;
}

