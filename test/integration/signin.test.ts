/** Sign-in on the sandbox: the /auth page, POST /auth/keys, and the OAuth authorization server (issue 9, item 4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createClient } from '../../src/client/index.js';
import { ApiError } from '../../src/client/errors.js';
import { AuthServerMetadataSchema, OAUTH_METADATA_PATH, codeChallenge, makeCodeVerifier } from '../../src/contract/auth.js';
import { InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'demo', oauthAccessTtlMs: 60_000 });
});
afterAll(() => sb.close());

const anon = () => createClient({ baseUrl: sb.baseUrl, credentials: {}, maxAttempts: 1 });
const CALLBACK = 'http://localhost:54321/callback';

/** Follows the sign-in page like a browser that does not follow redirects: answers status, Location and text. */
async function open(url: string): Promise<{ status: number; location: string | undefined; text: string }> {
  const res = await request(url, { method: 'GET' });
  const text = await res.body.text();
  const loc = res.headers.location;
  return { status: res.statusCode, location: typeof loc === 'string' ? loc : undefined, text };
}

async function codeFor(challenge: string, method: 'S256' | 'plain' = 'S256'): Promise<string> {
  const u = new URL(sb.manifest.auth_url);
  u.searchParams.set('callback_url', CALLBACK);
  u.searchParams.set('code_challenge', challenge);
  u.searchParams.set('code_challenge_method', method);
  const r = await open(u.toString());
  expect(r.status).toBe(302);
  const loc = new URL(r.location!);
  expect(`${loc.origin}${loc.pathname}`).toBe(CALLBACK);
  return loc.searchParams.get('code')!;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).status).toBe(400);
  return e as ApiError;
}

describe('PKCE sign-in for an API key', () => {
  it('the manifest names the sign-in page and the issuer, on the sandbox origin outside /api/v1', () => {
    expect(sb.manifest.auth_url).toBe(`${sb.origin}/auth`);
    expect(sb.manifest.oauth_issuer).toBe(sb.origin);
  });

  it('S256: redirects to the callback with a code, which exchanges once for a working API key', async () => {
    const verifier = makeCodeVerifier();
    const code = await codeFor(codeChallenge(verifier));
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const got = await anon().exchangeAuthCode({ code, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(got.key).toMatch(/^sk-or-v1-/);
    expect(got.user_id).toBe('user_a');
    const me = createClient({ baseUrl: sb.baseUrl, credentials: { api_key: got.key }, maxAttempts: 1 });
    const list = await me.listInterns();
    expect(list.data.length).toBeGreaterThan(0);
    const info = await me.getKeyInfo();
    expect(info.label).not.toContain(got.key.slice(12));
    // Single use: the same code and verifier again is refused.
    const again = await refusal(anon().exchangeAuthCode({ code, code_verifier: verifier, code_challenge_method: 'S256' }));
    expect(again.message).toMatch(/unknown or was already used/);
  });

  it('plain challenges work too, and the method must match the one the page was given', async () => {
    const verifier = makeCodeVerifier();
    const code = await codeFor(verifier, 'plain');
    const got = await anon().exchangeAuthCode({ code, code_verifier: verifier, code_challenge_method: 'plain' });
    expect(got.key).toMatch(/^sk-or-v1-/);
    const v2 = makeCodeVerifier();
    const c2 = await codeFor(codeChallenge(v2));
    const e = await refusal(anon().exchangeAuthCode({ code: c2, code_verifier: v2, code_challenge_method: 'plain' }));
    expect(e.message).toMatch(/does not match/);
  });

  it('a wrong verifier is refused and burns the code', async () => {
    const verifier = makeCodeVerifier();
    const code = await codeFor(codeChallenge(verifier));
    const e = await refusal(anon().exchangeAuthCode({ code, code_verifier: makeCodeVerifier(), code_challenge_method: 'S256' }));
    expect(e.message).toMatch(/code_verifier does not match/);
    await refusal(anon().exchangeAuthCode({ code, code_verifier: verifier, code_challenge_method: 'S256' }));
  });

  it('an unknown code and a malformed body are refused with 400 in the envelope, with no credential sent', async () => {
    const r = await raw(sb, 'POST', '/auth/keys', { body: JSON.stringify({ code: 'nope', code_verifier: makeCodeVerifier() }), headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(InternErrorEnvelopeSchema.safeParse(r.json).success).toBe(true);
    const bad = await raw(sb, 'POST', '/auth/keys', { body: JSON.stringify({ code: 'x', code_verifier: 'short' }), headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect((bad.json as { error: { message: string } }).error.message).toMatch(/code_verifier/);
    const notJson = await raw(sb, 'POST', '/auth/keys', { body: 'code=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(notJson.status).toBe(400);
  });

  it('a code expires after 10 minutes', async () => {
    const verifier = makeCodeVerifier();
    const code = await codeFor(codeChallenge(verifier));
    const moved = await raw(sb, 'POST', '/__sandbox/clock', { root: true, token: sb.manifest.control_token, body: JSON.stringify({ advance_ms: 10 * 60_000 + 1 }), headers: { 'content-type': 'application/json' } });
    expect(moved.status).toBe(200);
    const e = await refusal(anon().exchangeAuthCode({ code, code_verifier: verifier, code_challenge_method: 'S256' }));
    expect(e.message).toMatch(/expired/);
  });

  it('headless mode (no callback) shows the code on the page and requires a challenge', async () => {
    const verifier = makeCodeVerifier();
    const page = await open(`${sb.manifest.auth_url}?code_challenge=${codeChallenge(verifier)}&code_challenge_method=S256`);
    expect(page.status).toBe(200);
    const code = /<code id="code"[^>]*>([^<]+)<\/code>/.exec(page.text)?.[1];
    expect(code).toBeTruthy();
    const got = await anon().exchangeAuthCode({ code: code!, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(got.key).toMatch(/^sk-or-v1-/);
    expect((await open(sb.manifest.auth_url)).status).toBe(400);
  });

  it('refuses a callback that is not loopback http, and a bad challenge method', async () => {
    for (const cb of ['https://evil.example/cb', 'http://evil.example:80/cb', 'http://user:pw@localhost:5/cb', 'http://localhost/cb']) {
      const r = await open(`${sb.manifest.auth_url}?callback_url=${encodeURIComponent(cb)}`);
      expect(r.status, cb).toBe(400);
      expect(r.location).toBeUndefined();
    }
    const r = await open(`${sb.manifest.auth_url}?callback_url=${encodeURIComponent(CALLBACK)}&code_challenge=${makeCodeVerifier()}&code_challenge_method=S512`);
    expect(r.status).toBe(400);
    // 127.0.0.1 and [::1] are loopback too.
    expect((await open(`${sb.manifest.auth_url}?callback_url=${encodeURIComponent('http://127.0.0.1:9/callback')}`)).status).toBe(302);
    expect((await open(`${sb.manifest.auth_url}?callback_url=${encodeURIComponent('http://[::1]:9/callback')}`)).status).toBe(302);
  });
});

describe('OAuth authorization server', () => {
  const redirect = 'http://127.0.0.1:40000/callback';
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const token = async (fields: Record<string, string>) => {
    const res = await request(`${sb.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(fields) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown>, cache: res.headers['cache-control'] };
  };
  const metadata = async () => {
    const res = await request(`${sb.manifest.oauth_issuer}${OAUTH_METADATA_PATH}`);
    return AuthServerMetadataSchema.parse(await res.body.json());
  };
  async function authorize(verifier: string, over: Record<string, string> = {}) {
    const md = await metadata();
    const u = new URL(md.authorization_endpoint);
    const params = { response_type: 'code', client_id: 'intern-tui', redirect_uri: redirect, code_challenge: codeChallenge(verifier), code_challenge_method: 'S256', state: 'st-1', ...over };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    const r = await open(u.toString());
    return { ...r, params: r.location ? new URL(r.location).searchParams : undefined };
  }

  it('publishes RFC 8414 metadata whose issuer is the manifest issuer', async () => {
    const md = await metadata();
    expect(md.issuer).toBe(sb.manifest.oauth_issuer);
    expect(md.code_challenge_methods_supported).toEqual(['S256']);
    expect(md.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(md.token_endpoint.startsWith(sb.origin)).toBe(true);
  });

  it('code + PKCE gives an access token the daemon route accepts, and a refresh token that rotates', async () => {
    const verifier = makeCodeVerifier();
    const auth = await authorize(verifier);
    expect(auth.status).toBe(302);
    expect(auth.params!.get('state')).toBe('st-1');
    const code = auth.params!.get('code')!;
    const t = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect, client_id: 'intern-tui' });
    expect(t.status).toBe(200);
    expect(t.cache).toBe('no-store');
    expect(t.json).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
    const access = t.json.access_token as string;
    const refresh = t.json.refresh_token as string;

    const oauth = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: access }, maxAttempts: 1 });
    const daemon = await oauth.getDaemonAccess(sb.manifest.interns.running!);
    expect(daemon.token).toBeTruthy();

    // The code was single use.
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect, client_id: 'intern-tui' })).json.error).toBe('invalid_grant');

    const r1 = await token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: 'intern-tui' });
    expect(r1.status).toBe(200);
    expect(r1.json.refresh_token).not.toBe(refresh);
    const fresh = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: r1.json.access_token as string }, maxAttempts: 1 });
    await fresh.getDaemonAccess(sb.manifest.interns.running!);
    // The old refresh token no longer works.
    const r2 = await token({ grant_type: 'refresh_token', refresh_token: refresh });
    expect(r2).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  });

  it('an access token stops working when it expires; a refresh token still renews it', async () => {
    const verifier = makeCodeVerifier();
    const code = (await authorize(verifier)).params!.get('code')!;
    const t = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect, client_id: 'intern-tui' });
    const moved = await raw(sb, 'POST', '/__sandbox/clock', { root: true, token: sb.manifest.control_token, body: JSON.stringify({ advance_ms: 61_000 }), headers: { 'content-type': 'application/json' } });
    expect(moved.status).toBe(200);
    const old = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: t.json.access_token as string }, maxAttempts: 1 });
    const e = await old.getDaemonAccess(sb.manifest.interns.running!).then(() => undefined, (x: unknown) => x);
    expect((e as ApiError).status).toBe(401);
    const r = await token({ grant_type: 'refresh_token', refresh_token: t.json.refresh_token as string });
    expect(r.status).toBe(200);
  });

  it('refuses wrong verifier, wrong redirect, plain PKCE, missing PKCE, foreign redirect and unknown grants', async () => {
    const v = makeCodeVerifier();
    let code = (await authorize(v)).params!.get('code')!;
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: makeCodeVerifier(), redirect_uri: redirect, client_id: 'intern-tui' })).json.error).toBe('invalid_grant');
    code = (await authorize(v)).params!.get('code')!;
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: v, redirect_uri: 'http://127.0.0.1:40001/callback', client_id: 'intern-tui' })).json.error).toBe('invalid_grant');
    const plain = await authorize(v, { code_challenge: v, code_challenge_method: 'plain' });
    expect(plain.params!.get('error')).toBe('invalid_request');
    expect(plain.params!.get('code')).toBeNull();
    const none = await authorize(v, { code_challenge: '' });
    expect(none.params!.get('error')).toBe('invalid_request');
    const foreign = await authorize(v, { redirect_uri: 'https://evil.example/cb' });
    expect(foreign.status).toBe(400);
    expect(foreign.location).toBeUndefined();
    expect((await token({ grant_type: 'password', username: 'a', password: 'b' })).json.error).toBe('unsupported_grant_type');
    const json = await request(`${sb.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.statusCode).toBe(400);
    await json.body.dump();
  });

  it('an API key from the sign-in page is refused on the daemon route (it is not an OAuth token)', async () => {
    const verifier = makeCodeVerifier();
    const code = await codeFor(codeChallenge(verifier));
    const { key } = await anon().exchangeAuthCode({ code, code_verifier: verifier });
    const asKey = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: key }, maxAttempts: 1 });
    const e = await asKey.getDaemonAccess(sb.manifest.interns.running!).then(() => undefined, (x: unknown) => x);
    expect(e).toMatchObject({ status: 403, reason: 'personal_identity_required' });
  });
});
