/**
 * Sign-in state: single-use codes (hashed, 10 minutes), the API keys they turn into, and the OAuth
 * authorization server's access and refresh tokens. Only hashes of codes and tokens are stored.
 */
import { AUTH_CODE_TTL_MS, type CodeChallengeMethod, codeChallenge } from '../contract/auth.js';
import { maskKey } from '../contract/byok.js';
import { randomToken, secretsEqual, sha256Hex } from './crypto.js';
import { DEMO_USER } from './fixtures.js';
import type { Store } from './store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_codes (
  code_hash TEXT PRIMARY KEY, purpose TEXT NOT NULL, challenge TEXT, method TEXT, redirect_uri TEXT, client_id TEXT,
  user_id TEXT NOT NULL, account_id TEXT NOT NULL, workspace_id TEXT, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_refresh (
  token_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, account_id TEXT NOT NULL,
  workspace_id TEXT, expires_at INTEGER NOT NULL);
`;

export type CodePurpose = 'key' | 'oauth';

interface CodeRow {
  code_hash: string;
  purpose: CodePurpose;
  challenge: string | null;
  method: CodeChallengeMethod | null;
  redirect_uri: string | null;
  client_id: string | null;
  user_id: string;
  account_id: string;
  workspace_id: string | null;
  expires_at: number;
}

/** Why an exchange failed; the routes turn it into their family's error. */
export class SignInRefused extends Error {
  constructor(
    readonly kind: 'invalid_grant' | 'invalid_request' | 'invalid_client',
    message: string,
  ) {
    super(message);
  }
}

export interface OAuthTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export interface SignInOptions {
  /** How long an OAuth access token lives; default one hour. */
  accessTokenTtlMs?: number;
  /** How long a refresh token lives; default 30 days. */
  refreshTokenTtlMs?: number;
}

export class SignIn {
  readonly accessTokenTtlMs: number;
  private readonly refreshTokenTtlMs: number;

  constructor(
    private readonly store: Store,
    options: SignInOptions = {},
  ) {
    this.accessTokenTtlMs = options.accessTokenTtlMs ?? 3_600_000;
    this.refreshTokenTtlMs = options.refreshTokenTtlMs ?? 30 * 86_400_000;
    store.db.exec(SCHEMA);
  }

  private now(): number {
    return this.store.nowMs();
  }

  /** The sandbox approves at once: a code for the demo user. */
  issueCode(f: { purpose: CodePurpose; challenge?: string; method?: CodeChallengeMethod; redirectUri?: string; clientId?: string }): string {
    const account = this.store.account(DEMO_USER.account_id);
    const code = randomToken(24);
    this.store.db
      .prepare('INSERT INTO auth_codes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        sha256Hex(code),
        f.purpose,
        f.challenge ?? null,
        f.challenge ? (f.method ?? 'plain') : null,
        f.redirectUri ?? null,
        f.clientId ?? null,
        DEMO_USER.user_id,
        DEMO_USER.account_id,
        account?.default_workspace_id ?? null,
        this.now() + AUTH_CODE_TTL_MS,
      );
    // Expired codes go as new ones come.
    this.store.db.prepare('DELETE FROM auth_codes WHERE expires_at <= ?').run(this.now());
    return code;
  }

  /**
   * Takes a code out (single use: any attempt burns it, so a wrong verifier cannot be retried),
   * and checks purpose, expiry and the PKCE verifier.
   */
  private redeem(code: string, purpose: CodePurpose, verifier: string | undefined, method: CodeChallengeMethod | undefined): CodeRow {
    const row = this.store.db.prepare('DELETE FROM auth_codes WHERE code_hash = ? RETURNING *').get(sha256Hex(code)) as CodeRow | undefined;
    if (!row || row.purpose !== purpose) throw new SignInRefused('invalid_grant', 'The code is unknown or was already used');
    if (row.expires_at <= this.now()) throw new SignInRefused('invalid_grant', 'The code has expired (codes are valid for 10 minutes)');
    if (row.challenge !== null) {
      if (!verifier) throw new SignInRefused('invalid_request', 'code_verifier is required for this code');
      if (method !== undefined && method !== row.method) {
        throw new SignInRefused('invalid_grant', `code_challenge_method ${method} does not match the sign-in request (${row.method})`);
      }
      if (!secretsEqual(codeChallenge(verifier, row.method ?? 'plain'), row.challenge)) {
        throw new SignInRefused('invalid_grant', 'code_verifier does not match the code challenge');
      }
    }
    return row;
  }

  /** `POST /auth/keys`: a new ordinary API key of the signed-in user. */
  exchangeForKey(code: string, verifier: string | undefined, method: CodeChallengeMethod | undefined): { key: string; user_id: string | null } {
    const row = this.redeem(code, 'key', verifier, method);
    const key = `sk-or-v1-${randomToken(24)}`;
    this.store.insertKey({
      secret_hash: sha256Hex(key),
      kind: 'api_key',
      user_id: row.user_id,
      account_id: row.account_id,
      workspace_id: row.workspace_id,
      intern_id: null,
      in_programme: 1,
      lost_access: 0,
      label: maskKey(key),
    });
    return { key, user_id: row.user_id };
  }

  /** Token endpoint, `authorization_code` grant (PKCE S256 required at authorize time). */
  exchangeForTokens(f: { code: string; verifier: string | undefined; redirectUri: string | undefined; clientId: string | undefined }): OAuthTokens {
    const row = this.redeem(f.code, 'oauth', f.verifier, undefined);
    if ((row.redirect_uri ?? undefined) !== f.redirectUri) throw new SignInRefused('invalid_grant', 'redirect_uri does not match the authorization request');
    if (row.client_id !== f.clientId) throw new SignInRefused('invalid_grant', 'client_id does not match the authorization request');
    return this.mintTokens(row.client_id ?? '', row);
  }

  /** Token endpoint, `refresh_token` grant: rotates the refresh token (the old one stops working). */
  refresh(token: string, clientId: string | undefined): OAuthTokens {
    const row = this.store.db.prepare('DELETE FROM oauth_refresh WHERE token_hash = ? RETURNING *').get(sha256Hex(token)) as
      | { client_id: string; user_id: string; account_id: string; workspace_id: string | null; expires_at: number }
      | undefined;
    if (!row || row.expires_at <= this.now()) throw new SignInRefused('invalid_grant', 'The refresh token is unknown, used or expired');
    if (clientId !== undefined && clientId !== row.client_id) throw new SignInRefused('invalid_grant', 'client_id does not match the refresh token');
    return this.mintTokens(row.client_id, row);
  }

  private mintTokens(clientId: string, who: { user_id: string; account_id: string; workspace_id: string | null }): OAuthTokens {
    const access = `oat-${randomToken(24)}`;
    const refresh = `ort-${randomToken(32)}`;
    const now = this.now();
    const tx = this.store.db.transaction(() => {
      this.store.insertKey({
        secret_hash: sha256Hex(access),
        kind: 'oauth_token',
        user_id: who.user_id,
        account_id: who.account_id,
        workspace_id: who.workspace_id,
        intern_id: null,
        in_programme: 1,
        lost_access: 0,
        label: maskKey(access),
      });
      this.store.db.prepare('INSERT INTO key_expiry VALUES (?, ?)').run(sha256Hex(access), now + this.accessTokenTtlMs);
      this.store.db
        .prepare('INSERT INTO oauth_refresh VALUES (?, ?, ?, ?, ?, ?)')
        .run(sha256Hex(refresh), clientId, who.user_id, who.account_id, who.workspace_id, now + this.refreshTokenTtlMs);
      // Expired access tokens and refresh tokens do not pile up.
      this.store.db.prepare('DELETE FROM keys WHERE secret_hash IN (SELECT secret_hash FROM key_expiry WHERE expires_at <= ?)').run(now);
      this.store.db.prepare('DELETE FROM key_expiry WHERE expires_at <= ?').run(now);
      this.store.db.prepare('DELETE FROM oauth_refresh WHERE expires_at <= ?').run(now);
    });
    tx();
    return { access_token: access, token_type: 'Bearer', expires_in: Math.ceil(this.accessTokenTtlMs / 1000), refresh_token: refresh };
  }
}
