/**
 * Every number of the service contract (spec section 8 and the public notes), once.
 */
export const LIMITS = {
  /** PATCH /interns/{id} body; over it is 413. */
  requestBodyBytes: 1_048_576,
  name: { min: 2, max: 17 },
  description: { max: 2000 },
  instructions: { max: 100_000 },
  model: { min: 1, max: 200 },
  byokName: { max: 255 },
  allowedApiKeyHashes: { min: 1, max: 100 },
  allowedModels: { max: 100 },
  allowedUserIds: { max: 100 },
  internList: { minLimit: 1, maxLimit: 500 },
  byokList: { minLimit: 1, maxLimit: 100, defaultLimit: 50 },
  /** GET /workspaces (the public OpenAPI document): offset from 0, limit 1..100, 50 by default. */
  workspaceList: { minLimit: 1, maxLimit: 100, defaultLimit: 50 },
  /** GET /models (the public OpenAPI document): offset from 0, limit 1..1000, 500 when paging without one. */
  modelList: { minLimit: 1, maxLimit: 1000, defaultLimit: 500 },
  /** Vault secrets (public notes, "More operations"). */
  secretName: { min: 1, max: 255 },
  secretValue: { min: 1, max: 65_536 },
  secretHosts: { min: 1, max: 100 },
  /** A DNS name: at most 253 characters, labels of 1 to 63. */
  hostname: { max: 253, label: 63 },
  secretCopyNames: { min: 1, max: 100 },
  vaultList: { minLimit: 1, maxLimit: 100, defaultLimit: 100, maxOffset: 10_000 },
  /** Chat and invoke. */
  prompt: { max: 32_000 },
  sessionId: { min: 1, max: 256 },
  toolCallId: { min: 1, max: 128 },
  /** How long an interaction (permission request or question) waits for its answer. */
  interactionWaitMs: 300_000,
  /** A keepalive comment after this much silence on a chat stream. */
  chatKeepaliveMs: 30_000,
  /** Sign-in codes are single use and valid this long. */
  authCodeTtlMs: 600_000,
  /** Route deadline for the operations of 4.1 to 4.5. */
  routeDeadlineMs: 10_000,
} as const;

/**
 * The client's own cap, not the service's: the most one chat stream (a turn, or its part up to a
 * question) may carry, 64 MiB on the wire. The service's chunks are about 150-250 bytes for a few
 * tokens each, so this is some 300,000 chunks: hours of a fast model streaming without a pause, and
 * far more text than anyone reads in a terminal; a stream without end (a hostile or broken
 * service) reaches it in seconds. Memory does not depend on it (the reader's pace does: the CLI's
 * Output waits for `drain`); time and disk do. Past it the client closes the stream
 * (StreamTooLongError), which cancels the run.
 */
export const CHAT_STREAM_MAX_BYTES = 64 << 20;
