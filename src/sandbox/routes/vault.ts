/**
 * Vault secrets (public notes, "More operations"): the workspace scope, each intern's own scope, copy,
 * and the effective view (intern, then the attached vault, then the workspace). Values are sealed at
 * rest and never leave: no response, log line or error carries one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES } from '../../contract/routes.js';
import {
  type EffectiveSecret,
  type SecretScope,
  type VaultSecret,
  VaultListQuerySchema,
  VaultSecretCopySchema,
  VaultSecretWriteSchema,
  checkSecretName,
  validateHosts,
} from '../../contract/vault.js';
import { type Caller, authorizeIntern } from '../auth.js';
import type { SecretBox } from '../crypto.js';
import { HttpError, badBody, notFound } from '../errors.js';
import { type HttpContext, jsonBody, route } from '../http.js';
import { now } from '../lifecycle.js';
import type { InternRow, SecretRow, Store } from '../store.js';
import { visibleIntern } from './interns.js';

export interface VaultDeps {
  store: Store;
  secrets: SecretBox;
  /** Vault writes can be switched off through the control API: writes then answer 503. */
  writesEnabled: () => boolean;
}

export const workspaceScope = (workspaceId: string) => `workspace:${workspaceId}`;
export const internScope = (internId: string) => `intern:${internId}`;

export function toSecret(row: SecretRow): VaultSecret {
  return { name: row.name, hosts: row.hosts === null ? null : (JSON.parse(row.hosts) as string[]), fingerprint: row.fingerprint, created_at: row.created_at };
}

export function registerVaultRoutes(app: FastifyInstance, ctx: HttpContext, deps: VaultDeps): void {
  const { store, secrets } = deps;
  const caller = (req: FastifyRequest) => authorizeIntern(store, req.headers.authorization, req.headers.host, ROUTES.listVaultSecrets.credential);
  const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';

  /** The workspace scope: not for an intern's own key, which sees only its intern. */
  const workspaceOf = (c: Caller): string => {
    if (c.key.kind === 'intern_key' || !c.key.workspace_id) throw notFound('Not found');
    return workspaceScope(c.key.workspace_id);
  };
  const secretName = (req: FastifyRequest): string => {
    const name = param(req, 'name');
    const problem = checkSecretName(name);
    if (problem) throw badBody(`name: ${problem}`);
    return name;
  };
  const page = (req: FastifyRequest) => {
    const q = VaultListQuerySchema.safeParse(req.query);
    if (!q.success) throw badBody(describeIssues(q.error));
    return { offset: q.data.offset ?? 0, limit: q.data.limit ?? LIMITS.vaultList.defaultLimit };
  };
  const writable = () => {
    if (!deps.writesEnabled()) throw new HttpError(503, 'vault_writes_disabled', 'Vault writes are disabled for this caller; try again later');
  };
  const write = (scope: string, name: string, req: FastifyRequest): VaultSecret => {
    const parsed = VaultSecretWriteSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    const hosts = validateHosts(parsed.data.hosts);
    if ('error' in hosts) throw badBody(`hosts: ${hosts.error}`);
    const row: SecretRow = {
      scope,
      name,
      hosts: JSON.stringify(hosts.hosts),
      value_sealed: secrets.seal(parsed.data.value),
      fingerprint: secrets.fingerprint(scope, parsed.data.value),
      created_at: now(),
    };
    return toSecret(store.putSecret(row));
  };
  const list = (scope: string, req: FastifyRequest) => {
    const { rows, hasMore } = store.secrets(scope, page(req));
    return { status: 200, body: { data: rows.map(toSecret), has_more: hasMore } };
  };
  const intern = (c: Caller, req: FastifyRequest): InternRow => visibleIntern(store, c, param(req, 'internId'));

  route(app, ctx, ROUTES.listVaultSecrets, (req) => list(workspaceOf(caller(req)), req));
  route(app, ctx, ROUTES.putVaultSecret, (req) => {
    const scope = workspaceOf(caller(req));
    const name = secretName(req);
    writable();
    return { status: 200, body: { data: write(scope, name, req) } };
  });
  route(app, ctx, ROUTES.deleteVaultSecret, (req) => {
    const scope = workspaceOf(caller(req));
    const name = secretName(req);
    writable();
    if (!store.deleteSecret(scope, name)) throw notFound(`No workspace secret named ${name}`);
    return { status: 204 };
  });

  route(app, ctx, ROUTES.listInternSecrets, (req) => list(internScope(intern(caller(req), req).id), req));
  route(app, ctx, ROUTES.putInternSecret, (req) => {
    const row = intern(caller(req), req);
    const name = secretName(req);
    writable();
    return { status: 200, body: { data: write(internScope(row.id), name, req) } };
  });
  route(app, ctx, ROUTES.deleteInternSecret, (req) => {
    const row = intern(caller(req), req);
    const name = secretName(req);
    writable();
    if (!store.deleteSecret(internScope(row.id), name)) throw notFound(`No secret named ${name} in this intern's vault`);
    return { status: 204 };
  });

  route(app, ctx, ROUTES.copySecretsToIntern, (req) => {
    const c = caller(req);
    const row = intern(c, req);
    // Copying reads the workspace scope, which an intern's own key never reaches (spec 5.9): it could
    // otherwise pull any workspace secret into its own vault, and learn which names exist from the 404.
    if (c.key.kind === 'intern_key') throw notFound('Not found');
    const from = workspaceScope(row.workspace_id);
    const parsed = VaultSecretCopySchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    writable();
    const sources = parsed.data.names.map((name) => ({ name, row: store.secret(from, name) }));
    const missing = sources.filter((s) => !s.row).map((s) => s.name);
    if (missing.length > 0) throw notFound(`No workspace secret named ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}; nothing was copied`);
    const to = internScope(row.id);
    const copies = store.db.transaction(() =>
      sources.map(({ name, row: src }) => {
        const value = secrets.open(src!.value_sealed!);
        const copy: SecretRow = {
          scope: to,
          name,
          hosts: src!.hosts,
          value_sealed: secrets.seal(value),
          fingerprint: secrets.fingerprint(to, value),
          created_at: now(),
        };
        return toSecret(store.putSecret(copy));
      }),
    )();
    return { status: 200, body: { data: copies } };
  });

  route(app, ctx, ROUTES.listEffectiveSecrets, (req) => {
    const c = caller(req);
    const row = intern(c, req);
    const { offset, limit } = page(req);
    const attached = row.attached_vault_id ? store.internByVault(row.attached_vault_id) : undefined;
    const layers: [string, SecretScope][] = [[internScope(row.id), 'intern']];
    if (attached && attached.id !== row.id) layers.push([internScope(attached.id), 'attached']);
    layers.push([workspaceScope(row.workspace_id), 'workspace']);
    const rank = new Map(layers.map(([scope], i) => [scope, i]));
    const winners = new Map<string, { row: SecretRow; rank: number }>();
    for (const s of store.secretsOf(layers.map(([scope]) => scope))) {
      const r = rank.get(s.scope)!;
      const best = winners.get(s.name);
      if (!best || r < best.rank) winners.set(s.name, { row: s, rank: r });
    }
    const all: EffectiveSecret[] = [...winners.values()]
      .sort((a, b) => (a.row.name < b.row.name ? -1 : 1))
      .map(({ row: s, rank: r }) => ({ ...toSecret(s), scope: layers[r]![1] }));
    return { status: 200, body: { data: all.slice(offset, offset + limit), has_more: offset + limit < all.length } };
  });
}
