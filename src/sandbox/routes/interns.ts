/** Intern routes (spec 4.1-4.5 and the public notes' collection and lifecycle operations). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeIssues } from '../../contract/errors.js';
import {
  FAILED_STATUSES,
  type Intern,
  InternCreateSchema,
  InternDeleteSchema,
  InternListQuerySchema,
  InternUpdateSchema,
  PROVISIONABLE_STATUSES,
  SUSPENDABLE_STATUSES,
  WORKSPACE_ARCHIVE_FAILED,
  losesWorkspace,
} from '../../contract/intern.js';
import { ROUTES } from '../../contract/routes.js';
import { type Caller, authorizeIntern } from '../auth.js';
import { type SecretBox, secretsEqual } from '../crypto.js';
import type { DaemonHub } from '../daemon/types.js';
import { HttpError, badBody, notFound } from '../errors.js';
import { type HttpContext, type Result, jsonBody, route } from '../http.js';
import { type Lifecycle, now } from '../lifecycle.js';
import { type InternRow, type Store, newInternRow, parseProgress } from '../store.js';

export interface InternDeps {
  store: Store;
  hub: DaemonHub;
  lifecycle: Lifecycle;
  /** Signs the list's cursors, so that only a cursor this sandbox issued names a position. */
  secrets: SecretBox;
  /** Lifecycle writes can be switched off through the control API. */
  writesEnabled: () => boolean;
}

export function toIntern(row: InternRow, caller: Caller): Intern {
  const intern: Intern = {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    model: row.model,
    status: row.status,
    // Why the last attempt failed, on either failed state: spec 2.1 names provisioning's (`failed`); a
    // `destroy_failed` intern's is its teardown's, which the delete rule reads (losesWorkspace).
    last_failure_message: FAILED_STATUSES.includes(row.status) ? row.last_failure_message : null,
    progress: parseProgress(row.progress),
    hostname: row.hostname,
    vault_id: row.vault_id,
    attached_vault_id: row.attached_vault_id,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    icon_sha256: row.icon_sha256,
  };
  // Organization keys act for no user: no created_by_you.
  if (caller.key.user_id !== null && caller.key.kind !== 'org_key') intern.created_by_you = row.creator_id === caller.key.user_id;
  return intern;
}

/** The intern the caller may see (its workspace; an intern's own key sees only that intern), or 404. */
export function visibleIntern(store: Store, c: Caller, id: string): InternRow {
  const row = store.intern(id);
  if (!row || row.workspace_id !== c.key.workspace_id) throw notFound('Intern not found');
  if (c.key.kind === 'intern_key' && c.key.intern_id !== row.id) throw notFound('Intern not found');
  return row;
}

const creatorOf = (caller: Caller) => caller.key.user_id ?? `org:${caller.key.workspace_id}`;
const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * Names are unique per creator within a workspace (spec 2.1, 4.2). The conflict is with an intern of
 * the creator of the intern being named: the caller on create, but on a rename of another user's
 * intern that user, so "one of your interns" would send the caller looking for an intern they never made.
 */
function nameTaken(name: string, creatorIsCaller: boolean): HttpError {
  const holder = creatorIsCaller ? 'one of your interns' : "another intern of this intern's creator";
  return new HttpError(409, 'name_taken', `The name "${name}" is already used by ${holder} in this workspace (names are unique per creator)`);
}

export function registerInternRoutes(app: FastifyInstance, ctx: HttpContext, deps: InternDeps): void {
  const { store, hub, lifecycle, secrets } = deps;

  const caller = (req: FastifyRequest, needs = ROUTES.getIntern.credential) =>
    authorizeIntern(store, req.headers.authorization, req.headers.host, needs);

  const visible = (c: Caller, id: string): InternRow => visibleIntern(store, c, id);
  const noCollection = (c: Caller) => {
    if (c.key.kind === 'intern_key') throw notFound('Not found');
  };
  const writable = () => {
    if (!deps.writesEnabled()) throw notFound('Lifecycle writes are disabled for this workspace');
  };
  const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';

  route(app, ctx, ROUTES.listInterns, (req): Result => {
    const c = caller(req);
    noCollection(c);
    const q = InternListQuerySchema.safeParse(req.query);
    if (!q.success) throw badBody(describeIssues(q.error));
    if (q.data.workspace_id !== undefined && q.data.workspace_id !== c.key.workspace_id) {
      throw badBody('workspace_id must be the workspace of the calling key');
    }
    let beforeSeq: number | undefined;
    if (q.data.starting_after !== undefined) {
      beforeSeq = decodeCursor(secrets, c.key.workspace_id!, q.data.starting_after);
      if (beforeSeq === undefined) {
        throw badBody('starting_after: not a cursor this service issued for this list; pass the next_cursor of the previous page, or leave it out for the first page');
      }
    }
    const limit = q.data.limit ?? 50;
    const statuses = q.data.status?.split(',').map((s) => s.trim()).filter(Boolean);
    const rows = store.internsPage(c.key.workspace_id!, { statuses, beforeSeq, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const body: Record<string, unknown> = { data: page.map((r) => toIntern(r, c)), has_more: hasMore };
    if (hasMore) body.next_cursor = encodeCursor(secrets, c.key.workspace_id!, page[page.length - 1]!.seq);
    return { status: 200, body };
  });

  route(app, ctx, ROUTES.getIntern, (req) => {
    const c = caller(req);
    return { status: 200, body: toIntern(visible(c, param(req, 'internId')), c) };
  });

  route(app, ctx, ROUTES.updateIntern, (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    writable();
    const parsed = InternUpdateSchema.safeParse(jsonBody(req, { strictMediaType: true, allowEmpty: true }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    const patch = parsed.data;
    const fields: Partial<InternRow> = {};
    if (patch.name !== undefined) fields.name = patch.name;
    if (patch.description !== undefined) fields.description = patch.description;
    if (patch.instructions !== undefined) fields.instructions = patch.instructions;
    // Stored as configured; it takes effect (active_model) on the next provision.
    if (patch.model !== undefined) fields.model = patch.model;
    if (Object.keys(fields).length > 0) {
      fields.updated_at = now();
      try {
        store.updateIntern(row.id, fields);
      } catch (e) {
        if (isUniqueViolation(e)) throw nameTaken(patch.name ?? row.name, row.creator_id === creatorOf(c));
        throw e;
      }
    }
    return { status: 200, body: toIntern(store.intern(row.id)!, c) };
  });

  route(app, ctx, ROUTES.createIntern, (req) => {
    const c = caller(req);
    noCollection(c);
    writable();
    const parsed = InternCreateSchema.safeParse(jsonBody(req, { strictMediaType: true, allowEmpty: false }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    const body = parsed.data;
    if (body.workspace_id !== undefined && body.workspace_id !== c.key.workspace_id) {
      throw badBody('workspace_id must be the workspace of the calling key');
    }
    const idemKey = req.headers['idempotency-key'];
    if (typeof idemKey === 'string' && idemKey.length > 0) {
      const existing = store.idempotent(idemKey, c.principal);
      const row = existing ? store.intern(existing) : undefined;
      if (row) return { status: 200, body: toIntern(row, c) };
    }
    if (body.vault_id !== undefined) {
      const owner = store.db.prepare('SELECT 1 FROM interns WHERE vault_id = ? AND workspace_id = ?').get(body.vault_id, c.key.workspace_id);
      if (!owner) throw badBody('vault_id must be the vault of an intern in this workspace');
    }
    const id = randomUUID();
    const ts = now();
    try {
      store.insertIntern(
        newInternRow({
          id,
          workspace_id: c.key.workspace_id!,
          creator_id: creatorOf(c),
          name: body.name,
          description: body.description ?? null,
          instructions: body.instructions ?? null,
          attached_vault_id: body.vault_id ?? null,
          created_at: ts,
        }),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(body.name, true);
      throw e;
    }
    if (typeof idemKey === 'string' && idemKey.length > 0) store.rememberIdempotent(idemKey, c.principal, id);
    if (body.provision) lifecycle.provision(store.intern(id)!);
    return { status: 201, body: toIntern(store.intern(id)!, c) };
  });

  route(app, ctx, ROUTES.deleteIntern, async (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    writable();
    const parsed = InternDeleteSchema.safeParse(jsonBody(req, { strictMediaType: true, allowEmpty: true }));
    if (!parsed.success) throw badBody(describeIssues(parsed.error));
    if (row.status === 'destroying') throw busy(row, 'it is already being deleted');
    if (losesWorkspace(row) && parsed.data.acknowledge_workspace_loss !== true) {
      // No reason of the intern table fits (intern_busy says "wait", and waiting changes nothing):
      // the bare conflict envelope, with what to send in its message.
      throw new HttpError(
        409,
        null,
        `The intern's workspace was not archived (${WORKSPACE_ARCHIVE_FAILED}): deleting it discards the workspace; send {"acknowledge_workspace_loss": true} to delete it anyway`,
      );
    }
    await lifecycle.destroy(row);
    return { status: 202, body: { deleting: true } };
  });

  route(app, ctx, ROUTES.provisionIntern, (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    writable();
    noBody(req, 'provision');
    if (!PROVISIONABLE_STATUSES.includes(row.status)) throw busy(row, `only a ${PROVISIONABLE_STATUSES.join(' or ')} intern can be provisioned`);
    lifecycle.provision(row);
    return { status: 202, body: { provisioning: true } };
  });

  route(app, ctx, ROUTES.suspendIntern, async (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    writable();
    noBody(req, 'suspend');
    if (!SUSPENDABLE_STATUSES.includes(row.status)) throw busy(row, `only a ${SUSPENDABLE_STATUSES.join(' or ')} intern can be suspended`);
    await lifecycle.suspend(row);
    return { status: 200, body: { suspended: true } };
  });

  route(app, ctx, ROUTES.getInternIcon, (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    if (!row.icon || !row.icon_sha256) throw notFound('This intern has no icon');
    const v = (req.query as Record<string, unknown>).v;
    const etag = `"${row.icon_sha256}"`;
    const headers: Record<string, string> = { 'content-type': row.icon_type ?? 'image/png', etag };
    // private: an authenticated answer, which no shared cache may hand to another caller.
    headers['cache-control'] = v === row.icon_sha256 ? 'private, max-age=31536000, immutable' : 'no-cache';
    if (req.headers['if-none-match'] === etag) return { status: 304, headers };
    return { status: 200, headers, raw: row.icon };
  });

  route(app, ctx, ROUTES.getDaemonAccess, async (req) => {
    const c = caller(req, ROUTES.getDaemonAccess.credential);
    const row = visible(c, param(req, 'internId'));
    if (row.status !== 'running') {
      throw new HttpError(409, 'intern_not_running', `The intern is ${row.status}; daemon access needs a running intern`);
    }
    const { origin } = await hub.start({ id: row.id, name: row.name });
    const token = hub.issueToken(row.id);
    store.recordReveal(c.principal, row.id);
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: { origin, token } };
  }, undefined, { head: false });

  route(app, ctx, ROUTES.listConnections, (req) => {
    const c = caller(req);
    const row = visible(c, param(req, 'internId'));
    const data = store
      .connections(row.id)
      .filter((x) => x.enabled && !x.off_for_intern && !x.hidden_for_intern)
      .map((x) => ({ key: x.key }));
    return { status: 200, body: { data } };
  });
}

/**
 * Provision and suspend take no body (public notes; the official SDK: "A body carrying any field is
 * refused with 400 rather than ignored"): an empty body or `{}` is fine, anything with a field is 400,
 * and a non-empty body without application/json is 415, as for the other intern writes.
 */
function noBody(req: FastifyRequest, action: 'provision' | 'suspend'): void {
  const fields = Object.keys(jsonBody(req, { strictMediaType: true, allowEmpty: true }));
  if (fields.length > 0) throw badBody(`${action} takes no body fields; got ${fields.slice(0, 3).join(', ')}`);
}

function busy(row: InternRow, why: string): HttpError {
  return new HttpError(409, 'intern_busy', `The intern is ${row.status}: ${why}`);
}

/**
 * The list's cursors are opaque and the service's own (public notes: "cursor from the previous page"):
 * a position (the last intern's seq) and a tag over the workspace and that position. A well-formed
 * cursor the sandbox never issued, or one issued for another workspace's list, names no position of
 * this list and is refused, instead of being read as "from the top" (a made-up `seq:99999` was page 1).
 * A cursor stays good when the intern it stopped at is deleted: the position is still a position.
 */
const CURSOR_PURPOSE = 'intern-list-cursor';
const cursorTag = (secrets: SecretBox, workspaceId: string, seq: number) => secrets.tag(CURSOR_PURPOSE, `${workspaceId}\0${seq}`);

export function encodeCursor(secrets: SecretBox, workspaceId: string, seq: number): string {
  return `${Buffer.from(`seq:${seq}`).toString('base64url')}.${cursorTag(secrets, workspaceId, seq)}`;
}
export function decodeCursor(secrets: SecretBox, workspaceId: string, cursor: string): number | undefined {
  const [position, tag, ...rest] = cursor.split('.');
  if (position === undefined || tag === undefined || rest.length > 0) return undefined;
  const m = /^seq:(\d{1,15})$/.exec(Buffer.from(position, 'base64url').toString('utf8'));
  if (!m) return undefined;
  const seq = Number(m[1]);
  return secretsEqual(tag, cursorTag(secrets, workspaceId, seq)) ? seq : undefined;
}
