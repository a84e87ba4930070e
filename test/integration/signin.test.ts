/** Signing in against the sandbox: the sign-in page and key exchange, and the OAuth server for daemon tokens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ApiError, authorizationUrl, createClient, createPkce, discoverOAuth, exchangeOAuthCode, refreshOAuthToken, signInUrl } from '../../src/client/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
});
afterAll(() => sb.close());

const anonymous = (s = sb) => createClient({ baseUrl: s.baseUrl, credentials: {}, maxAttempts: 1 });
const visit = async (url: string) => {
  const res = await request(url, { method: 'GET' });
  return { status: res.statusCode, location: res.headers.location as string | undefined, text: await res.body.text(), type: String(res.headers['content-type']) };
};
const codeFrom = (location: string | undefined) => new URL(location!).searchParams.get('code')!;
const apiError = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

describe('the sign-in page and POST /auth/keys', () => {
  it('names its sign-in page and issuer in the manifest', () => {
    expect(sb.manifest.sign_in_url).toBe(`${sb.origin}/auth`);
    expect(sb.manifest.issuer).toBe(sb.origin);
  });

  it('redirects to a loopback callback with a code, which buys a working API key of the demo user, once', async () => {
    const pkce = createPkce();
    const page = await visit(signInUrl(sb.baseUrl, pkce, 'http://localhost:53682/callback'));
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^http:\/\/localhost:53682\/callback\?code=/);
    const code = codeFrom(page.location);
    const got = await anonymous().exchangeAuthCode({ code, code_verifier: pkce.verifier, code_challenge_method: 'S256' });
    expect(got.user_id).toBe('user_a');
    expect(got.key).toMatch(/^sk-or-v1-/);
    const me = createClient({ baseUrl: sb.baseUrl, credentials: { api_key: got.key } });
    expect((await me.listInterns()).data.length).toBeGreaterThan(0);
    const info = await me.getKeyInfo();
    expect(info.label).toBe(`sk-...${got.key.slice(-4)}`);
    const again = await apiError(anonymous().exchangeAuthCode({ code, code_verifier: pkce.verifier }));
    expect([again.status, again.reason]).toEqual([400, 'bad_request']);
    expect(again.message).toMatch(/already used or expired/);
  });

  it('refuses a wrong verifier (and the code is spent), and takes plain challenges', async () => {
    const pkce = createPkce();
    const code = codeFrom((await visit(signInUrl(sb.baseUrl, pkce, 'http://127.0.0.1:9/cb'))).location);
    const wrong = await apiError(anonymous().exchangeAuthCode({ code, code_verifier: createPkce().verifier }));
    expect(wrong.message).toMatch(/does not match/);
    expect((await apiError(anonymous().exchangeAuthCode({ code, code_verifier: pkce.verifier }))).status).toBe(400);

    const verifier = 'p'.repeat(50);
    const plain = await visit(`${sb.origin}/auth?callback_url=${encodeURIComponent('http://localhost:9/cb')}&code_challenge=${verifier}&code_challenge_method=plain`);
    const key = await anonymous().exchangeAuthCode({ code: codeFrom(plain.location), code_verifier: verifier, code_challenge_method: 'plain' });
    expect(key.key).toMatch(/^sk-or-v1-/);
  });

  it('headless: shows the code on the page; needs a challenge; refuses a callback that is not loopback', async () => {
    const pkce = createPkce();
    const page = await visit(signInUrl(sb.baseUrl, pkce));
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const code = /<code id="code">([^<]+)<\/code>/.exec(page.text)![1]!;
    expect((await anonymous().exchangeAuthCode({ code, code_verifier: pkce.verifier })).key).toBeTruthy();
    expect((await visit(`${sb.origin}/auth`)).status).toBe(400);
    const evil = await visit(`${sb.origin}/auth?callback_url=${encodeURIComponent('http://evil.example/cb')}&code_challenge=${pkce.challenge}&code_challenge_method=S256`);
    expect(evil.status).toBe(400);
    expect(evil.location).toBeUndefined();
  });

  it('a code expires', async () => {
    const quick = await sandbox({ seed: 'empty', signIn: { codeTtlMs: 0 } });
    try {
      const pkce = createPkce();
      const code = codeFrom((await visit(signInUrl(quick.baseUrl, pkce, 'http://localhost:9/cb'))).location);
      const e = await apiError(anonymous(quick).exchangeAuthCode({ code, code_verifier: pkce.verifier }));
      expect(e.message).toMatch(/expired/);
    } finally {
      await quick.close();
    }
  });
});

describe('the OAuth authorization server', () => {
  const redirectUri = 'http://127.0.0.1:53999/oauth/callback';
  const authorize = async (s: RunningSandbox) => {
    const meta = await discoverOAuth(s.manifest.issuer);
    const pkce = createPkce();
    const back = await visit(authorizationUrl(meta, { clientId: 'intern-tui', redirectUri, pkce, state: 'st-1' }));
    expect(back.status).toBe(302);
    const u = new URL(back.location!);
    expect(u.searchParams.get('state')).toBe('st-1');
    return { meta, pkce, code: u.searchParams.get('code')! };
  };

  it('publishes RFC 8414 metadata, and issues tokens that the daemon route accepts; refresh rotates', async () => {
    const { meta, pkce, code } = await authorize(sb);
    expect(meta).toMatchObject({ issuer: sb.origin, code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'] });
    const tok = await exchangeOAuthCode(meta, { clientId: 'intern-tui', code, redirectUri, verifier: pkce.verifier });
    expect(tok).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'daemon' });
    const access = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: tok.access_token } });
    expect((await access.getDaemonAccess(sb.manifest.interns.running!)).origin).toMatch(/^http:\/\/127\.0\.0\.1:/);

    const next = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! });
    expect(next.access_token).not.toBe(tok.access_token);
    const reused = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! }).catch((e: unknown) => e);
    expect(reused).toMatchObject({ status: 400, reason: 'invalid_grant' });
    const codeAgain = await exchangeOAuthCode(meta, { clientId: 'intern-tui', code, redirectUri, verifier: pkce.verifier }).catch((e: unknown) => e);
    expect(codeAgain).toMatchObject({ reason: 'invalid_grant' });
  });

  it('refuses plain PKCE, a wrong verifier, and a different redirect_uri', async () => {
    const meta = await discoverOAuth(sb.manifest.issuer);
    const pkce = createPkce();
    const plain = new URL(authorizationUrl(meta, { clientId: 'c', redirectUri, pkce, state: 's' }));
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = new URL((await visit(plain.toString())).location!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    const a = await authorize(sb);
    expect(await exchangeOAuthCode(a.meta, { clientId: 'c', code: a.code, redirectUri, verifier: createPkce().verifier }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
    const b = await authorize(sb);
    expect(await exchangeOAuthCode(b.meta, { clientId: 'c', code: b.code, redirectUri: 'http://127.0.0.1:1/other', verifier: b.pkce.verifier }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
  });

  it('an expired access token is refused like an unknown one', async () => {
    const quick = await sandbox({ seed: 'empty', signIn: { accessTokenTtlMs: 0 } });
    try {
      const { meta, pkce, code } = await authorize(quick);
      const tok = await exchangeOAuthCode(meta, { clientId: 'c', code, redirectUri, verifier: pkce.verifier });
      const e = await apiError(createClient({ baseUrl: quick.baseUrl, credentials: { oauth_token: tok.access_token }, maxAttempts: 1 }).getDaemonAccess(quick.manifest.interns.running!));
      expect(e.status).toBe(401);
    } finally {
      await quick.close();
    }
  });
});
