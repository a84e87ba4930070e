/** Signing in against the sandbox: the sign-in page and key exchange, and the OAuth server for daemon tokens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ApiError, authorizationUrl, createClient, createPkce, discoverOAuth, exchangeOAuthCode, refreshOAuthToken, signInUrl } from '../../src/client/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { raw, sandbox } from '../support/sandbox.js';

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

describe('the sign-in code and PKCE rules (docs/sandbox.md, "Signing in")', () => {
  const callback = encodeURIComponent('http://localhost:9/cb');
  const codeFor = async (query: string) => {
    const page = await visit(`${sb.origin}/auth?callback_url=${callback}${query}`);
    expect(page.status, page.text.slice(0, 200)).toBe(302);
    return codeFrom(page.location);
  };
  const exchange = (body: Record<string, unknown>) =>
    raw(sb, 'POST', '/auth/keys', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it('none: a code issued without a challenge is redeemed without a verifier, and refuses one (a PKCE downgrade)', async () => {
    const ok = await exchange({ code: await codeFor('') });
    expect(ok.status).toBe(200);
    expect((ok.json as { key: string }).key).toMatch(/^sk-or-v1-/);
    expect((await exchange({ code: await codeFor(''), code_challenge_method: null })).status).toBe(200);
    const downgrade = await exchange({ code: await codeFor(''), code_verifier: createPkce().verifier, code_challenge_method: 'S256' });
    expect(downgrade.status).toBe(400);
    expect(downgrade.text).toMatch(/without a code_challenge/);
  });

  it('S256 and plain: a code issued for a challenge needs its verifier, by its own method', async () => {
    const pkce = createPkce();
    const s256 = `&code_challenge=${pkce.challenge}&code_challenge_method=S256`;
    const without = await exchange({ code: await codeFor(s256) });
    expect([without.status, without.text]).toEqual([400, expect.stringMatching(/code_verifier is required/)]);
    const asPlain = await exchange({ code: await codeFor(s256), code_verifier: pkce.verifier, code_challenge_method: 'plain' });
    expect([asPlain.status, asPlain.text]).toEqual([400, expect.stringMatching(/not the method of the code's challenge \(S256\)/)]);
    expect((await exchange({ code: await codeFor(s256), code_verifier: pkce.verifier })).status).toBe(200);
    // A challenge without a method is plain (RFC 7636 4.3).
    const verifier = 'q'.repeat(43);
    expect((await exchange({ code: await codeFor(`&code_challenge=${verifier}`), code_verifier: verifier, code_challenge_method: 'plain' })).status).toBe(200);
  });

  it('refuses a challenge that no verifier can match: an S256 one that is not 43 base64url characters, a plain one that is no verifier', async () => {
    for (const query of [`&code_challenge=${'a'.repeat(50)}&code_challenge_method=S256`, `&code_challenge=${'a'.repeat(42)}&code_challenge_method=plain`, '&code_challenge_method=S256']) {
      const page = await visit(`${sb.origin}/auth?callback_url=${callback}${query}`);
      expect([page.status, page.location], query).toEqual([400, undefined]);
    }
  });

  it('a code lasts 10 minutes (the page says so) and is spent by any attempt, right or wrong', async () => {
    const pkce = createPkce();
    expect((await visit(signInUrl(sb.baseUrl, pkce))).text).toContain('It works once, within 10 minutes.');
    const code = await codeFor(`&code_challenge=${pkce.challenge}&code_challenge_method=S256`);
    expect((await exchange({ code, code_verifier: createPkce().verifier })).status).toBe(400);
    const again = await exchange({ code, code_verifier: pkce.verifier });
    expect([again.status, again.text]).toEqual([400, expect.stringMatching(/already used or expired/)]);
  });
});

describe('the OAuth authorization server', () => {
  const redirectUri = 'http://127.0.0.1:53999/oauth/callback';
  const authorize = async (s: RunningSandbox, clientId = 'intern-tui') => {
    const meta = await discoverOAuth(s.manifest.issuer);
    const pkce = createPkce();
    const back = await visit(authorizationUrl(meta, { clientId, redirectUri, pkce, state: 'st-1' }));
    expect(back.status).toBe(302);
    const u = new URL(back.location!);
    expect(u.searchParams.get('state')).toBe('st-1');
    return { meta, pkce, code: u.searchParams.get('code')! };
  };
  const signIn = async (s = sb) => {
    const a = await authorize(s);
    return { ...a, tok: await exchangeOAuthCode(a.meta, { clientId: 'intern-tui', code: a.code, redirectUri, verifier: a.pkce.verifier }) };
  };
  const daemonStatus = async (accessToken: string) =>
    (await raw(sb, 'GET', `/interns/${sb.manifest.interns.running!}/daemon`, { token: accessToken })).status;

  it('publishes RFC 8414 metadata, and issues tokens that the daemon route accepts; refresh rotates', async () => {
    const { meta, tok } = await signIn();
    expect(meta).toMatchObject({ issuer: sb.origin, code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'] });
    expect(tok).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'daemon' });
    const access = createClient({ baseUrl: sb.baseUrl, credentials: { oauth_token: tok.access_token } });
    expect((await access.getDaemonAccess(sb.manifest.interns.running!)).origin).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const next = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! });
    expect(next.access_token).not.toBe(tok.access_token);
    expect(next.refresh_token).not.toBe(tok.refresh_token);
    expect(await daemonStatus(next.access_token)).toBe(200);
  });

  it('a refresh token used twice revokes the whole chain: every access and refresh token of that sign-in', async () => {
    const { meta, tok } = await signIn();
    const other = await signIn();
    const second = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! });
    const third = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: second.refresh_token! });
    expect(await daemonStatus(third.access_token)).toBe(200);
    // The first refresh token again: whoever sends it holds a copy.
    const replay = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! }).catch((e: unknown) => e);
    expect(replay).toMatchObject({ status: 400, reason: 'invalid_grant', message: expect.stringMatching(/already used: every token of this sign-in is revoked/) });
    for (const access of [tok.access_token, second.access_token, third.access_token]) expect(await daemonStatus(access)).toBe(401);
    const successor = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: third.refresh_token! }).catch((e: unknown) => e);
    expect(successor).toMatchObject({ status: 400, reason: 'invalid_grant' });
    // Another sign-in is another chain, untouched.
    expect(await daemonStatus(other.tok.access_token)).toBe(200);
    expect((await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: other.tok.refresh_token! })).access_token).toMatch(/^oat-/);
  });

  it('a code redeemed twice is refused and revokes the tokens it bought (RFC 6749 4.1.2)', async () => {
    const { meta, pkce, code, tok } = await signIn();
    const again = await exchangeOAuthCode(meta, { clientId: 'intern-tui', code, redirectUri, verifier: pkce.verifier }).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 400, reason: 'invalid_grant' });
    expect(await daemonStatus(tok.access_token)).toBe(401);
    expect(await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
  });

  it('refuses plain PKCE, a wrong verifier, a different redirect_uri, and another client_id (for codes and refresh tokens alike)', async () => {
    const meta = await discoverOAuth(sb.manifest.issuer);
    const pkce = createPkce();
    const plain = new URL(authorizationUrl(meta, { clientId: 'c', redirectUri, pkce, state: 's' }));
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = new URL((await visit(plain.toString())).location!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    const a = await authorize(sb);
    expect(await exchangeOAuthCode(a.meta, { clientId: 'intern-tui', code: a.code, redirectUri, verifier: createPkce().verifier }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
    const b = await authorize(sb);
    expect(await exchangeOAuthCode(b.meta, { clientId: 'intern-tui', code: b.code, redirectUri: 'http://127.0.0.1:1/other', verifier: b.pkce.verifier }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
    const c = await authorize(sb);
    const elsewhere = await exchangeOAuthCode(c.meta, { clientId: 'another-app', code: c.code, redirectUri, verifier: c.pkce.verifier }).catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ reason: 'invalid_grant', message: expect.stringMatching(/another client_id/) });
    const { tok } = await signIn();
    expect(await refreshOAuthToken(meta, { clientId: 'another-app', refreshToken: tok.refresh_token! }).catch((e: unknown) => e)).toMatchObject({ reason: 'invalid_grant' });
    // Another client's attempt did not spend it.
    expect((await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: tok.refresh_token! })).access_token).toMatch(/^oat-/);
  });

  it('answers every refusal of the token endpoint in RFC 6749 section 5.2 form, with its status and no-store', async () => {
    const { tok } = await signIn();
    const form = 'application/x-www-form-urlencoded';
    const cases: [string, { body?: string; type?: string; headers?: Record<string, string> }, number, string][] = [
      ['JSON that does not parse', { body: '{"grant_type":', type: 'application/json' }, 400, 'invalid_request'],
      ['a JSON value that is not a string', { body: '{"grant_type":1,"client_id":"c"}', type: 'application/json' }, 400, 'invalid_request'],
      ['no body', {}, 400, 'invalid_request'],
      ['text/plain', { body: 'grant_type=refresh_token', type: 'text/plain' }, 400, 'invalid_request'],
      ['no grant_type', { body: 'client_id=c', type: form }, 400, 'invalid_request'],
      ['a parameter twice', { body: 'grant_type=refresh_token&grant_type=refresh_token&client_id=c&refresh_token=x', type: form }, 400, 'invalid_request'],
      ['an unknown grant', { body: 'grant_type=password&client_id=c&username=a&password=b', type: form }, 400, 'unsupported_grant_type'],
      ['no client_id', { body: `grant_type=refresh_token&refresh_token=${tok.refresh_token}`, type: form }, 400, 'invalid_request'],
      ['a client secret', { body: 'grant_type=refresh_token&client_id=c&client_secret=s&refresh_token=x', type: form }, 401, 'invalid_client'],
      ['Basic authentication', { body: 'grant_type=refresh_token&refresh_token=x', type: form, headers: { authorization: 'Basic YzpzZWNyZXQ=' } }, 401, 'invalid_client'],
      ['a code without its verifier', { body: 'grant_type=authorization_code&client_id=c&code=x&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2F', type: form }, 400, 'invalid_request'],
      ['an unknown refresh token', { body: 'grant_type=refresh_token&client_id=intern-tui&refresh_token=ort-nothing', type: form }, 400, 'invalid_grant'],
      ['a body over 1 MiB', { body: `grant_type=refresh_token&client_id=c&refresh_token=${'x'.repeat(1_100_000)}`, type: form }, 413, 'invalid_request'],
    ];
    for (const [what, r, status, error] of cases) {
      const res = await raw(sb, 'POST', '/oauth/token', { root: true, body: r.body, headers: { ...(r.type ? { 'content-type': r.type } : {}), ...r.headers } });
      expect([res.status, res.json], what).toEqual([status, { error, error_description: expect.any(String) }]);
      expect(res.headers['cache-control'], what).toBe('no-store');
      if (r.headers?.authorization) expect(res.headers['www-authenticate'], what).toMatch(/^Basic realm=/);
    }
    // None of them spent the token.
    expect(await daemonStatus(tok.access_token)).toBe(200);
  });

  it('an expired access token is refused like an unknown one', async () => {
    const quick = await sandbox({ seed: 'empty', signIn: { accessTokenTtlMs: 0 } });
    try {
      const { meta, pkce, code } = await authorize(quick);
      const tok = await exchangeOAuthCode(meta, { clientId: 'intern-tui', code, redirectUri, verifier: pkce.verifier });
      const e = await apiError(createClient({ baseUrl: quick.baseUrl, credentials: { oauth_token: tok.access_token }, maxAttempts: 1 }).getDaemonAccess(quick.manifest.interns.running!));
      expect(e.status).toBe(401);
    } finally {
      await quick.close();
    }
  });
});
