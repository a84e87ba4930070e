/** The client renews an expired OAuth access token by itself (issue 11, item 5), and the sign-in exchange sends no credential. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createClient, exchangeOAuthCode, refreshOAuthToken } from '../../../src/client/index.js';

let server: Server;
let base: string;
/** The bearer the fake daemon route accepts now. */
let valid = 'oat-new';
const seen: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/api/v1/auth/keys') return send(200, { key: 'sk-or-v1-new', user_id: null });
    if (req.headers.authorization === `Bearer ${valid}`) return send(200, { origin: 'http://127.0.0.1:1', token: 'daemon-token' });
    return send(401, { error: { code: 401, message: 'Missing or invalid authentication' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  valid = 'oat-new';
});

describe('OAuth renewal', () => {
  it('a 401 on an OAuth route renews once, shared by concurrent calls, and the calls succeed', async () => {
    let renewals = 0;
    const api = createClient({
      baseUrl: base,
      credentials: { oauth_token: 'oat-old' },
      renewOAuthToken: async () => {
        renewals++;
        await new Promise((r) => setTimeout(r, 20));
        return 'oat-new';
      },
    });
    const got = await Promise.all([api.getDaemonAccess('i-1'), api.getDaemonAccess('i-2'), api.getDaemonAccess('i-3')]);
    expect(got.map((g) => g.token)).toEqual(['daemon-token', 'daemon-token', 'daemon-token']);
    expect(renewals).toBe(1);
    // Later calls use the renewed token straight away.
    seen.length = 0;
    await api.getDaemonAccess('i-4');
    expect(seen.map((s) => s.auth)).toEqual(['Bearer oat-new']);
  });

  it('without a token but with a renewer, renews before the first call', async () => {
    const api = createClient({ baseUrl: base, credentials: {}, renewOAuthToken: async () => 'oat-new' });
    expect(api.configured.oauth_token).toBe(true);
    await api.getDaemonAccess('i-1');
    expect(seen.map((s) => s.auth)).toEqual(['Bearer oat-new']);
  });

  it('a 401 after the renewal is final, and API-key routes never renew', async () => {
    valid = 'nothing-works';
    let renewals = 0;
    const api = createClient({ baseUrl: base, credentials: { oauth_token: 'oat-old', api_key: 'sk-or-v1-k' }, maxAttempts: 1, renewOAuthToken: async () => (renewals++, 'oat-new') });
    await expect(api.getDaemonAccess('i-1')).rejects.toMatchObject({ status: 401 });
    expect(renewals).toBe(1);
    const e = await api.getIntern('i-1').then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(renewals).toBe(1);
  });

  it('the sign-in exchange sends no Authorization header even with every credential configured', async () => {
    const api = createClient({ baseUrl: base, credentials: { api_key: 'sk-or-v1-k', management_key: 'm', oauth_token: 'o' } });
    const got = await api.exchangeAuthCode({ code: 'c', code_verifier: 'v'.repeat(43), code_challenge_method: 'S256' });
    expect(got).toEqual({ key: 'sk-or-v1-new', user_id: null });
    expect(seen).toEqual([{ url: '/api/v1/auth/keys', auth: undefined }]);
  });
});

describe('token endpoint refusals', () => {
  /** A token endpoint that answers every request with `answer` (status and JSON body). */
  const endpoint = async (answer: (form: URLSearchParams) => [number, unknown]) => {
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const [status, json] = answer(new URLSearchParams(body));
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const meta = { issuer: 'x', authorization_endpoint: 'x', token_endpoint: `http://127.0.0.1:${(s.address() as AddressInfo).port}/token` };
    return { meta, close: () => new Promise<void>((r) => s.close(() => r())) };
  };

  it('reads RFC 6749 5.2 errors into the message and reason, never repeating a secret the request sent, the description clipped', async () => {
    const { meta, close } = await endpoint((form) => [400, { error: 'invalid_grant', error_description: `you sent ${form.get('refresh_token') ?? form.get('code')} with ${form.get('code_verifier')}; ${'x'.repeat(2000)}` }]);
    try {
      const e = await refreshOAuthToken(meta, { clientId: 'c', refreshToken: 'ort-secret-refresh-token-value' }).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 400, reason: 'invalid_grant' });
      const message = (e as Error).message;
      expect(message).toMatch(/^POST token_endpoint refused: invalid_grant: you sent \[redacted\] with null; x+$/);
      expect(message).not.toContain('ort-secret-refresh-token-value');
      expect(message.length).toBeLessThan(400);
      const code = await exchangeOAuthCode(meta, { clientId: 'c', code: 'the-code', redirectUri: 'http://127.0.0.1:1/', verifier: 'v'.repeat(43) }).then(() => undefined, (x: unknown) => x);
      expect((code as Error).message).toMatch(/you sent \[redacted\] with \[redacted\]; x/);
    } finally {
      await close();
    }
  });

  it('an answer in another shape (an API error envelope) is named by its status alone', async () => {
    const { meta, close } = await endpoint(() => [401, { error: { code: 401, message: 'nope' } }]);
    try {
      const e = await refreshOAuthToken(meta, { clientId: 'c', refreshToken: 'r' }).then(() => undefined, (x: unknown) => x);
      expect(e).toMatchObject({ status: 401, reason: null, message: 'POST token_endpoint refused: HTTP 401' });
    } finally {
      await close();
    }
  });
});
