/**
 * The request core: picks the route's credential, sends with a timeout, retries
 * only what the service marks retryable (and connection resets on GET), maps
 * both error envelopes to ApiError and parses success bodies with the contract.
 */
import { type IncomingMessage, request } from 'node:http';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { AnyErrorEnvelopeSchema, RETRYABLE_REASONS, describeIssues } from '../contract/errors.js';
import { type RouteSpec, fillPath, routeLabel } from '../contract/routes.js';
import { USER_AGENT } from '../version.js';
import { ApiError, MissingCredentialError, NetworkError, RETRY_AFTER_MAX_MS, ResponseShapeError, ResponseTooLargeError, waitSeconds } from './errors.js';
import type { CallOptions, ClientOptions, Credentials } from './types.js';
import type * as Https from 'node:https';
import { importExternal } from '../importExternal.js';

export interface RequestSpec {
  route: RouteSpec;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Largest body read for this request; default the client's maxResponseBytes. */
  maxBytes?: number;
}

/** Default limits on what the client reads (issue 13): generous, but never unbounded. */
export const RESPONSE_LIMITS = { jsonBytes: 8 << 20, iconBytes: 16 << 20 } as const;

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A response as the client reads it: header names lower-cased, the body a byte stream. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * A failed exchange as a NetworkError carrying only the code (the socket's, such as ECONNREFUSED):
 * error objects can hold the request, headers included, so nothing else crosses over.
 */
function networkError(e: unknown, label: string, host: string, midAnswer = false): NetworkError {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof err.cause?.code === 'string' ? err.cause.code : err.code;
  return new NetworkError(label, typeof code === 'string' ? code : midAnswer ? 'connection lost' : 'connection failed', false, host, midAnswer);
}

/**
 * One HTTP exchange through node:http (node:https for https URLs, loaded on first use). Not fetch:
 * Node's fetch compiles its bundled undici on first use, about 50 ms of every command's start
 * against about 15 ms for node:http (bench/README.md). `signal` covers the whole exchange, body
 * included. Redirects are not followed (the service sends none; a redirect is answered as what it is).
 */
export async function exchange(url: URL | string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }, label: string): Promise<RawResponse> {
  const target = typeof url === 'string' ? new URL(url) : url;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new NetworkError(label, `unsupported scheme ${target.protocol}`, false, target.host);
  const send = target.protocol === 'https:' ? (await importExternal<typeof Https>('node:https')).request : request;
  const headers = init.body === undefined ? init.headers : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
  let res: IncomingMessage;
  try {
    res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(target, { method: init.method, headers, signal: init.signal }, resolve);
      req.once('error', reject);
      req.end(init.body);
    });
  } catch (e) {
    throw networkError(e, label, target.host);
  }
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: res.statusCode ?? 0, headers: flat, body: Readable.toWeb(res) as ReadableStream<Uint8Array> };
}

export class HttpCore {
  readonly baseUrl: string;
  private readonly credentials: Credentials;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly maxResponseBytes: number;
  readonly maxIconBytes: number;
  private readonly renewOAuthToken: (() => Promise<string>) | undefined;
  /** One renewal at a time: concurrent 401s share it. */
  private renewing: Promise<string> | undefined;
  /** Delay function; tests may observe it. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.credentials = { ...options.credentials };
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.backoffBaseMs = options.backoffBaseMs ?? 250;
    this.maxResponseBytes = options.maxResponseBytes ?? RESPONSE_LIMITS.jsonBytes;
    this.maxIconBytes = options.maxIconBytes ?? RESPONSE_LIMITS.iconBytes;
    this.renewOAuthToken = options.renewOAuthToken;
  }

  /**
   * Sends; when an OAuth route answers 401 and a renewer is configured, renews the access token once
   * (shared by concurrent callers) and sends again with it.
   */
  async send(spec: RequestSpec, opts: CallOptions = {}): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    if (spec.route.credential === 'oauth_token' && !this.credentials.oauth_token && this.renewOAuthToken) {
      this.credentials.oauth_token = await this.renew(this.renewOAuthToken);
    }
    const before = this.credentials.oauth_token;
    try {
      return await this.sendOnce(spec, opts);
    } catch (e) {
      const renew = this.renewOAuthToken;
      if (!(e instanceof ApiError) || e.status !== 401 || spec.route.credential !== 'oauth_token' || !renew) throw e;
      // Another call may have renewed it meanwhile; else renew now.
      if (this.credentials.oauth_token === before) this.credentials.oauth_token = await this.renew(renew);
      return this.sendOnce(spec, opts);
    }
  }

  private renew(renew: () => Promise<string>): Promise<string> {
    this.renewing ??= renew().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** The URL, headers and payload of a request; throws MissingCredentialError before anything is sent. */
  private prepare(spec: RequestSpec): { url: URL; headers: Record<string, string>; payload: string | undefined; label: string } {
    const label = routeLabel(spec.route);
    const kind = spec.route.credential;
    const token = kind === 'none' ? undefined : this.credentials[kind];
    if (kind !== 'none' && !token) throw new MissingCredentialError(kind, label);

    const url = new URL(this.baseUrl + fillPath(spec.route.path, spec.params ?? {}));
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'user-agent': USER_AGENT,
      accept: 'application/json',
      ...spec.headers,
    };
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    return { url, headers, payload, label };
  }

  /**
   * One attempt and no retry (a prompt must never be sent twice): answers the status, headers and the
   * body as a stream when the status is the route's success or one of `alsoOk`. The client's timeout
   * covers the wait for the headers only; aborting `opts.signal` later closes the connection.
   */
  async openStream(
    spec: RequestSpec & { alsoOk?: number[] },
    opts: CallOptions = {},
  ): Promise<{ status: number; headers: Record<string, string>; body: ReadableStream<Uint8Array>; label: string }> {
    const { url, headers, payload, label } = this.prepare(spec);
    // This signal covers the wait for the headers only: the stream outlives this call, and its reader
    // cancels it (see chat.ts), which closes the connection.
    const waiting = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      waiting.abort();
    }, this.timeoutMs);
    const stop = () => waiting.abort();
    if (opts.signal?.aborted) waiting.abort();
    opts.signal?.addEventListener('abort', stop, { once: true });
    let res: RawResponse;
    try {
      res = await exchange(url, { method: spec.route.method, headers, body: payload, signal: waiting.signal }, label);
    } catch (e) {
      if (opts.signal?.aborted) throw new NetworkError(label, 'aborted', false);
      if (timedOut) throw new NetworkError(label, `no answer within ${this.timeoutMs} ms`, true, url.host);
      throw e;
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stop);
    }
    if (res.status === spec.route.success || spec.alsoOk?.includes(res.status)) {
      return { status: res.status, headers: res.headers, body: res.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() }), label };
    }
    const body = await readBody(res, spec.maxBytes ?? this.maxResponseBytes, label);
    const error = this.toApiError(res.status, body, label);
    error.retryAfterMs = parseRetryAfter(res.headers['retry-after']);
    throw withWait(error);
  }

  /** Sends the request and answers the raw success response (status, headers, body bytes). */
  private async sendOnce(spec: RequestSpec, opts: CallOptions = {}): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const { url, headers, payload, label } = this.prepare(spec);

    for (let attempt = 1; ; attempt++) {
      let retryAfterMs: number | undefined;
      let failure: Error;
      try {
        const res = await this.attempt(url, spec.route.method, headers, payload, label, spec.maxBytes ?? this.maxResponseBytes, opts.signal);
        // Any 2xx is the service's yes, as gh takes it: the table's status is what the spec shows, and
        // a service answering 200 where it said 202 has still done it (reported as failed, the user
        // would retry a deletion that happened).
        if (res.status >= 200 && res.status < 300) return res;
        const error = this.toApiError(res.status, res.body, label);
        retryAfterMs = parseRetryAfter(res.headers['retry-after']);
        error.retryAfterMs = retryAfterMs;
        if (!error.retryable) throw error;
        failure = error;
      } catch (e) {
        if (e instanceof ApiError && !e.retryable) throw e;
        if (e instanceof NetworkError) {
          const resetOnGet = spec.route.method === 'GET' && !e.timedOut && RESET_CODES.has(e.cause_);
          if (!resetOnGet || opts.signal?.aborted) throw e;
        } else if (!(e instanceof ApiError)) {
          throw e;
        }
        failure = e as Error;
      }
      // Out of attempts, or asked to wait longer than a command should hang without a word: said
      // at once, with the wait.
      const tooLong = retryAfterMs !== undefined && retryAfterMs > RETRY_AFTER_MAX_MS;
      if (attempt >= Math.min(this.maxAttempts, opts.maxAttempts ?? Infinity) || opts.signal?.aborted || tooLong) throw failure instanceof ApiError ? withWait(failure) : failure;
      const backoff = Math.random() * this.backoffBaseMs * 2 ** (attempt - 1);
      await this.sleep(Math.min(retryAfterMs ?? backoff, RETRY_AFTER_MAX_MS), opts.signal);
    }
  }

  /** Sends and parses a JSON success body with the schema. */
  async json<S extends z.ZodType>(schema: S, spec: RequestSpec, opts?: CallOptions): Promise<z.output<S>> {
    const res = await this.send(spec, opts);
    const label = routeLabel(spec.route);
    let data: unknown;
    try {
      data = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new ResponseShapeError(label, 'the body is not JSON');
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new ResponseShapeError(label, describeIssues(parsed.error));
    return parsed.data;
  }

  private async attempt(
    url: URL,
    method: string,
    headers: Record<string, string>,
    payload: string | undefined,
    label: string,
    maxBytes: number,
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let answered = false;
    try {
      const res = await exchange(url, { method, headers, body: payload, signal: combined }, label);
      // A yes whose body was cut: done, perhaps. An error's cut body says nothing of the sort.
      answered = res.status >= 200 && res.status < 300;
      const body = await readBody(res, maxBytes, label);
      return { status: res.status, headers: res.headers, body };
    } catch (e) {
      if (e instanceof ResponseTooLargeError) throw e;
      if (signal?.aborted) throw new NetworkError(label, 'aborted', false);
      if (timeout.aborted) throw new NetworkError(label, `no answer within ${this.timeoutMs} ms`, true, url.host);
      // A body cut off mid-read: the request got there, which a write must not be told it did not.
      throw e instanceof NetworkError ? e : networkError(e, label, url.host, answered);
    }
  }

  /** Maps either error envelope (or a body that is neither) to one ApiError, with credentials redacted. */
  toApiError(status: number, body: Buffer, label: string): ApiError {
    let parsed: ReturnType<typeof AnyErrorEnvelopeSchema.safeParse> | undefined;
    try {
      parsed = AnyErrorEnvelopeSchema.safeParse(JSON.parse(body.toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      // Not the service's envelope. A 5xx like that is most likely a proxy or load balancer in the way
      // (an HTML 502/503): transient, so retried with backoff, and said as it is rather than guessed at.
      if (status >= 500) {
        return new ApiError(status, status, null, true, `${label}: the service or a proxy answered HTTP ${status}`, label);
      }
      // Too Many Requests means the same from a proxy as from the service: wait, and ask again.
      if (status === 429) return new ApiError(status, status, 'rate_limited', true, `${label}: rate limited (HTTP 429)`, label);
      return new ApiError(status, status, null, false, this.redact(`${label} failed with HTTP ${status}`), label);
    }
    const { code, message, metadata } = parsed.data.error;
    const reason = metadata?.reason ?? (typeof code === 'string' ? code : null);
    const retryable = metadata?.retryable ?? (reason !== null && metadata === undefined && RETRYABLE_REASONS.has(reason));
    return new ApiError(status, typeof code === 'string' ? this.redact(code) : code, reason === null ? null : this.redact(reason), retryable, this.redact(message), label);
  }

  /** Removes any configured credential from text that came from the service. */
  redact(text: string): string {
    let out = text;
    for (const secret of Object.values(this.credentials)) {
      if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
    }
    return out;
  }
}

/**
 * Reads a response body up to `maxBytes`: refuses at once a larger Content-Length, and stops
 * reading (closing the connection) as soon as the bytes received pass the limit.
 */
export async function readBody(res: Pick<RawResponse, 'headers' | 'body'>, maxBytes: number, label: string): Promise<Buffer> {
  if (res.body === null) return Buffer.alloc(0);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(label, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop early (the throw) cancels the stream, which closes the connection.
  for await (const chunk of res.body) {
    total += chunk.length;
    if (total > maxBytes) throw new ResponseTooLargeError(label, maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), as the service asked: the client caps its own waits, not this. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** An error the service said to wait after: its message says how long (once), for a person to know when to try again. */
function withWait(error: ApiError): ApiError {
  if (error.retryAfterMs === undefined || error.message.includes('try again in')) return error;
  error.message = `${error.message}; try again in ${waitSeconds(error.retryAfterMs)} s`;
  return error;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
