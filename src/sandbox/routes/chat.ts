/**
 * Chat and invoke (public notes, "More operations"): validation, errors and the event stream. The
 * local agent (../agent) decides what a turn says; this module only moves it onto the wire.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ChatChunk, ChatRequestSchema, InvokeRequestSchema, contentText } from '../../contract/chat.js';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { PROVISIONABLE_STATUSES, STARTING_STATUSES } from '../../contract/intern.js';
import { ROUTES, routeLabel } from '../../contract/routes.js';
import type { AgentService, InternInfo, Sink } from '../agent/index.js';
import { type Caller, authorizeIntern } from '../auth.js';
import { HttpError } from '../errors.js';
import { type HttpContext, injectFault, jsonBody, route, sendError } from '../http.js';
import type { InternRow, Store } from '../store.js';
import { visibleIntern } from './interns.js';

export interface ChatDeps {
  store: Store;
  agent: AgentService;
  /** A keepalive comment after this much silence; default 30 s. */
  keepaliveMs?: number;
}

const badRequest = (message: string) => new HttpError(400, 'bad_request', message);

/** One response's event stream. Headers go out with the first event, so errors before it stay plain JSON. */
class SseSink implements Sink {
  private started = false;
  private ended = false;
  closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reply: FastifyReply,
    private readonly keepaliveMs: number,
    private readonly onGone: (sink: SseSink) => void,
    /** The client left before `[DONE]`: fastify's onResponse hook, which logs a finished answer, never runs then. */
    private readonly onLeft: () => void,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.reply.hijack();
    const raw = this.reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.on('close', () => {
      clearTimeout(this.timer);
      if (!this.ended) {
        this.closed = true;
        this.onGone(this);
        this.onLeft();
      }
    });
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.closed) return;
      this.reply.raw.write(': keepalive\n\n');
      this.arm();
    }, this.keepaliveMs);
  }

  send(chunk: ChatChunk): void {
    if (this.closed) return;
    this.start();
    this.reply.raw.write(`data: ${JSON.stringify(chunk)}\n\n`);
    this.arm();
  }

  end(): void {
    if (this.closed) return;
    this.start();
    clearTimeout(this.timer);
    this.ended = true;
    this.closed = true;
    this.reply.raw.end('data: [DONE]\n\n');
  }
}

export function internInfo(store: Store, row: InternRow): InternInfo {
  return { id: row.id, name: row.name, model: row.active_model ?? store.modelToRun(row) };
}

export function registerChatRoutes(app: FastifyInstance, ctx: HttpContext, deps: ChatDeps): void {
  const { store, agent } = deps;
  const label = routeLabel(ROUTES.chat);
  const keepaliveMs = deps.keepaliveMs ?? LIMITS.chatKeepaliveMs;

  const ready = (c: Caller, internId: string): InternRow => {
    const row = visibleIntern(store, c, internId);
    if (row.status !== 'running') {
      // What to do depends on where it is: one on its way up needs only time.
      const todo = STARTING_STATUSES.includes(row.status) ? 'it is on its way up; chat once it runs' : PROVISIONABLE_STATUSES.includes(row.status) ? 'provision it before chatting' : 'it cannot run now';
      throw new HttpError(409, 'intern_not_ready', `${row.name} is ${row.status}: ${todo}`);
    }
    return row;
  };

  /** Injected faults act on chat as on every route; busy and rate_limited carry Retry-After. */
  const faults = () => injectFault(ctx, label, { retryAfter: true });

  app.route({
    method: 'POST',
    url: ROUTES.chat.path.replace(/\{(\w+)\}/g, ':$1'),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const t0 = performance.now();
      const template = `${req.method} ${req.routeOptions.url}`;
      // One log line per request: the app's onResponse hook writes it when the answer finishes (a
      // stream's too); a stream the client leaves never finishes, so the sink writes that one.
      const sink = new SseSink(reply, keepaliveMs, (s) => agent.detached(s), () => {
        ctx.log?.(`${template} 200 ${(performance.now() - t0).toFixed(1)}ms`);
      });
      try {
        await faults();
        const c = authorizeIntern(store, req.headers.authorization, req.headers.host, ROUTES.chat.credential);
        const row = ready(c, (req.params as { internId: string }).internId);
        const parsed = ChatRequestSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false, reason: 'bad_request' }));
        if (!parsed.success) throw badRequest(describeIssues(parsed.error));
        const body = parsed.data;
        const last = body.messages.at(-1)!;
        const intern = internInfo(store, row);
        if (last.role === 'tool') {
          if (!body.session_id) throw badRequest('A tool message answers an interaction of a session: session_id is required');
          agent.answer(intern, c.principal, { sessionId: body.session_id, toolCallId: last.tool_call_id, content: contentText(last.content) }, sink);
          sink.start();
          return reply;
        }
        if (last.role !== 'user') throw badRequest(`The last message must be a user prompt or a tool answer, not ${last.role}`);
        const text = contentText(last.content);
        if (text.trim().length === 0) throw badRequest('The prompt is empty');
        if (text.length > LIMITS.prompt.max) throw new HttpError(413, 'payload_too_large', `The prompt is longer than ${LIMITS.prompt.max} characters`);
        const started = agent.prompt(intern, c.principal, { sessionId: body.session_id, text, mode: body.approval_mode ?? 'self-drive' }, sink);
        if (started.steered) return reply.code(202).type('application/json; charset=utf-8').send(JSON.stringify({ session_id: started.sessionId, status: 'steered' }));
        sink.start();
        return reply;
      } catch (e) {
        return sendError(reply, 'intern', e);
      }
    },
  });

  route(app, ctx, ROUTES.invoke, (req) => {
    const c = authorizeIntern(store, req.headers.authorization, req.headers.host, ROUTES.invoke.credential);
    const row = ready(c, (req.params as { internId: string }).internId);
    const parsed = InvokeRequestSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false, reason: 'bad_request' }));
    if (!parsed.success) {
      const tooLong = parsed.error.issues.some((i) => i.path[0] === 'input' && i.code === 'too_big');
      if (tooLong) throw new HttpError(413, 'payload_too_large', `input is longer than ${LIMITS.prompt.max} characters`);
      throw badRequest(describeIssues(parsed.error));
    }
    const started = agent.prompt(internInfo(store, row), c.principal, { sessionId: parsed.data.session_id, text: parsed.data.input, mode: 'self-drive', byInvoke: true }, null);
    return { status: 202, body: { session_id: started.sessionId, status: started.steered ? 'steered' : 'started' } };
  });
}
