/** Errors as the service sends them: the two envelopes of spec section 7, exactly. */
import type { ErrorFamily } from '../contract/routes.js';
import { RETRYABLE_REASONS, type Reason } from '../contract/errors.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** The reason for metadata; null for 401 and plain 403, which carry none. */
    readonly reason: Reason | null,
    message: string,
    /** Sent as `Retry-After` (seconds) when set: busy and rate_limited say when to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badBody = (message: string) => new HttpError(400, 'invalid_body', message);
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
export const unauthorized = (message = 'Missing or invalid authentication') => new HttpError(401, null, message);
export const forbidden = (message: string) => new HttpError(403, null, message);

/** The envelope for a family: intern routes get metadata where a reason applies; BYOK only code and message. */
export function envelope(family: ErrorFamily, err: HttpError): { error: Record<string, unknown> } {
  if (family === 'byok' || err.reason === null) return { error: { code: err.status, message: err.message } };
  return {
    error: { code: err.status, message: err.message, metadata: { reason: err.reason, retryable: RETRYABLE_REASONS.has(err.reason) } },
  };
}
