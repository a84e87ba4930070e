/**
 * The sandbox's state in SQLite (WAL). Name uniqueness per creator within a
 * workspace is a UNIQUE index, so the database, not the handler, decides races.
 */
import Database from 'better-sqlite3';
import type { Progress } from '../contract/intern.js';

export type KeyKind = 'api_key' | 'org_key' | 'intern_key' | 'management_key' | 'oauth_token';

export interface KeyRow {
  secret_hash: string;
  kind: KeyKind;
  user_id: string | null;
  account_id: string;
  workspace_id: string | null;
  intern_id: string | null;
  in_programme: number;
  lost_access: number;
  label: string;
}

/** What an intern runs with no model of its own in a workspace with no default (the service's router). */
export const DEFAULT_RUN_MODEL = 'openrouter/auto';

export interface InternRow {
  seq: number;
  id: string;
  workspace_id: string;
  creator_id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  model: string | null;
  active_model: string | null;
  status: string;
  last_failure_message: string | null;
  progress: string | null;
  hostname: string | null;
  vault_id: string | null;
  attached_vault_id: string | null;
  created_at: string;
  updated_at: string;
  icon: Buffer | null;
  icon_type: string | null;
  icon_sha256: string | null;
  moving: number;
}

/** A new intern's row: stopped, with no model, icon or vault of its own, unless `given` says otherwise. */
export function newInternRow(given: Pick<InternRow, 'id' | 'workspace_id' | 'creator_id' | 'name' | 'created_at'> & Partial<Omit<InternRow, 'seq'>>): Omit<InternRow, 'seq'> {
  return {
    description: null,
    instructions: null,
    model: null,
    active_model: null,
    status: 'stopped',
    last_failure_message: null,
    progress: null,
    hostname: null,
    vault_id: null,
    attached_vault_id: null,
    updated_at: given.created_at,
    icon: null,
    icon_type: null,
    icon_sha256: null,
    moving: 0,
    ...given,
  };
}

export interface ByokRow {
  id: string;
  account_id: string;
  workspace_id: string | null;
  provider: string;
  name: string | null;
  label: string;
  key_sealed: Buffer | null;
  allowed_api_key_hashes: string | null;
  allowed_models: string | null;
  allowed_user_ids: string | null;
  declared_region: string | null;
  declared_zdr: number | null;
  disabled: number;
  is_byok_only: number;
  is_fallback: number;
  is_required: number;
  sort_order: number;
  created_at: string;
  version: number;
}

/** A vault secret: `scope` is `workspace:<id>` or `intern:<id>`; the value is sealed, never stored in clear. */
export interface SecretRow {
  scope: string;
  name: string;
  hosts: string | null;
  value_sealed: Buffer | null;
  fingerprint: string | null;
  created_at: string;
}

export interface OAuthGrant {
  id: string;
  client_id: string;
  user_id: string;
  account_id: string;
  workspace_id: string | null;
  /** When its last token expires (ms since the epoch). */
  expires_at: number;
}

export interface ConnectionRow {
  intern_id: string;
  key: string;
  enabled: number;
  off_for_intern: number;
  hidden_for_intern: number;
  last_test_ok: number | null;
}

export interface WorkspaceRow {
  id: string;
  account_id: string;
  name: string;
  deleted: number;
  default_model: string | null;
  /** Absent in a database made before the column was. */
  created_at?: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, default_workspace_id TEXT);
CREATE TABLE IF NOT EXISTS workspaces (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, name TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, default_model TEXT, created_at TEXT);
CREATE TABLE IF NOT EXISTS keys (
  secret_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id TEXT, account_id TEXT NOT NULL,
  workspace_id TEXT, intern_id TEXT, in_programme INTEGER NOT NULL DEFAULT 1, lost_access INTEGER NOT NULL DEFAULT 0,
  label TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS key_expiry (secret_hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
DROP TABLE IF EXISTS oauth_refresh;
CREATE TABLE IF NOT EXISTS oauth_grants (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, account_id TEXT NOT NULL, workspace_id TEXT,
  expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_grant_tokens (
  hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, kind TEXT NOT NULL, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS oauth_grant_tokens_by_grant ON oauth_grant_tokens (grant_id);
CREATE TRIGGER IF NOT EXISTS oauth_grant_revoked AFTER DELETE ON oauth_grants BEGIN
  DELETE FROM keys WHERE secret_hash IN (SELECT hash FROM oauth_grant_tokens WHERE grant_id = OLD.id AND kind = 'access');
  DELETE FROM key_expiry WHERE secret_hash IN (SELECT hash FROM oauth_grant_tokens WHERE grant_id = OLD.id AND kind = 'access');
  DELETE FROM oauth_grant_tokens WHERE grant_id = OLD.id;
END;
CREATE TABLE IF NOT EXISTS account_key_hashes (hash TEXT PRIMARY KEY, account_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS interns (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, workspace_id TEXT NOT NULL, creator_id TEXT NOT NULL,
  name TEXT NOT NULL, description TEXT, instructions TEXT, model TEXT, active_model TEXT, status TEXT NOT NULL,
  last_failure_message TEXT, progress TEXT, hostname TEXT, vault_id TEXT, attached_vault_id TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, icon BLOB, icon_type TEXT, icon_sha256 TEXT,
  moving INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX IF NOT EXISTS interns_name_per_creator ON interns (workspace_id, creator_id, name);
CREATE TABLE IF NOT EXISTS connections (
  intern_id TEXT NOT NULL, key TEXT NOT NULL, enabled INTEGER NOT NULL DEFAULT 1,
  off_for_intern INTEGER NOT NULL DEFAULT 0, hidden_for_intern INTEGER NOT NULL DEFAULT 0, last_test_ok INTEGER,
  PRIMARY KEY (intern_id, key));
CREATE TABLE IF NOT EXISTS byok (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, workspace_id TEXT, provider TEXT NOT NULL, name TEXT, label TEXT NOT NULL,
  key_sealed BLOB, allowed_api_key_hashes TEXT, allowed_models TEXT, allowed_user_ids TEXT, declared_region TEXT,
  declared_zdr INTEGER, disabled INTEGER NOT NULL, is_byok_only INTEGER NOT NULL, is_fallback INTEGER NOT NULL,
  is_required INTEGER NOT NULL, sort_order INTEGER NOT NULL, created_at TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS vault_secrets (
  scope TEXT NOT NULL, name TEXT NOT NULL, hosts TEXT, value_sealed BLOB, fingerprint TEXT, created_at TEXT NOT NULL,
  PRIMARY KEY (scope, name));
CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY AUTOINCREMENT, caller TEXT NOT NULL, intern_id TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (key TEXT NOT NULL, caller TEXT NOT NULL, intern_id TEXT NOT NULL, PRIMARY KEY (key, caller));
`;

export class Store {
  readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    // Deleted BYOK key material is overwritten on disk, not left in free pages.
    this.db.pragma('secure_delete = ON');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  getMeta(k: string): string | undefined {
    return (this.db.prepare('SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined)?.v;
  }
  setMeta(k: string, v: string): void {
    this.db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v').run(k, v);
  }

  /** A key by the hash of its secret; a key past its expiry (OAuth access tokens) is not found. */
  keyByHash(hash: string, now = Date.now()): KeyRow | undefined {
    const row = this.db
      .prepare('SELECT k.*, e.expires_at AS expires_at FROM keys k LEFT JOIN key_expiry e ON e.secret_hash = k.secret_hash WHERE k.secret_hash = ?')
      .get(hash) as (KeyRow & { expires_at: number | null }) | undefined;
    if (!row || (row.expires_at !== null && row.expires_at <= now)) return undefined;
    const { expires_at: _e, ...key } = row;
    return key;
  }
  /** When a key expires (ms since the epoch), or undefined for one that does not. */
  keyExpiry(hash: string): number | undefined {
    return (this.db.prepare('SELECT expires_at FROM key_expiry WHERE secret_hash = ?').get(hash) as { expires_at: number } | undefined)?.expires_at;
  }
  setKeyExpiry(hash: string, expiresAt: number): void {
    this.db.prepare('INSERT OR REPLACE INTO key_expiry VALUES (?, ?)').run(hash, expiresAt);
  }
  /**
   * OAuth grants: one per authorization code redeemed, holding every access and refresh token issued
   * from it. Deleting a grant revokes them all, in one statement (the `oauth_grant_revoked` trigger).
   */
  insertGrant(row: OAuthGrant): void {
    this.db.prepare('INSERT INTO oauth_grants VALUES (@id, @client_id, @user_id, @account_id, @workspace_id, @expires_at)').run(row);
  }
  grant(id: string): OAuthGrant | undefined {
    return this.db.prepare('SELECT * FROM oauth_grants WHERE id = ?').get(id) as OAuthGrant | undefined;
  }
  /** Records a token of a grant (an access token's key row is inserted beside it); the grant lasts as long as its last token. */
  addGrantToken(grantId: string, kind: 'access' | 'refresh', hash: string, expiresAt: number): void {
    this.db.prepare('INSERT INTO oauth_grant_tokens (hash, grant_id, kind, expires_at) VALUES (?, ?, ?, ?)').run(hash, grantId, kind, expiresAt);
    this.db.prepare('UPDATE oauth_grants SET expires_at = MAX(expires_at, ?) WHERE id = ?').run(expiresAt, grantId);
  }
  /**
   * Spends a refresh token (rotation: each works once). `reused`: it was spent before, which only a
   * copy of it can explain; the caller revokes its grant. Undefined when unknown or expired.
   */
  useRefresh(hash: string, now = Date.now()): { grantId: string; reused: boolean } | undefined {
    const spent = this.db
      .prepare("UPDATE oauth_grant_tokens SET used = 1 WHERE hash = ? AND kind = 'refresh' AND used = 0 AND expires_at > ? RETURNING grant_id")
      .get(hash, now) as { grant_id: string } | undefined;
    if (spent) return { grantId: spent.grant_id, reused: false };
    const row = this.db.prepare("SELECT grant_id, used FROM oauth_grant_tokens WHERE hash = ? AND kind = 'refresh'").get(hash) as { grant_id: string; used: number } | undefined;
    return row?.used ? { grantId: row.grant_id, reused: true } : undefined;
  }
  /** The grant a refresh token belongs to, spent or not, without spending it. */
  refreshGrant(hash: string): string | undefined {
    return (this.db.prepare("SELECT grant_id FROM oauth_grant_tokens WHERE hash = ? AND kind = 'refresh'").get(hash) as { grant_id: string } | undefined)?.grant_id;
  }
  /** Revokes a grant: every access and refresh token issued from it stops working at once. */
  revokeGrant(id: string): void {
    this.db.prepare('DELETE FROM oauth_grants WHERE id = ?').run(id);
  }
  /** Forgets grants whose every token has expired (their spent refresh tokens can no longer be replayed to any effect). */
  purgeGrants(now = Date.now()): void {
    this.db.prepare('DELETE FROM oauth_grants WHERE expires_at <= ?').run(now);
  }
  insertKey(row: KeyRow): void {
    this.db
      .prepare(`INSERT INTO keys VALUES (@secret_hash, @kind, @user_id, @account_id, @workspace_id, @intern_id, @in_programme, @lost_access, @label)`)
      .run(row);
  }
  accountOwnsHash(accountId: string, hash: string): boolean {
    return this.db.prepare('SELECT 1 FROM account_key_hashes WHERE hash = ? AND account_id = ?').get(hash, accountId) !== undefined;
  }

  workspace(id: string): WorkspaceRow | undefined {
    return this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as never;
  }
  /** An account's live workspaces, oldest first (a database from before `created_at` has none: null). */
  workspacesPage(accountId: string, opts: { offset: number; limit: number }): { rows: WorkspaceRow[]; total: number } {
    const total = (this.db.prepare('SELECT COUNT(*) AS n FROM workspaces WHERE account_id = ? AND deleted = 0').get(accountId) as { n: number }).n;
    const rows = this.db.prepare('SELECT * FROM workspaces WHERE account_id = ? AND deleted = 0 ORDER BY rowid LIMIT ? OFFSET ?').all(accountId, opts.limit, opts.offset) as WorkspaceRow[];
    return { rows, total };
  }
  /**
   * The model an intern runs when provisioned now: its own, else its workspace's default. Kept as
   * `active_model` at provision, so that a change of either waits for the next provision (spec 3,
   * related rule 1), for an intern on the default too.
   */
  modelToRun(row: Pick<InternRow, 'model' | 'workspace_id'>): string {
    return row.model ?? this.workspace(row.workspace_id)?.default_model ?? DEFAULT_RUN_MODEL;
  }
  account(id: string): { id: string; default_workspace_id: string | null } | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as never;
  }

  intern(id: string): InternRow | undefined {
    return this.db.prepare('SELECT * FROM interns WHERE id = ?').get(id) as InternRow | undefined;
  }
  internsPage(workspaceId: string, opts: { statuses?: string[]; beforeSeq?: number; limit: number; onlyId?: string }): InternRow[] {
    const where = ['workspace_id = ?'];
    const args: unknown[] = [workspaceId];
    if (opts.statuses && opts.statuses.length > 0) {
      where.push(`status IN (${opts.statuses.map(() => '?').join(',')})`);
      args.push(...opts.statuses);
    }
    if (opts.beforeSeq !== undefined) {
      where.push('seq < ?');
      args.push(opts.beforeSeq);
    }
    if (opts.onlyId !== undefined) {
      where.push('id = ?');
      args.push(opts.onlyId);
    }
    args.push(opts.limit);
    return this.db.prepare(`SELECT * FROM interns WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`).all(...args) as InternRow[];
  }
  insertIntern(row: Omit<InternRow, 'seq'>): void {
    const cols = Object.keys(row);
    this.db.prepare(`INSERT INTO interns (${cols.join(',')}) VALUES (${cols.map((c) => '@' + c).join(',')})`).run(row);
  }
  updateIntern(id: string, fields: Partial<Omit<InternRow, 'seq' | 'id'>>): void {
    const cols = Object.keys(fields);
    if (cols.length === 0) return;
    this.db.prepare(`UPDATE interns SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }
  deleteIntern(id: string): void {
    this.db.prepare('DELETE FROM connections WHERE intern_id = ?').run(id);
    this.db.prepare("UPDATE vault_secrets SET value_sealed = zeroblob(length(value_sealed)) WHERE scope = ?").run(`intern:${id}`);
    this.db.prepare('DELETE FROM vault_secrets WHERE scope = ?').run(`intern:${id}`);
    this.db.prepare('DELETE FROM interns WHERE id = ?').run(id);
  }
  movingInterns(): InternRow[] {
    return this.db.prepare('SELECT * FROM interns WHERE moving = 1').all() as InternRow[];
  }

  connections(internId: string): ConnectionRow[] {
    return this.db.prepare('SELECT * FROM connections WHERE intern_id = ? ORDER BY rowid').all(internId) as ConnectionRow[];
  }
  insertConnection(row: ConnectionRow): void {
    this.db.prepare('INSERT INTO connections VALUES (@intern_id, @key, @enabled, @off_for_intern, @hidden_for_intern, @last_test_ok)').run(row);
  }

  byok(id: string): ByokRow | undefined {
    return this.db.prepare('SELECT * FROM byok WHERE id = ?').get(id) as ByokRow | undefined;
  }
  byokPage(accountId: string, opts: { workspaceId?: string; provider?: string; offset: number; limit: number }): { rows: ByokRow[]; total: number } {
    const where = ['account_id = ?'];
    const args: unknown[] = [accountId];
    if (opts.workspaceId) {
      where.push('workspace_id = ?');
      args.push(opts.workspaceId);
    }
    if (opts.provider) {
      where.push('provider = ?');
      args.push(opts.provider);
    }
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM byok WHERE ${where.join(' AND ')}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM byok WHERE ${where.join(' AND ')} ORDER BY provider, sort_order, created_at LIMIT ? OFFSET ?`)
      .all(...args, opts.limit, opts.offset) as ByokRow[];
    return { rows, total };
  }
  nextSortOrder(accountId: string, provider: string): number {
    const r = this.db.prepare('SELECT MAX(sort_order) AS m FROM byok WHERE account_id = ? AND provider = ?').get(accountId, provider) as { m: number | null };
    return r.m === null ? 0 : r.m + 1;
  }
  insertByok(row: ByokRow): void {
    const cols = Object.keys(row);
    this.db.prepare(`INSERT INTO byok (${cols.join(',')}) VALUES (${cols.map((c) => '@' + c).join(',')})`).run(row);
  }
  /** Writes only when the row still has `version`; answers false when another writer got there first. */
  updateByok(id: string, version: number, fields: Partial<ByokRow>): boolean {
    const cols = Object.keys(fields);
    const res = this.db
      .prepare(`UPDATE byok SET ${cols.map((c) => `${c} = @${c}`).join(', ')}, version = version + 1 WHERE id = @id AND version = @version`)
      .run({ ...fields, id, version });
    return res.changes === 1;
  }
  deleteByok(id: string): void {
    // Overwrite the sealed key material before the row goes, so no free page keeps it.
    this.db.prepare('UPDATE byok SET key_sealed = zeroblob(length(key_sealed)) WHERE id = ?').run(id);
    this.db.prepare('DELETE FROM byok WHERE id = ?').run(id);
  }

  secrets(scope: string, opts: { offset: number; limit: number }): { rows: SecretRow[]; hasMore: boolean } {
    const rows = this.db
      .prepare('SELECT * FROM vault_secrets WHERE scope = ? ORDER BY name LIMIT ? OFFSET ?')
      .all(scope, opts.limit + 1, opts.offset) as SecretRow[];
    return { rows: rows.slice(0, opts.limit), hasMore: rows.length > opts.limit };
  }
  /** Every secret of these scopes, ordered by name. */
  secretsOf(scopes: string[]): SecretRow[] {
    if (scopes.length === 0) return [];
    return this.db
      .prepare(`SELECT * FROM vault_secrets WHERE scope IN (${scopes.map(() => '?').join(',')}) ORDER BY name`)
      .all(...scopes) as SecretRow[];
  }
  secret(scope: string, name: string): SecretRow | undefined {
    return this.db.prepare('SELECT * FROM vault_secrets WHERE scope = ? AND name = ?').get(scope, name) as SecretRow | undefined;
  }
  /**
   * Creates or replaces, and answers the stored row. A replaced value is overwritten on disk
   * (secure_delete) before the new row lands; a replaced secret keeps its `created_at` (it was
   * created once; the row's `created_at` is used only when the name is new in the scope).
   */
  putSecret(row: SecretRow): SecretRow {
    return this.db
      .prepare(
        `INSERT INTO vault_secrets (scope, name, hosts, value_sealed, fingerprint, created_at) VALUES (@scope, @name, @hosts, @value_sealed, @fingerprint, @created_at)
         ON CONFLICT (scope, name) DO UPDATE SET hosts = excluded.hosts, value_sealed = excluded.value_sealed, fingerprint = excluded.fingerprint
         RETURNING *`,
      )
      .get(row) as SecretRow;
  }
  deleteSecret(scope: string, name: string): boolean {
    this.db.prepare('UPDATE vault_secrets SET value_sealed = zeroblob(length(value_sealed)) WHERE scope = ? AND name = ?').run(scope, name);
    return this.db.prepare('DELETE FROM vault_secrets WHERE scope = ? AND name = ?').run(scope, name).changes === 1;
  }
  internByVault(vaultId: string): InternRow | undefined {
    return this.db.prepare('SELECT * FROM interns WHERE vault_id = ?').get(vaultId) as InternRow | undefined;
  }

  recordReveal(caller: string, internId: string): void {
    this.db.prepare('INSERT INTO audit (caller, intern_id, at) VALUES (?, ?, ?)').run(caller, internId, new Date().toISOString());
  }
  audit(): { caller: string; intern_id: string; at: string }[] {
    return this.db.prepare('SELECT caller, intern_id, at FROM audit ORDER BY id').all() as never;
  }

  idempotent(key: string, caller: string): string | undefined {
    return (this.db.prepare('SELECT intern_id FROM idempotency WHERE key = ? AND caller = ?').get(key, caller) as { intern_id: string } | undefined)?.intern_id;
  }
  rememberIdempotent(key: string, caller: string, internId: string): void {
    this.db.prepare('INSERT OR IGNORE INTO idempotency VALUES (?, ?, ?)').run(key, caller, internId);
  }
}

export function parseProgress(s: string | null): Progress | null {
  return s === null ? null : (JSON.parse(s) as Progress);
}
