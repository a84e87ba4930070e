import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, MissingCredentialError, NetworkError, ResponseShapeError, createClient } from '../../../src/client/index.js';
import { parseRetryAfter } from '../../../src/client/http.js';
import { USER_AGENT } from '../../../src/version.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Reply = (req: Seen, res: ServerResponse) => void;

let server: Server;
let base: string;
let seen: Seen[] = [];
let replies: Reply[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const internBody = (over: Record<string, unknown> = {}) => ({
  id: 'i-1', name: 'ab', description: null, instructions: null, model: null, status: 'running', last_failure_message: null,
  progress: null, hostname: null, vault_id: null, attached_vault_id: null, workspace_id: 'w', created_at: 't', updated_at: 't',
  created_by_you: true, icon_sha256: null, ...over,
});
const internError = (status: number, reason: string, retryable: boolean) =>
  json(status, { error: { code: status, message: `failed: ${reason}`, metadata: { reason, retryable } } });

const API_KEY = 'sk-or-v1-secret-api-key-0123456789';
const MGMT = 'sk-or-v1-secret-management-key-99';
const OAUTH = 'oat-secret-oauth-token-abcdef';
const client = (over: Record<string, unknown> = {}) =>
  createClient({ baseUrl: base, credentials: { api_key: API_KEY, management_key: MGMT, oauth_token: OAUTH }, backoffBaseMs: 1, ...over });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      const reply = replies.shift();
      if (!reply) return res.writeHead(599).end();
      reply(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  replies = [];
});

describe('success', () => {
  it("takes any 2xx as the service's yes: an action answered 200 or 204 where the spec shows 202 has happened", async () => {
    replies.push((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"provisioning":true}'));
    replies.push((_r, res) => res.writeHead(204).end());
    replies.push((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"deleted":true}'));
    replies.push((_r, res) => res.writeHead(202).end());
    await client().provisionIntern('i');
    await client().deleteIntern('i');
    await client().deleteVaultSecret('s');
    await client().deleteByok('b');
    expect(seen.map((s) => s.method)).toEqual(['POST', 'DELETE', 'DELETE', 'DELETE']);
  });
});

describe('routes and credentials', () => {
  it('lists interns with the query and the API key, user agent and accept header', async () => {
    replies.push(json(200, { data: [internBody()], has_more: true, next_cursor: 'c1' }));
    const page = await client().listInterns({ limit: 5, status: ['running', 'failed'], starting_after: 'c0' });
    expect(page.next_cursor).toBe('c1');
    const s = seen[0]!;
    expect(s.method).toBe('GET');
    expect(s.url).toBe('/api/v1/interns?limit=5&status=running%2Cfailed&starting_after=c0');
    expect(s.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(s.headers['user-agent']).toBe(USER_AGENT);
    expect(s.headers['content-type']).toBeUndefined();
  });

  it.each([
    ['getIntern', (c: ReturnType<typeof client>) => c.getIntern('i/1'), 'GET', '/api/v1/interns/i%2F1', API_KEY, json(200, internBody())],
    ['updateIntern', (c: ReturnType<typeof client>) => c.updateIntern('i', { model: null }), 'PATCH', '/api/v1/interns/i', API_KEY, json(200, internBody())],
    ['deleteIntern', (c: ReturnType<typeof client>) => c.deleteIntern('i'), 'DELETE', '/api/v1/interns/i', API_KEY, json(202, { deleting: true })],
    ['provisionIntern', (c: ReturnType<typeof client>) => c.provisionIntern('i'), 'POST', '/api/v1/interns/i/provision', API_KEY, json(202, { provisioning: true })],
    ['suspendIntern', (c: ReturnType<typeof client>) => c.suspendIntern('i'), 'POST', '/api/v1/interns/i/suspend', API_KEY, json(200, { suspended: true })],
    ['getDaemonAccess', (c: ReturnType<typeof client>) => c.getDaemonAccess('i'), 'GET', '/api/v1/interns/i/daemon', OAUTH, json(200, { origin: 'http://x', token: 't' })],
    ['listConnections', (c: ReturnType<typeof client>) => c.listConnections('i'), 'GET', '/api/v1/vault/interns/i/connections', API_KEY, json(200, { data: [{ key: 'github' }] })],
    ['listByok', (c: ReturnType<typeof client>) => c.listByok({ provider: 'openai', offset: 50 }), 'GET', '/api/v1/byok?provider=openai&offset=50', MGMT, json(200, { data: [], total_count: 0 })],
    ['deleteByok', (c: ReturnType<typeof client>) => c.deleteByok('b'), 'DELETE', '/api/v1/byok/b', MGMT, json(200, { deleted: true })],
  ])('%s sends %s %s with the right credential', async (_name, call, method, url, token, reply) => {
    replies.push(reply);
    await call(client());
    expect(seen[0]!.method).toBe(method);
    expect(seen[0]!.url).toBe(url);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('sends only the patch fields, as JSON, and acknowledges workspace loss on delete', async () => {
    replies.push(json(200, internBody({ model: null })), json(202, { deleting: true }));
    await client().updateIntern('i', { description: null, name: 'new-name' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ description: null, name: 'new-name' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    await client().deleteIntern('i');
    expect(JSON.parse(seen[1]!.body)).toEqual({ acknowledge_workspace_loss: true });
  });

  it('passes v on the icon route and returns the bytes', async () => {
    replies.push((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([1, 2, 3])));
    const icon = await client().getInternIcon('i', 'abc');
    expect(seen[0]!.url).toBe('/api/v1/interns/i/icon?v=abc');
    expect([...icon.bytes]).toEqual([1, 2, 3]);
    expect(icon.contentType).toBe('image/png');
  });

  it('accepts 201 and an idempotent replay 200 on create, with the Idempotency-Key', async () => {
    replies.push(json(201, internBody()), json(200, internBody()));
    await client().createIntern({ name: 'ab' }, { idempotencyKey: 'k1' });
    await client().createIntern({ name: 'ab' }, { idempotencyKey: 'k1' });
    expect(seen[0]!.headers['idempotency-key']).toBe('k1');
    expect(seen).toHaveLength(2);
  });

  it('fails before any request when the route needs a credential that is missing', async () => {
    const c = createClient({ baseUrl: base, credentials: { api_key: API_KEY } });
    await expect(c.listByok()).rejects.toThrow(MissingCredentialError);
    await expect(c.listByok()).rejects.toThrow('GET /byok needs a management key: set OPENROUTER_MANAGEMENT_KEY or pass --management-key');
    await expect(c.getDaemonAccess('i')).rejects.toThrow('GET /interns/{internId}/daemon needs an OAuth token: set OPENROUTER_OAUTH_TOKEN or pass --oauth-token');
    expect(seen).toHaveLength(0);
    expect(c.configured).toEqual({ api_key: true, management_key: false, oauth_token: false });
  });
});

describe('responses and errors', () => {
  it('names the missing field and the route on a drifted body', async () => {
    const { name: _n, ...broken } = internBody();
    replies.push(json(200, broken));
    const e = await client().getIntern('i').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect((e as Error).message).toContain('GET /interns/{internId}');
    expect((e as Error).message).toContain('name');
  });

  it('tolerates unknown fields and unknown statuses', async () => {
    replies.push(json(200, internBody({ status: 'hibernating', future_field: { a: 1 } })));
    expect((await client().getIntern('i')).status).toBe('hibernating');
  });

  it.each([
    ['intern envelope', json(404, { error: { code: 404, message: 'nope', metadata: { reason: 'not_found', retryable: false } } }), 404, 'not_found'],
    ['byok envelope', json(403, { error: { code: 403, message: 'management key required' } }), 403, null],
    ['older reason-in-code', json(409, { error: { code: 'name_taken', message: 'taken' } }), 409, 'name_taken'],
    // A 5xx that is not JSON is retryable (a proxy): test/unit/client/response-limits.test.ts.
    ['not JSON', (_r: Seen, res: ServerResponse) => res.writeHead(400).end('<html>bad request</html>'), 400, null],
  ])('maps the %s to one ApiError', async (_n, reply, status, reason) => {
    replies.push(reply as Reply);
    const e = (await client().getIntern('i').catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(status);
    expect(e.reason).toBe(reason);
    expect(e.retryable).toBe(false);
    expect(e.route).toBe('GET /interns/{internId}');
  });
});

describe('retries', () => {
  it('retries what the service marks retryable, at most 3 attempts', async () => {
    replies.push(internError(500, 'internal_error', true), internError(408, 'timeout', true), internError(500, 'internal_error', true));
    const e = (await client().getIntern('i').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(500);
    expect(e.retryable).toBe(true);
    expect(seen).toHaveLength(3);
  });

  it('succeeds when a retry does', async () => {
    replies.push(internError(500, 'internal_error', true), json(200, internBody()));
    expect((await client().getIntern('i')).id).toBe('i-1');
    expect(seen).toHaveLength(2);
  });

  it.each([
    ['400', internError(400, 'invalid_body', false)],
    ['409', internError(409, 'name_taken', false)],
    ['non-retryable 500', internError(500, 'configuration_error', false)],
  ])('does not retry %s', async (_n, reply) => {
    replies.push(reply, json(200, internBody()));
    await expect(client().updateIntern('i', { name: 'ab' })).rejects.toThrow(ApiError);
    expect(seen).toHaveLength(1);
  });

  it('honours Retry-After', async () => {
    const c = client();
    replies.push((req, res) => json(500, { error: { code: 500, message: 'x', metadata: { reason: 'internal_error', retryable: true } } }, { 'retry-after': '0' })(req, res), json(200, internBody()));
    await c.getIntern('i');
    expect(seen).toHaveLength(2);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('100')).toBe(100_000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('asked to wait longer than it waits (30 s), fails at once saying how long; a 429 from a proxy is retried too', async () => {
    replies.push(json(429, { error: { code: 429, message: 'Rate limited', metadata: { reason: 'rate_limited', retryable: true } } }, { 'retry-after': '45' }));
    const e = (await client().getIntern('i').catch((x: unknown) => x)) as ApiError;
    expect([e.status, e.retryAfterMs, e.message]).toEqual([429, 45_000, 'Rate limited; try again in 45 s']);
    expect(seen).toHaveLength(1);
    seen = [];
    replies.push((_r, res) => res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' }).end('slow down'), json(200, internBody()));
    expect((await client().getIntern('i')).id).toBe('i-1');
    expect(seen).toHaveLength(2);
    seen = [];
    replies.push(...[1, 2, 3].map(() => json(429, { error: { code: 429, message: 'Rate limited', metadata: { reason: 'rate_limited', retryable: true } } }, { 'retry-after': '0' })));
    const last = (await client().getIntern('i').catch((x: unknown) => x)) as ApiError;
    expect([seen.length, last.message]).toEqual([3, 'Rate limited; try again in 1 s']);
  });

  it("a call's own maxAttempts caps the client's (a bulk action: one try and at most one more)", async () => {
    const limited = () => json(429, { error: { code: 429, message: 'Rate limited', metadata: { reason: 'rate_limited', retryable: true } } }, { 'retry-after': '0' });
    replies.push(limited(), limited(), limited());
    const e = (await client().suspendIntern('i', { maxAttempts: 2 }).catch((x: unknown) => x)) as ApiError;
    expect([e.status, seen.length]).toEqual([429, 2]);
    replies.splice(0);
  });

  it('a connection lost in the middle of the answer says the request reached the service, not that it could not be reached', async () => {
    replies.push((_r, res) => {
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': '40' });
      res.write('{"provis', () => res.socket?.destroy());
    });
    const e = (await client().provisionIntern('i').catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.midAnswer).toBe(true);
    expect(e.message).toMatch(/the connection to 127\.0\.0\.1:\d+ was lost in the middle of its answer .*the request reached the service, so it may have been done/);
    expect(seen).toHaveLength(1);
    // An error whose body was cut says nothing of the request being done.
    replies.push((_r, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'content-length': '40' });
      res.write('{"err', () => res.socket?.destroy());
    });
    const cut = (await client().provisionIntern('i').catch((x: unknown) => x)) as NetworkError;
    expect(cut.midAnswer).toBe(false);
  });

  it('retries a connection reset on GET but not on PATCH', async () => {
    const reset: Reply = (req, res) => res.socket?.destroy();
    replies.push(reset, json(200, internBody()));
    expect((await client().getIntern('i')).id).toBe('i-1');
    expect(seen).toHaveLength(2);
    seen = [];
    replies = [reset, json(200, internBody())];
    await expect(client().updateIntern('i', { name: 'ab' })).rejects.toThrow(NetworkError);
    expect(seen).toHaveLength(1);
  });

  it('times out an attempt that gets no answer', async () => {
    replies.push(() => undefined);
    const e = (await client({ timeoutMs: 100, maxAttempts: 1 }).getIntern('i').catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.timedOut).toBe(true);
    expect(e.message).toBe(`GET /interns/{internId} to ${new URL(base).host} timed out: no answer within 100 ms`);
  });

  it('names the host it could not reach (never the user part of the URL) and says what the code means', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const baseUrl = `http://someone:hunter2@127.0.0.1:${port}/api/v1`;
    const e = (await client({ baseUrl, maxAttempts: 1 }).listInterns().catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toBe(`GET /interns could not reach 127.0.0.1:${port}: ECONNREFUSED (nothing is listening there)`);
    expect(JSON.stringify({ ...e, message: e.message, stack: e.stack })).not.toMatch(/hunter2|someone/);
  });
});

describe('credentials never leak', () => {
  it('keeps every credential out of messages, fields and stacks, even when the service echoes one', async () => {
    const echo = `bad key ${API_KEY} and ${MGMT}`;
    replies.push(json(401, { error: { code: 401, message: echo } }));
    const errors: unknown[] = [await client().getIntern('i').catch((x: unknown) => x)];
    errors.push(await createClient({ baseUrl: base, credentials: { api_key: API_KEY } }).listByok().catch((x: unknown) => x));
    errors.push(await client({ baseUrl: 'http://127.0.0.1:1/api/v1', maxAttempts: 1 }).getIntern('i').catch((x: unknown) => x));
    for (const e of errors) {
      const everything = `${(e as Error).message} ${JSON.stringify(e)} ${(e as Error).stack} ${String((e as { cause?: unknown }).cause)}`;
      for (const secret of [API_KEY, MGMT, OAUTH]) expect(everything).not.toContain(secret);
    }
    expect((errors[0] as ApiError).message).toContain('[redacted]');
  });

  it("keeps credentials out of an error's code and reason, and out of the key's label, which the service could echo too", async () => {
    replies.push(json(401, { error: { code: API_KEY, message: 'no', metadata: { reason: `reason-${OAUTH}`, retryable: false } } }));
    const e = (await client().getIntern('i').catch((x: unknown) => x)) as ApiError;
    expect([e.code, e.reason]).toEqual(['[redacted]', 'reason-[redacted]']);
    replies.push(json(200, { data: { label: API_KEY, usage: 0, limit: null } }));
    expect((await client().getKeyInfo()).label).toBe('[redacted]');
  });
});
