/** Error envelopes (spec 7) and the reasons the service gives. */
import * as z from 'zod';

export const REASONS = {
  invalid_body: 'invalid_body',
  not_found: 'not_found',
  timeout: 'timeout',
  name_taken: 'name_taken',
  intern_not_running: 'intern_not_running',
  intern_busy: 'intern_busy',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'unsupported_media_type',
  internal_error: 'internal_error',
  configuration_error: 'configuration_error',
  personal_identity_required: 'personal_identity_required',
  // Vault (public notes): writes answer 503 while they are disabled for the caller.
  vault_writes_disabled: 'vault_writes_disabled',
  // Chat and invoke (public notes, "More operations").
  bad_request: 'bad_request',
  interaction_unknown: 'interaction_unknown',
  interaction_not_pending: 'interaction_not_pending',
  intern_not_ready: 'intern_not_ready',
  busy: 'busy',
  attachment_failed: 'attachment_failed',
  rate_limited: 'rate_limited',
  intern_unreachable: 'intern_unreachable',
  intern_rejected: 'intern_rejected',
  turn_failed: 'turn_failed',
  stream_severed: 'stream_severed',
  run_ended: 'run_ended',
} as const;
export type Reason = (typeof REASONS)[keyof typeof REASONS];

/** Intern and connection routes: `code` is the HTTP status; metadata where the tables give a reason. */
export const InternErrorEnvelopeSchema = z.lazy(() => z.strictObject({
  error: z.strictObject({
    code: z.union([z.number().int(), z.string()]),
    message: z.string(),
    metadata: z.strictObject({ reason: z.string(), retryable: z.boolean() }).optional(),
  }),
}));
/** BYOK routes: only `code` and `message`. */
export const ByokErrorEnvelopeSchema = z.lazy(() => z.strictObject({
  error: z.strictObject({ code: z.union([z.number().int(), z.string()]), message: z.string() }),
}));
/** What a client accepts: either envelope, plus older deployments that put the reason in `code`. */
export const AnyErrorEnvelopeSchema = z.lazy(() => z.object({
  error: z.object({
    code: z.union([z.number(), z.string()]),
    message: z.string(),
    metadata: z.object({ reason: z.string(), retryable: z.boolean() }).partial().optional(),
  }),
}));
export type InternErrorEnvelope = z.infer<typeof InternErrorEnvelopeSchema>;

/** Which reasons the tables of section 7 mark retryable. */
export const RETRYABLE_REASONS: ReadonlySet<string> = new Set<Reason>([
  'timeout',
  'internal_error',
  'vault_writes_disabled',
  'busy',
  'rate_limited',
  'intern_unreachable',
  'stream_severed',
]);

/**
 * One readable sentence for a failed parse, naming each field and the rule it broke:
 * `name: must be at least 2 characters; extra: unknown field`.
 */
export function describeIssues(error: z.ZodError, maxIssues = 5): string {
  const parts = error.issues.slice(0, maxIssues).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
      return issue.keys.map((k) => `${at}${k}: unknown field`).join('; ');
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return `${field}: ${issue.message}`;
  });
  const more = error.issues.length > maxIssues ? ` (and ${error.issues.length - maxIssues} more)` : '';
  return parts.join('; ') + more;
}
