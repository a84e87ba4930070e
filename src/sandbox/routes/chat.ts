/**
 * Chat and invoke (public notes, "More operations"): `POST /interns/{internId}/chat/completions`
 * answers a server-sent event stream of `chat.completion.chunk` objects (or 202 when the prompt
 * steers the session's running turn); `POST /interns/{internId}/invoke` starts a self-drive run.
 * Both talk to the intern's local agent (../agent). A client that disconnects mid-stream cancels
 * the run; one that disconnects after the `[DONE]` that follows `tool_calls` leaves it waiting.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CHAT_CHUNK_OBJECT,
  ChatRequestSchema,
  InvokeRequestSchema,
  SSE_DONE,
  SSE_KEEPALIVE,
  contentText,
  sseData,
  type ChatChunk,
  type ChatUsage,
} from '../../contract/chat.js';
import { RETRYABLE_REASONS, describeIssues, type Reason } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES, routeLabel } from '../../contract/routes.js';
import type { ChatOutcome, LocalAgent, TurnEvent } from '../agent/index.js';
import { authorizeIntern } from '../auth.js';
import { HttpError } from '../errors.js';
import { type HttpContext, applyFault, jsonBody, send, sendError } from '../http.js';
import type { InternRow, Store } from '../store.js';
import { visibleIntern } from './interns.js';

export interface ChatDeps {
  store: Store;
  agent: LocalAgent;
  /** A `: keepalive` comment after this much silence; default LIMITS.chatKeepaliveMs. */
  keepaliveMs?: number;
}

const badRequest = (message: string) => new HttpError(400, 'bad_request', message);

/** Chat and invoke answer `bad_request` where other intern routes say `invalid_body`. */
function asChatError(e: unknown): unknown {
  if (e instanceof HttpError && e.reason === 'invalid_body') return badRequest(e.message);
  return e;
}

export function registerChatRoutes(app: FastifyInstance, ctx: HttpContext, deps: ChatDeps): void {
  const { store, agent } = deps;
  const keepaliveMs = deps.keepaliveMs ?? LIMITS.chatKeepaliveMs;
  const param = (req: FastifyRequest) => (req.params as Record<string, string>).internId ?? '';
  const url = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

  /** The steps both routes share: caller, fault, body, intern, and "is it running". */
  const prepare = async (req: FastifyRequest, label: string, inStream: boolean) => {
    const caller = authorizeIntern(store, req.headers.authorization, req.headers.host, ROUTES.chat.credential);
    const fault = await applyFault(ctx, label, { inStream });
    const body = jsonBody(req, { strictMediaType: false, allowEmpty: false });
    const row = visibleIntern(store, caller, param(req));
    return { caller, fault, body, row };
  };
  const ready = (row: InternRow) => {
    if (row.status !== 'running') throw new HttpError(409, 'intern_not_ready', `The intern is ${row.status}; it answers when it is running`);
  };
  const checkPrompt = (text: string) => {
    if (text.length > LIMITS.prompt.max) throw new HttpError(413, 'payload_too_large', `The prompt is longer than ${LIMITS.prompt.max} characters`);
  };

  app.post(url(ROUTES.chat.path), async (req, reply) => {
    const label = routeLabel(ROUTES.chat);
    let outcome: ChatOutcome;
    let row: InternRow | undefined;
    let injected: { status: number; reason: Reason } | undefined;
    try {
      const p = await prepare(req, label, true);
      row = p.row;
      const parsed = ChatRequestSchema.safeParse(p.body);
      if (!parsed.success) throw badRequest(describeIssues(parsed.error));
      const body = parsed.data;
      const last = body.messages.at(-1)!;
      if (last.role === 'tool') {
        if (body.session_id === undefined) throw badRequest('A tool message answers an interaction of a session: session_id is required');
      } else if (last.role === 'user') {
        checkPrompt(contentText(last.content));
      } else {
        throw badRequest(`The last message must be a user prompt or a tool answer, not ${last.role}`);
      }
      ready(row);
      if (p.fault?.in_stream && p.fault.status) {
        injected = { status: p.fault.status, reason: (p.fault.reason ?? 'stream_severed') as Reason };
        outcome = { kind: 'steered', session: body.session_id ?? '' };
      } else if (last.role === 'tool') {
        outcome = agent.answer(row.id, p.caller.principal, body.session_id!, last.tool_call_id, contentText(last.content));
      } else {
        outcome = agent.prompt(row.id, p.caller.principal, body.session_id, contentText(last.content), body.approval_mode ?? 'self-drive');
      }
    } catch (e) {
      return sendError(reply, 'intern', asChatError(e));
    }
    if (outcome.kind === 'steered' && !injected) {
      return send(reply, { status: 202, body: { session_id: outcome.session, status: 'steered' } });
    }
    return streamTurn(reply, row?.active_model ?? row?.model ?? 'sandbox/local-agent', outcome, injected, keepaliveMs);
  });

  app.post(url(ROUTES.invoke.path), async (req, reply) => {
    const label = routeLabel(ROUTES.invoke);
    try {
      const p = await prepare(req, label, false);
      const parsed = InvokeRequestSchema.safeParse(p.body);
      if (!parsed.success) throw badRequest(describeIssues(parsed.error));
      checkPrompt(parsed.data.input);
      ready(p.row);
      const started = agent.invoke(p.row.id, p.caller.principal, parsed.data.session_id, parsed.data.input);
      return send(reply, { status: 202, body: { session_id: started.session, status: started.status } });
    } catch (e) {
      return sendError(reply, 'intern', asChatError(e));
    }
  });
}

/**
 * Writes the run's events as chunks: a role chunk, the deltas, a finish chunk (or an error chunk),
 * then the final chunk with `session_id` and `usage`, then `[DONE]`. A keepalive comment breaks
 * every silence of `keepaliveMs`. The client going away before the end cancels the run.
 */
async function streamTurn(
  reply: FastifyReply,
  model: string,
  outcome: ChatOutcome,
  injected: { status: number; reason: Reason } | undefined,
  keepaliveMs: number,
): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const id = `chatcmpl-${randomBytes(12).toString('base64url')}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (over: Partial<ChatChunk>): ChatChunk => ({ id, object: CHAT_CHUNK_OBJECT, created, model, choices: [], ...over });
  let keepalive: NodeJS.Timeout | undefined;
  const write = (text: string) => {
    if (res.writableEnded || res.destroyed) return;
    res.write(text);
    clearTimeout(keepalive);
    keepalive = setTimeout(() => write(SSE_KEEPALIVE), keepaliveMs);
  };
  let finished = false;
  const cancel = outcome.kind === 'stream' ? outcome.cancel : () => undefined;
  // The response's socket closing before the last byte was written means the client went away.
  res.on('close', () => {
    clearTimeout(keepalive);
    if (!finished) cancel();
  });
  const end = (usage: ChatUsage | null) => {
    write(sseData(chunk({ choices: [], session_id: outcome.session, usage })));
    write(sseData(SSE_DONE));
    finished = true;
    clearTimeout(keepalive);
    res.end();
  };
  const fail = (status: number, reason: Reason, message: string) => {
    write(sseData(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'error' }], error: { code: status, message, metadata: { reason, retryable: RETRYABLE_REASONS.has(reason) } } })));
    end(null);
  };

  write(sseData(chunk({ choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] })));
  if (injected || outcome.kind !== 'stream') {
    const reason = injected?.reason ?? 'stream_severed';
    return fail(injected?.status ?? 502, reason, `Injected fault on ${routeLabel(ROUTES.chat)}: ${reason}`);
  }
  for await (const event of outcome.stream.events() as AsyncIterable<TurnEvent>) {
    if (res.destroyed) return;
    if (event.kind === 'delta') write(sseData(chunk({ choices: [{ index: 0, delta: event.delta, finish_reason: null }] })));
    else if (event.kind === 'finish') {
      write(sseData(chunk({ choices: [{ index: 0, delta: {}, finish_reason: event.reason }] })));
      return end(event.usage);
    } else return fail(event.status, event.reason, event.message);
  }
}
