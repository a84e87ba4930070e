/** BYOK routes (spec 4.6, 4.7; public notes for list, get and delete). Errors carry only code and message. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type ByokCredential,
  ByokCreateSchema,
  ByokListQuerySchema,
  ByokUpdateSchema,
  maskKey,
} from '../../contract/byok.js';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { checkKnownProvider, regionRuleOf, resolveDeclaredRegion } from '../../contract/providers.js';
import { ROUTES } from '../../contract/routes.js';
import { type Region, checkByokFlags, checkProviderSlug } from '../../contract/rules.js';
import { type Caller, authorizeManagement } from '../auth.js';
import type { SecretBox } from '../crypto.js';
import { HttpError, badBody } from '../errors.js';
import { type HttpContext, jsonBody, route } from '../http.js';
import { now } from '../lifecycle.js';
import type { ByokRow, Store } from '../store.js';

const conflict = () => new HttpError(409, null, 'The credential was changed by another request; try again');
const missing = () => new HttpError(404, null, 'Credential not found');
const json = (v: string[] | null | undefined) => (v === null || v === undefined ? null : JSON.stringify(v));
const list = (v: string | null) => (v === null ? null : (JSON.parse(v) as string[]));
const bool = (v: boolean | null | undefined) => (v === null || v === undefined ? null : v ? 1 : 0);

export function toCredential(row: ByokRow): ByokCredential {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    provider: row.provider,
    name: row.name,
    label: row.label,
    allowed_api_key_hashes: list(row.allowed_api_key_hashes),
    allowed_models: list(row.allowed_models),
    allowed_user_ids: list(row.allowed_user_ids),
    declared_region: row.declared_region,
    declared_zdr: row.declared_zdr === null ? null : row.declared_zdr === 1,
    disabled: row.disabled === 1,
    is_byok_only: row.is_byok_only === 1,
    is_fallback: row.is_fallback === 1,
    is_required: row.is_required === 1,
    sort_order: row.sort_order,
    created_at: row.created_at,
  };
}

/** The masked label: for a key that carries its region, the masked api_key inside it. */
export function labelFor(key: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith('{')) {
    try {
      const inner = (JSON.parse(trimmed) as { api_key?: unknown }).api_key;
      if (typeof inner === 'string') return maskKey(inner);
    } catch {
      /* not JSON: mask the whole */
    }
  }
  return maskKey(key);
}

export function registerByokRoutes(app: FastifyInstance, ctx: HttpContext, deps: { store: Store; secrets: SecretBox }): void {
  const { store, secrets } = deps;
  const caller = (req: FastifyRequest) => authorizeManagement(store, req.headers.authorization);
  const owned = (c: Caller, id: string): ByokRow => {
    const row = store.byok(id);
    if (!row || row.account_id !== c.key.account_id) throw missing();
    return row;
  };
  const checkHashes = (c: Caller, hashes: string[] | null | undefined) => {
    for (const h of hashes ?? []) {
      if (!store.accountOwnsHash(c.key.account_id, h)) throw badBody(`allowed_api_key_hashes: ${h.slice(0, 12)}... is not a key of this account`);
    }
  };
  const id = (req: FastifyRequest) => (req.params as Record<string, string>).id ?? '';
  /**
   * The workspace a create or a list is scoped to: `workspace_id` when given, which must be a live
   * workspace of the caller's account (anything else, a string that is not a UUID included, names
   * none); else the account's default, and when that was deleted the caller must pass one (spec 4.6;
   * the OpenAPI document says the same of GET /byok).
   */
  const scope = (c: Caller, workspaceId: string | undefined): string => {
    if (workspaceId === undefined) {
      const account = store.account(c.key.account_id);
      const ws = account?.default_workspace_id ? store.workspace(account.default_workspace_id) : undefined;
      if (!ws || ws.deleted) throw badBody('The default workspace was deleted: pass workspace_id');
      return ws.id;
    }
    const ws = store.workspace(workspaceId);
    if (!ws || ws.deleted || ws.account_id !== c.key.account_id) throw badBody('workspace_id: not a workspace of this account');
    return ws.id;
  };

  route(app, ctx, ROUTES.listByok, (req) => {
    const c = caller(req);
    const q = ByokListQuerySchema.safeParse(req.query);
    if (!q.success) throw badBody(describeIssues(q.error));
    const { rows, total } = store.byokPage(c.key.account_id, {
      workspaceId: scope(c, q.data.workspace_id),
      provider: q.data.provider,
      offset: q.data.offset ?? 0,
      limit: q.data.limit ?? LIMITS.byokList.defaultLimit,
    });
    return { status: 200, body: { data: rows.map(toCredential), total_count: total } };
  });

  route(app, ctx, ROUTES.getByok, (req) => {
    const c = caller(req);
    return { status: 200, body: { data: toCredential(owned(c, id(req))) } };
  });

  route(app, ctx, ROUTES.createByok, (req) => {
    const c = caller(req);
    const parsed = ByokCreateSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    const b = parsed.data;
    const slugProblem = checkProviderSlug(b.provider) ?? checkKnownProvider(b.provider);
    if (slugProblem) throw badBody(`provider: ${slugProblem}`);
    const workspaceId = scope(c, b.workspace_id);
    checkHashes(c, b.allowed_api_key_hashes);
    const region = resolveDeclaredRegion(b.provider, b.declared_region, b.key);
    if ('error' in region) throw badBody(region.error);
    const row: ByokRow = {
      id: randomUUID(),
      account_id: c.key.account_id,
      workspace_id: workspaceId,
      provider: b.provider,
      name: b.name ?? null,
      label: labelFor(b.key),
      key_sealed: secrets.seal(b.key),
      allowed_api_key_hashes: json(b.allowed_api_key_hashes),
      allowed_models: json(b.allowed_models),
      allowed_user_ids: json(b.allowed_user_ids),
      declared_region: region.region,
      declared_zdr: bool(b.declared_zdr),
      disabled: b.disabled ? 1 : 0,
      is_byok_only: b.is_byok_only ? 1 : 0,
      is_fallback: b.is_fallback ? 1 : 0,
      is_required: b.is_required ? 1 : 0,
      sort_order: store.nextSortOrder(c.key.account_id, b.provider),
      created_at: now(),
      version: 0,
    };
    store.insertByok(row);
    return { status: 201, body: { data: toCredential(row) } };
  });

  route(app, ctx, ROUTES.updateByok, async (req) => {
    const c = caller(req);
    const row = owned(c, id(req));
    const parsed = ByokUpdateSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: true }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    const b = parsed.data;
    const merged = {
      is_byok_only: b.is_byok_only ?? row.is_byok_only === 1,
      is_fallback: b.is_fallback ?? row.is_fallback === 1,
    };
    const flags = checkByokFlags(merged);
    if (flags) throw badBody(flags);
    checkHashes(c, b.allowed_api_key_hashes);

    const fields: Partial<ByokRow> = {};
    if (b.key !== undefined) {
      fields.key_sealed = secrets.seal(b.key);
      fields.label = labelFor(b.key);
    }
    // Region: the merged value against the provider's rule, with the new or stored key.
    if (b.key !== undefined || b.declared_region !== undefined) {
      const key = b.key ?? (row.key_sealed ? secrets.open(row.key_sealed) : undefined);
      // Rotating the key of a provider whose keys carry their region re-derives the region from the
      // new key (4.7): its region, or none for a key that carries none. Otherwise the stored region
      // stands unless the body sets one (null clears it).
      const derives = b.key !== undefined && regionRuleOf(row.provider).kind === 'from_key';
      const declared = b.declared_region !== undefined ? b.declared_region : derives ? undefined : (row.declared_region as Region | null);
      const region = resolveDeclaredRegion(row.provider, declared, key);
      if ('error' in region) throw badBody(region.error);
      fields.declared_region = region.region;
    }
    if (b.name !== undefined) fields.name = b.name;
    if (b.allowed_api_key_hashes !== undefined) fields.allowed_api_key_hashes = json(b.allowed_api_key_hashes);
    if (b.allowed_models !== undefined) fields.allowed_models = json(b.allowed_models);
    if (b.allowed_user_ids !== undefined) fields.allowed_user_ids = json(b.allowed_user_ids);
    if (b.declared_zdr !== undefined) fields.declared_zdr = bool(b.declared_zdr);
    if (b.disabled !== undefined) fields.disabled = b.disabled ? 1 : 0;
    if (b.is_byok_only !== undefined) fields.is_byok_only = b.is_byok_only ? 1 : 0;
    if (b.is_fallback !== undefined) fields.is_fallback = b.is_fallback ? 1 : 0;
    if (b.is_required !== undefined) fields.is_required = b.is_required ? 1 : 0;
    // Read-modify-write with a version check: a concurrent update that wrote first makes this one 409.
    await new Promise((r) => setImmediate(r));
    if (Object.keys(fields).length > 0 && !store.updateByok(row.id, row.version, fields)) throw conflict();
    const after = store.byok(row.id);
    if (!after) throw missing();
    return { status: 200, body: { data: toCredential(after) } };
  });

  route(app, ctx, ROUTES.deleteByok, (req) => {
    const c = caller(req);
    const row = owned(c, id(req));
    store.deleteByok(row.id);
    return { status: 200, body: { deleted: true } };
  });
}
