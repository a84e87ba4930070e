/**
 * What the attach transport's upgrade request carries (src/attach/transport.ts): the daemon token
 * in a header, never in the URL, and no offer of permessage-deflate, which would send every
 * keystroke and its echo through zlib on the thread pool.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketTransport } from '../../src/attach/transport.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A loopback server that records the first upgrade request and refuses it. */
async function recorder(): Promise<{ origin: string; request: Promise<IncomingMessage> }> {
  const server = createServer();
  servers.push(server);
  const request = new Promise<IncomingMessage>((resolve) => {
    server.on('upgrade', (req, socket) => {
      resolve(req);
      // The client may hang up first (the test closes it): a reset is not this test's failure.
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, request };
}

describe('the attach transport\'s upgrade request', () => {
  it('carries the token in the authorization header only, and offers no compression', async () => {
    const { origin, request } = await recorder();
    const token = 'daemon-token-never-in-a-url';
    const t = new WebSocketTransport({
      access: async () => ({ origin, token, expires_at: new Date(Date.now() + 60_000).toISOString() }) as never,
      cols: 80,
      rows: 24,
      handlers: { output() {}, state() {}, gap() {}, exit() {} },
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    t.connect();
    const req = await request;
    t.close();
    expect(req.headers.authorization).toBe(`Bearer ${token}`);
    expect(req.url).not.toContain(token);
    expect(req.headers['sec-websocket-protocol']).toBeTruthy();
    expect(req.headers['sec-websocket-extensions']).toBeUndefined();
  });
});
