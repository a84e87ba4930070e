/** The control API for tests, under /__sandbox beside /api/v1: bearer control token, anything else 404. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { describeIssues } from '../../contract/errors.js';
import { secretsEqual } from '../crypto.js';
import { bearerOf } from '../auth.js';
import { badBody, notFound } from '../errors.js';
import { type Fault, type HttpContext, jsonBody, sendError, send } from '../http.js';
import { now } from '../lifecycle.js';
import type { Store } from '../store.js';

const FaultSchema = z.lazy(() => z.strictObject({
  match: z.string().regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/, { error: 'must look like "GET /interns/{internId}"' }),
  delay_ms: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(400).max(599).optional(),
  reason: z.string().min(1).max(64).optional(),
}));
const StatusSchema = z.lazy(() => z.strictObject({ status: z.string().min(1).max(64), last_failure_message: z.string().max(2000).nullable().optional() }));
const WritesSchema = z.lazy(() => z.strictObject({ enabled: z.boolean() }));

export interface ControlDeps {
  store: Store;
  controlToken: string;
  ctx: HttpContext;
  setWritesEnabled: (on: boolean) => void;
  setVaultWritesEnabled: (on: boolean) => void;
  onStatusChange: (internId: string, status: string) => Promise<void>;
}

export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const guard = (req: FastifyRequest) => {
    const token = bearerOf(req.headers.authorization);
    if (!token || !secretsEqual(token, deps.controlToken)) throw notFound();
  };
  const handle = (fn: (req: FastifyRequest) => Promise<unknown> | unknown) => async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      guard(req);
      const body = await fn(req);
      return send(reply, { status: 200, body });
    } catch (e) {
      return sendError(reply, 'intern', e);
    }
  };
  const parse = <T>(schema: z.ZodType<T>, req: FastifyRequest): T => {
    const r = schema.safeParse(jsonBody(req, { strictMediaType: true, allowEmpty: false }));
    if (!r.success) throw badBody(describeIssues(r.error));
    return r.data;
  };

  app.post('/__sandbox/faults', handle((req) => {
    const fault: Fault = parse(FaultSchema, req);
    deps.ctx.faults = [...deps.ctx.faults.filter((f) => f.match !== fault.match), fault];
    return { faults: deps.ctx.faults };
  }));
  app.delete('/__sandbox/faults', handle(() => {
    deps.ctx.faults = [];
    return { faults: [] };
  }));
  app.post('/__sandbox/interns/:internId/status', handle(async (req) => {
    const body = parse(StatusSchema, req);
    const id = (req.params as { internId: string }).internId;
    const row = deps.store.intern(id);
    if (!row) throw notFound('Intern not found');
    deps.store.updateIntern(id, {
      status: body.status,
      last_failure_message: body.last_failure_message ?? (body.status === 'failed' ? row.last_failure_message : null),
      progress: body.status === 'provisioning' ? row.progress : null,
      moving: 0,
      updated_at: now(),
    });
    await deps.onStatusChange(id, body.status);
    return { id, status: body.status };
  }));
  app.post('/__sandbox/lifecycle-writes', handle((req) => {
    const { enabled } = parse(WritesSchema, req);
    deps.setWritesEnabled(enabled);
    return { enabled };
  }));
  app.post('/__sandbox/vault-writes', handle((req) => {
    const { enabled } = parse(WritesSchema, req);
    deps.setVaultWritesEnabled(enabled);
    return { enabled };
  }));
  app.get('/__sandbox/audit', handle(() => ({ data: deps.store.audit() })));
}
