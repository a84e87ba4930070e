/**
 * Defect 5 of issue 13: the client has a maximum response size (an endless 200
 * body took the TUI to 5.6 GB). Defect 9: a 5xx without the service's JSON
 * envelope (a proxy's HTML 502/503) is retried with backoff and reported as
 * "the service or a proxy answered HTTP 502", not as a configuration error.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ResponseTooLargeError, createClient } from '../../../src/client/index.js';
import { explain } from '../../../src/tui/components/ErrorView.js';

type Reply = (res: ServerResponse) => void;
let server: Server;
let base: string;
let replies: Reply[] = [];
let requests = 0;
/** Bytes the endless responses managed to write before the client hung up. */
let written = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    requests++;
    const reply = replies.shift();
    if (!reply) return res.writeHead(599).end();
    reply(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  replies = [];
  requests = 0;
  written = 0;
});

/** A 200 whose body never ends (no Content-Length), written as fast as the client reads. */
const endless =
  (contentType = 'application/json'): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write('{"data":[');
    const chunk = Buffer.alloc(64 << 10, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) written += chunk.length;
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => undefined);
    pump();
  };
const html = (status: number): Reply => (res) => {
  res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status} Bad Gateway</h1>nginx</body></html>`);
};
const client = (over: Record<string, unknown> = {}) =>
  createClient({ baseUrl: base, credentials: { api_key: 'sk-test-api-key-000000000000' }, backoffBaseMs: 1, ...over });

describe('response size limit (defect 5)', () => {
  it('stops reading an endless JSON body at the limit and names the route and the limit', async () => {
    replies.push(endless());
    const err = await client({ maxResponseBytes: 1 << 20 }).listInterns().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    const e = err as ResponseTooLargeError;
    expect(e.route).toBe('GET /interns');
    expect(e.limit).toBe(1 << 20);
    expect(e.message).toContain('GET /interns');
    expect(e.message).toContain('1 MiB');
    // It stopped reading: the server could not push much more than the limit (socket buffers aside).
    expect(written).toBeLessThan(8 << 20);
    expect(requests).toBe(1);
  });

  it('has a default limit of 8 MiB for JSON', async () => {
    replies.push(endless());
    const err = await client().listInterns().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limit).toBe(8 << 20);
    expect(written).toBeLessThan(24 << 20);
  });

  it('refuses at once a Content-Length over the limit', async () => {
    replies.push((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 << 20) });
      res.write('{');
    });
    const err = await client({ maxResponseBytes: 1 << 20 }).listInterns().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
  });

  it('icons have their own, separate limit', async () => {
    const icon = Buffer.alloc(3 << 20, 1);
    replies.push((res) => res.writeHead(200, { 'content-type': 'image/png' }).end(icon));
    const got = await client({ maxResponseBytes: 1 << 20 }).getInternIcon('i-1');
    expect(got.bytes.length).toBe(icon.length);
    replies.push(endless('image/png'));
    const err = await client({ maxIconBytes: 2 << 20 }).getInternIcon('i-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limit).toBe(2 << 20);
    expect((err as ResponseTooLargeError).route).toBe('GET /interns/{internId}/icon');
  });
});

describe('a 5xx without the envelope (defect 9)', () => {
  it('is retried with backoff and succeeds when the service comes back', async () => {
    replies.push(html(502), html(503), (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"has_more":false}'));
    const c = createClient({ baseUrl: base, credentials: { api_key: 'sk-test-api-key-000000000000' }, backoffBaseMs: 1 });
    await expect(c.listInterns()).resolves.toMatchObject({ data: [] });
    expect(requests).toBe(3);
  });

  it('says the service or a proxy answered, and the TUI shows that, not a configuration error', async () => {
    replies.push(html(502), html(502), html(502));
    const err = await client().listInterns().catch((e: unknown) => e);
    expect(requests).toBe(3);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(502);
    expect(e.retryable).toBe(true);
    expect(e.message).toContain('the service or a proxy answered HTTP 502');
    const shown = explain(e);
    expect(shown.message).toContain('the service or a proxy answered HTTP 502');
    expect(`${shown.title} ${shown.hint}`).not.toMatch(/configuration|will not help/i);
    expect(shown.retryable).toBe(true);
  });

  it('a 5xx with the envelope keeps the service own retryable flag', async () => {
    replies.push((res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 500, message: 'bad config', metadata: { reason: 'configuration_error', retryable: false } } })),
    );
    const err = (await client().listInterns().catch((e: unknown) => e)) as ApiError;
    expect(requests).toBe(1);
    expect(err.retryable).toBe(false);
  });
});
