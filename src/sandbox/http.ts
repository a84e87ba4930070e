/**
 * The sandbox's HTTP plumbing: raw bodies with the contract's size rule, JSON
 * parsing that names what is wrong, the route deadline, fault injection, and
 * one log line per request. Handlers return results; this module sends them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../contract/limits.js';
import { isWellFormedText } from '../contract/rules.js';
import { type RouteSpec, routeLabel } from '../contract/routes.js';
import { HttpError, badBody, envelope } from './errors.js';
import type { Reason } from '../contract/errors.js';

/** At most this many characters of a request's path are ever echoed in an error message. */
export const MAX_ECHOED_PATH = 64;

/** A short, printable piece of a path for an error message: no query, no control or non-ASCII characters. */
export function echoPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  const printable = path.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > MAX_ECHOED_PATH ? `${printable.slice(0, MAX_ECHOED_PATH)}...` : printable;
}

export interface Result {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: Buffer;
}

export interface Fault {
  match: string;
  delay_ms?: number;
  status?: number;
  reason?: string;
}

export interface HttpContext {
  deadlineMs: number;
  faults: Fault[];
  /** The request log; injected faults say so when they act. */
  log?: (line: string) => void;
}

/** Every body arrives as a Buffer; the route decides what it may be. */
export function installBodyHandling(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LIMITS.requestBodyBytes }, (_req, body, done) => done(null, body));
}

const isJsonType = (ct: string | undefined) => !!ct && /^application\/json\s*(;|$)/i.test(ct.trim());

/**
 * Reads a JSON object body. `strictMediaType` (intern PATCH) answers 415 to a
 * non-empty body without application/json; other routes answer 400.
 */
/**
 * The request's JSON object body. A body that cannot be read is a 400 with `reason`: the spec's
 * `invalid_body` for the update routes; the chat and invoke routes answer `bad_request` (public
 * notes), as they do for a body of the wrong shape.
 */
export function jsonBody(req: FastifyRequest, opts: { strictMediaType: boolean; allowEmpty: boolean; reason?: Reason }): Record<string, unknown> {
  const unreadable = (message: string) => new HttpError(400, opts.reason ?? 'invalid_body', message);
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (raw.length === 0) {
    if (opts.allowEmpty) return {};
    throw unreadable('The body must be a JSON object');
  }
  if (!isJsonType(req.headers['content-type'])) {
    if (opts.strictMediaType) throw new HttpError(415, 'unsupported_media_type', 'The body must be sent with Content-Type: application/json');
    throw unreadable('The body must be sent with Content-Type: application/json');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw unreadable('The body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw unreadable(`The body is not valid JSON: ${(e as Error).message.slice(0, 120)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unreadable('The body must be a JSON object');
  // Valid UTF-8 can still carry "\ud800" escapes: JSON.parse makes them lone surrogates.
  if (SURROGATE_ESCAPE.test(text)) {
    const at = unpairedSurrogateAt(value);
    if (at !== undefined) throw unreadable(at === null ? 'the body holds an unpaired surrogate: not valid Unicode' : `${at}: holds an unpaired surrogate: not valid Unicode`);
  }
  // JSON.parse makes `__proto__` an own property; copy into a null-prototype object so it is just an (unknown) field.
  return Object.assign(Object.create(null) as Record<string, unknown>, value);
}

/** A `\uD800`-`\uDFFF` escape somewhere in a JSON text: only then can the parsed value hold a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Where a parsed JSON value holds a string that is not well-formed Unicode: its field's path
 * (`hosts.0`, as describeIssues names fields), null when it is in a field's name, or undefined when
 * there is none. Iterative, as a 1 MiB body can nest half a million deep.
 */
function unpairedSurrogateAt(root: unknown): string | null | undefined {
  type Node = { value: unknown; key: string | number | undefined; parent: Node | undefined };
  const pathOf = (node: Node): string => {
    const parts: string[] = [];
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) parts.push(String(n.key));
    const path = parts
      .reverse()
      .slice(0, 40)
      .map((k) => k.replace(/[^\x20-\x7e]/g, '?').slice(0, 40))
      .join('.');
    return path.length > 120 ? `${path.slice(0, 120)}...` : path;
  };
  const stack: Node[] = [{ value: root, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (!isWellFormedText(v)) return node.key === undefined ? null : pathOf(node);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: node });
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      if (keys.some((k) => !isWellFormedText(k))) return null;
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: node });
    }
  }
  return undefined;
}

type Handler = (req: FastifyRequest) => Promise<Result> | Result;

/**
 * Applies the injected fault for a route, if any: holds it for `delay_ms`, then answers `status`
 * with its reason. `retryAfter` adds Retry-After (1 s) to busy and rate_limited, as chat answers them.
 */
export async function injectFault(ctx: HttpContext, label: string, opts: { retryAfter?: boolean } = {}): Promise<void> {
  const fault = ctx.faults.find((f) => f.match === label);
  if (fault?.delay_ms) {
    ctx.log?.(`fault: ${label} held for ${fault.delay_ms}ms`);
    await new Promise((r) => setTimeout(r, fault.delay_ms));
  }
  if (fault?.status) {
    const reason = (fault.reason ?? (fault.status >= 500 ? 'internal_error' : null)) as never;
    const wait = opts.retryAfter && (fault.reason === 'busy' || fault.reason === 'rate_limited') ? 1 : undefined;
    throw new HttpError(fault.status, reason, `Injected fault on ${label}`, wait);
  }
}

/**
 * Registers a contract route: deadline, faults, envelope of its family. `head: false` keeps
 * fastify from answering HEAD with the GET handler, for a GET that does something (the daemon
 * route mints a token and writes an audit entry).
 */
export function route(app: FastifyInstance, ctx: HttpContext, spec: RouteSpec, handler: Handler, family = spec.errors, opts: { head?: boolean } = {}): void {
  const url = spec.path.replace(/\{(\w+)\}/g, ':$1');
  const label = routeLabel(spec);
  app.route({
    method: spec.method,
    url,
    ...(opts.head === false ? { exposeHeadRoute: false } : {}),
    handler: async (req, reply) => {
      const deadline = ctx.deadlineMs;
      let timer: NodeJS.Timeout | undefined;
      let expired = false;
      const timeout = new Promise<Result>((_, reject) => {
        timer = setTimeout(() => {
          expired = true;
          reject(new HttpError(408, 'timeout', `${label} exceeded its ${deadline} ms deadline`));
        }, deadline);
      });
      const work = (async () => {
        await injectFault(ctx, label);
        // A request answered 408 (retryable) must not go on to change anything: a client that
        // retries a create would meet its own intern as name_taken. Past the deadline, the handler
        // does not run.
        if (expired) throw new HttpError(408, 'timeout', `${label} exceeded its ${deadline} ms deadline`);
        return handler(req);
      })();
      work.catch(() => undefined);
      try {
        const result = await Promise.race([work, timeout]);
        return send(reply, result);
      } catch (e) {
        return sendError(reply, family, e);
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

export function send(reply: FastifyReply, result: Result): FastifyReply {
  reply.code(result.status);
  for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
  if (result.raw) return reply.send(result.raw);
  if (result.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(result.body));
}

export function sendError(reply: FastifyReply, family: 'intern' | 'byok', e: unknown): FastifyReply {
  const err = toHttpError(e);
  if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
  return reply.code(err.status).type('application/json; charset=utf-8').send(JSON.stringify(envelope(family, err)));
}

/** Anything thrown becomes a service error; fastify's own errors keep their meaning, never their shape. */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  const code = (e as { code?: string }).code;
  const status = (e as { statusCode?: number }).statusCode;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return new HttpError(413, 'payload_too_large', `The body is larger than ${LIMITS.requestBodyBytes} bytes`);
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return new HttpError(415, 'unsupported_media_type', 'The body must be sent with Content-Type: application/json');
  }
  if (status !== undefined && status >= 400 && status < 500) return badBody('The request could not be read');
  return new HttpError(500, 'internal_error', 'Internal error; the same request may be resent');
}
