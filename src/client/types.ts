/**
 * The client's public surface. The TUI depends on this interface only, so its
 * component tests can hand it a fake; `createClient` (client/index.ts) builds the real one.
 */
import type { ByokCreate, ByokCredential, ByokList, ByokListQuery, ByokUpdate } from '../contract/byok.js';
import type { ConnectionList, DaemonAccess, Intern, InternCreate, InternList, InternListQuery, InternUpdate } from '../contract/intern.js';
import type { AuthKeysRequest, AuthKeysResponse } from '../contract/auth.js';
import type { KeyInfo, Model, ProviderInfo } from '../contract/catalog.js';
import type { ChatChunk, ChatRequest, InvokeResult } from '../contract/chat.js';
import type { CredentialKind } from '../contract/routes.js';
import type { EffectiveSecretList, VaultListQuery, VaultSecret, VaultSecretList, VaultSecretWrite } from '../contract/vault.js';
import type { Workspace, WorkspaceList, WorkspaceListQuery } from '../contract/workspace.js';

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * At most this many attempts for this call, below the client's `maxAttempts` (a bulk action asks
   * for 2: one try and, only for what the service says may be tried again, one more).
   */
  maxAttempts?: number;
}

export interface Credentials {
  api_key?: string;
  management_key?: string;
  oauth_token?: string;
}

export interface ClientOptions {
  /** `https://openrouter.ai/api/v1`: includes the version prefix. */
  baseUrl: string;
  credentials: Credentials;
  /** Per-attempt timeout; default 15 s. */
  timeoutMs?: number;
  /** At most this many attempts for a retryable failure; default 3. */
  maxAttempts?: number;
  /** First backoff step; default 250 ms (exponential, with jitter, capped; Retry-After wins). */
  backoffBaseMs?: number;
  /** Largest response body read for a JSON route (success or error); default 8 MiB. Past it: ResponseTooLargeError. */
  maxResponseBytes?: number;
  /** Largest icon body read; default 16 MiB. */
  maxIconBytes?: number;
  /** A chat stream silent this long is given up as severed; default CHAT_SILENCE_MS (the service's keepalive comes every 30 s). */
  chatSilenceMs?: number;
  /** The most one chat stream may carry; default CHAT_STREAM_MAX_BYTES (64 MiB). Past it: StreamTooLongError. */
  chatStreamMaxBytes?: number;
  /**
   * Renews the OAuth access token (a refresh-token grant) when the service answers 401 to an OAuth
   * route; the request is then sent once more with the new token. Absent: a 401 is final.
   */
  renewOAuthToken?: () => Promise<string>;
}

export interface Icon {
  bytes: Uint8Array;
  contentType: string;
}

/** What a prompt started: the turn's event stream, or "steered" into the turn already running. */
export type ChatStart = { kind: 'stream'; events: AsyncIterable<ChatChunk> } | { kind: 'steered'; session_id: string };

export interface InternApi {
  readonly baseUrl: string;
  /** Which credential kinds are configured (never their values). */
  readonly configured: Readonly<Record<CredentialKind, boolean>>;

  listInterns(query?: InternListQuery, opts?: CallOptions): Promise<InternList>;
  getIntern(internId: string, opts?: CallOptions): Promise<Intern>;
  updateIntern(internId: string, patch: InternUpdate, opts?: CallOptions): Promise<Intern>;
  createIntern(body: InternCreate, opts?: CallOptions & { idempotencyKey?: string }): Promise<Intern>;
  deleteIntern(internId: string, opts?: CallOptions): Promise<void>;
  provisionIntern(internId: string, opts?: CallOptions): Promise<void>;
  suspendIntern(internId: string, opts?: CallOptions): Promise<void>;
  getInternIcon(internId: string, iconSha256?: string, opts?: CallOptions): Promise<Icon>;
  getDaemonAccess(internId: string, opts?: CallOptions): Promise<DaemonAccess>;
  listConnections(internId: string, opts?: CallOptions): Promise<ConnectionList>;

  listByok(query?: ByokListQuery, opts?: CallOptions): Promise<ByokList>;
  getByok(id: string, opts?: CallOptions): Promise<ByokCredential>;
  /** The account's workspaces (offset paging), for the BYOK list's workspace picker. */
  listWorkspaces(query?: WorkspaceListQuery, opts?: CallOptions): Promise<WorkspaceList>;
  getWorkspace(id: string, opts?: CallOptions): Promise<Workspace>;
  createByok(body: ByokCreate, opts?: CallOptions): Promise<ByokCredential>;
  updateByok(id: string, body: ByokUpdate, opts?: CallOptions): Promise<ByokCredential>;
  deleteByok(id: string, opts?: CallOptions): Promise<void>;

  listVaultSecrets(query?: VaultListQuery, opts?: CallOptions): Promise<VaultSecretList>;
  putVaultSecret(name: string, body: VaultSecretWrite, opts?: CallOptions): Promise<VaultSecret>;
  deleteVaultSecret(name: string, opts?: CallOptions): Promise<void>;
  listInternSecrets(internId: string, query?: VaultListQuery, opts?: CallOptions): Promise<VaultSecretList>;
  putInternSecret(internId: string, name: string, body: VaultSecretWrite, opts?: CallOptions): Promise<VaultSecret>;
  deleteInternSecret(internId: string, name: string, opts?: CallOptions): Promise<void>;
  /** Copies workspace secrets into the intern's own scope; answers the copies. */
  copySecretsToIntern(internId: string, names: string[], opts?: CallOptions): Promise<VaultSecret[]>;
  /** One entry per name: the winner in the order intern, attached vault, workspace. */
  listEffectiveSecrets(internId: string, query?: VaultListQuery, opts?: CallOptions): Promise<EffectiveSecretList>;

  /**
   * Sends a prompt (or an interaction's answer). Errors before the stream throw ApiError (with
   * `retryAfterMs` when the service sent Retry-After); aborting `opts.signal` closes the stream and
   * cancels the run. Never retried by the client.
   */
  chat(internId: string, body: ChatRequest, opts?: CallOptions): Promise<ChatStart>;
  /** Starts a self-drive run and returns at once. */
  invoke(internId: string, body: { input: string; session_id?: string }, opts?: CallOptions): Promise<InvokeResult>;

  listModels(opts?: CallOptions): Promise<Model[]>;
  listProviders(opts?: CallOptions): Promise<ProviderInfo[]>;
  /** The calling API key's own metadata: what "signed in as" shows. */
  getKeyInfo(opts?: CallOptions): Promise<KeyInfo>;
  /** A sign-in code and its PKCE verifier for a new API key; sends no credential. */
  exchangeAuthCode(body: AuthKeysRequest, opts?: CallOptions): Promise<AuthKeysResponse>;
}
