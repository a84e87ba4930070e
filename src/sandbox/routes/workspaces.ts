/**
 * Workspaces (the public OpenAPI document: GET /workspaces, GET /workspaces/{id}): the caller's
 * account's live workspaces, paged by offset and limit with the BYOK list's rules, every field the
 * document requires. The sandbox keeps no settings for them, so those are the service's defaults.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES } from '../../contract/routes.js';
import { WorkspaceListQuerySchema, slugOf } from '../../contract/workspace.js';
import { authorizeManagement } from '../auth.js';
import { HttpError, badBody } from '../errors.js';
import { type HttpContext, route } from '../http.js';
import type { Store, WorkspaceRow } from '../store.js';

/** A database made before workspaces had a creation time says the epoch rather than inventing one. */
const UNKNOWN_TIME = new Date(0).toISOString();

/** The document's default guardrail id is "derived from the workspace ID": a UUID-shaped digest of it. */
function guardrailIdOf(id: string): string {
  const h = createHash('sha256').update(`guardrail:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function toWorkspace(row: WorkspaceRow) {
  return {
    id: row.id,
    name: row.name,
    slug: slugOf(row.name),
    description: null,
    default_guardrail_id: guardrailIdOf(row.id),
    default_text_model: row.default_model,
    default_image_model: null,
    default_provider_sort: null,
    is_observability_io_logging_enabled: false,
    is_observability_broadcast_enabled: false,
    is_data_discount_logging_enabled: false,
    io_logging_sampling_rate: 1,
    io_logging_api_key_ids: null,
    include_byok_in_budgets: false,
    created_at: row.created_at ?? UNKNOWN_TIME,
    updated_at: null,
    created_by: null,
  };
}

export function registerWorkspaceRoutes(app: FastifyInstance, ctx: HttpContext, deps: { store: Store }): void {
  const { store } = deps;
  const caller = (req: FastifyRequest) => authorizeManagement(store, req.headers.authorization);

  route(app, ctx, ROUTES.listWorkspaces, (req) => {
    const c = caller(req);
    const q = WorkspaceListQuerySchema.safeParse(req.query);
    if (!q.success) throw badBody(describeIssues(q.error));
    const { rows, total } = store.workspacesPage(c.key.account_id, { offset: q.data.offset ?? 0, limit: q.data.limit ?? LIMITS.workspaceList.defaultLimit });
    return { status: 200, body: { data: rows.map(toWorkspace), total_count: total } };
  });

  route(app, ctx, ROUTES.getWorkspace, (req) => {
    const c = caller(req);
    const id = (req.params as Record<string, string>).id ?? '';
    const row = store.workspace(id);
    if (!row || row.deleted || row.account_id !== c.key.account_id) throw new HttpError(404, null, 'Workspace not found');
    return { status: 200, body: { data: toWorkspace(row) } };
  });
}
