/**
 * Signing in (public notes, "Signing in from a terminal"), as a sandbox does it: the site's sign-in
 * page at /auth approves at once and hands out a single-use code (10 minutes), bound to a PKCE
 * challenge when the client sent one (the service's `code_challenge` is optional); POST
 * /api/v1/auth/keys exchanges it for a new API key of the demo user. Beside it, an OAuth 2.0
 * authorization server (RFC 8414 metadata, authorization code + PKCE S256, rotating refresh tokens
 * whose reuse revokes the grant, RFC 6749 section 5.2 errors) issues the OAuth tokens daemon access
 * wants. The rules are stated once, in docs/sandbox.md ("Signing in"). Nothing here is logged beyond
 * the route template.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthKeysRequestSchema,
  CODE_CHALLENGE_METHODS,
  CODE_VERIFIER_PATTERN,
  type CodeChallengeMethod,
  OAUTH_METADATA_PATH,
  S256_CHALLENGE_PATTERN,
  SIGN_IN_PATH,
  isLoopbackCallback,
} from '../../contract/auth.js';
import { maskKey } from '../../contract/byok.js';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES } from '../../contract/routes.js';
import { randomToken, secretsEqual, sha256Hex } from '../crypto.js';
import { HttpError } from '../errors.js';
import { type HttpContext, jsonBody, route, toHttpError } from '../http.js';
import type { Store } from '../store.js';

export interface SignInOptions {
  /** Life of a sign-in or authorization code; default 10 minutes. */
  codeTtlMs?: number;
  /** Life of an OAuth access token; default 1 hour. */
  accessTokenTtlMs?: number;
  /** Life of a refresh token; default 30 days. */
  refreshTokenTtlMs?: number;
}

/** The demo user every sign-in signs in as. */
export const DEMO_USER = { user_id: 'user_a', account_id: 'acct_a' } as const;

interface Code {
  /** The PKCE challenge, or null for a sign-in code issued without one (the service allows it). */
  challenge: string | null;
  method: CodeChallengeMethod;
  expires: number;
  /** OAuth codes only: the client and the redirect_uri the code was issued to. */
  clientId?: string;
  redirectUri?: string;
}

const bad = (message: string) => new HttpError(400, 'bad_request', message);
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const VERIFIER_RULE = '43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~"';

/** Why a challenge cannot be issued a code (RFC 7636 4.2), or null when it can. */
function challengeRefusal(challenge: string, method: CodeChallengeMethod): string | null {
  if (method === 'S256') return S256_CHALLENGE_PATTERN.test(challenge) ? null : 'an S256 code_challenge is the 43-character base64url SHA-256 of the verifier';
  return CODE_VERIFIER_PATTERN.test(challenge) ? null : `a plain code_challenge is the verifier itself: ${VERIFIER_RULE}`;
}

/**
 * Why a verifier does not redeem a code, or null when it does: a code issued for a challenge needs the
 * verifier that matches it (RFC 7636 4.6); a code issued without one takes no verifier, as one sent
 * then means something stripped the challenge on the way (a PKCE downgrade, RFC 9700 4.8.2).
 */
function verifierRefusal(code: Code, verifier: string | undefined): string | null {
  if (code.challenge === null) return verifier === undefined ? null : 'code_verifier was sent, but the code was issued without a code_challenge';
  if (verifier === undefined) return 'code_verifier is required: the code was issued for a code_challenge';
  if (!CODE_VERIFIER_PATTERN.test(verifier)) return `code_verifier must be ${VERIFIER_RULE}`;
  return secretsEqual(code.method === 'S256' ? s256(verifier) : verifier, code.challenge) ? null : 'code_verifier does not match the code_challenge';
}

/** An OAuth error of RFC 6749 section 5.2: 400, or 401 for a client that tried to authenticate. */
class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'server_error',
    description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
    /** RFC 6749 5.2: a client that authenticated with the Authorization header is answered with its scheme. */
    readonly scheme?: string,
  ) {
    super(description);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
        '<style>body{font:16px system-ui,sans-serif;margin:4em auto;max-width:36em;padding:0 1em}code{font-size:1.3em;word-break:break-all}</style>' +
        `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`,
    );
}

/**
 * The token endpoint's parameters: form-encoded (RFC 6749) or, as a convenience, a JSON object of
 * strings. Anything else, and a parameter sent twice, is `invalid_request`.
 */
function tokenParams(req: FastifyRequest): Record<string, string> {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const type = req.headers['content-type'] ?? '';
  if (raw.length === 0) throw new OAuthError('invalid_request', 'The body is empty: send the parameters form-encoded (application/x-www-form-urlencoded)');
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    const params = new URLSearchParams(raw.toString('utf8'));
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of params) {
      if (k in out) throw new OAuthError('invalid_request', `${k.replace(/[^\x21-\x7e]/g, '?').slice(0, 40)} is given more than once`);
      out[k] = v;
    }
    return out;
  }
  if (/^application\/json\s*(;|$)/i.test(type)) {
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(jsonBody(req, { strictMediaType: false, allowEmpty: false }))) {
      if (typeof v !== 'string') throw new OAuthError('invalid_request', `${k.replace(/[^\x21-\x7e]/g, '?').slice(0, 40)} must be a string`);
      out[k] = v;
    }
    return out;
  }
  throw new OAuthError('invalid_request', 'The parameters must be sent form-encoded (Content-Type: application/x-www-form-urlencoded)');
}

/**
 * Anything thrown on an OAuth endpoint, as RFC 6749 section 5.2 says to answer it: a request that
 * cannot be read is `invalid_request` (413 keeps its status); a failure of the sandbox's own is 500
 * `server_error` (the code RFC 6749 4.1.2.1 names for it).
 */
function toOAuthError(e: unknown): OAuthError {
  if (e instanceof OAuthError) return e;
  const http = toHttpError(e);
  if (http.status === 413) return new OAuthError('invalid_request', http.message, 413);
  if (http.status >= 500) return new OAuthError('server_error', http.message, 500);
  return new OAuthError('invalid_request', http.message);
}

function sendOAuthError(reply: FastifyReply, e: OAuthError): FastifyReply {
  if (e.scheme) reply.header('www-authenticate', `${e.scheme} realm="intern sandbox", error="${e.error}"`);
  return reply
    .code(e.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: e.error, error_description: e.message }));
}

/** The sign-in state (codes) shared by the site's routes and the API's exchange route. */
export function createSignIn(ctx: HttpContext, deps: { store: Store; origin: () => string; options?: SignInOptions }) {
  const { store } = deps;
  const codeTtl = deps.options?.codeTtlMs ?? LIMITS.authCodeTtlMs;
  const accessTtl = deps.options?.accessTokenTtlMs ?? 3_600_000;
  const refreshTtl = deps.options?.refreshTokenTtlMs ?? 30 * 86_400_000;
  const signInCodes = new Map<string, Code>();
  const oauthCodes = new Map<string, Code>();
  /** OAuth codes already redeemed, until they would have expired: the grant each one started. */
  const redeemed = new Map<string, { grantId: string; expires: number }>();
  const sweep = () => {
    const now = Date.now();
    for (const m of [signInCodes, oauthCodes, redeemed]) for (const [k, c] of m) if (c.expires <= now) m.delete(k);
  };
  const issue = (m: Map<string, Code>, c: Omit<Code, 'expires'>) => {
    sweep();
    const code = randomToken(24);
    m.set(code, { ...c, expires: Date.now() + codeTtl });
    return code;
  };
  /** Takes a code: single use, so any attempt (right or wrong) spends it. */
  const take = (m: Map<string, Code>, code: string): Code | undefined => {
    const c = m.get(code);
    m.delete(code);
    return c && c.expires > Date.now() ? c : undefined;
  };
  let lastPurge = 0;
  const demoWorkspace = () => store.account(DEMO_USER.account_id)?.default_workspace_id ?? null;
  const newKey = (kind: 'api_key' | 'oauth_token', prefix: string) => {
    const secret = `${prefix}${randomToken(24)}`;
    store.insertKey({
      secret_hash: sha256Hex(secret),
      kind,
      user_id: DEMO_USER.user_id,
      account_id: DEMO_USER.account_id,
      workspace_id: demoWorkspace(),
      intern_id: null,
      in_programme: 1,
      lost_access: 0,
      label: maskKey(secret),
    });
    return secret;
  };

  return { registerSite, registerApi };

  function registerApi(api: FastifyInstance): void {
    route(api, ctx, ROUTES.exchangeAuthCode, (req) => {
      const parsed = AuthKeysRequestSchema.safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false, reason: 'bad_request' }));
      if (!parsed.success) throw bad(describeIssues(parsed.error));
      const { code: given, code_verifier: verifier, code_challenge_method: method } = parsed.data;
      const code = take(signInCodes, given);
      if (!code) throw bad('The code is unknown, already used or expired: sign in again');
      if (code.challenge === null && method != null) throw bad(`code_challenge_method ${method} was sent, but the code was issued without a code_challenge; sign in again`);
      if (code.challenge !== null && method != null && method !== code.method) throw bad(`code_challenge_method ${method} is not the method of the code's challenge (${code.method}); sign in again`);
      const refused = verifierRefusal(code, verifier);
      if (refused) throw bad(`${refused}; sign in again`);
      return { status: 200, body: { key: newKey('api_key', 'sk-or-v1-'), user_id: DEMO_USER.user_id } };
    });
  }

  function registerSite(root: FastifyInstance): void {
  // The site's sign-in page: approves at once (a sandbox has nobody to ask).
  root.get(SIGN_IN_PATH, async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const challenge = q.code_challenge ?? null;
    // RFC 7636 4.3: a challenge without a method is plain.
    const method = (q.code_challenge_method ?? (challenge ? 'plain' : 'S256')) as CodeChallengeMethod;
    if (!(CODE_CHALLENGE_METHODS as readonly string[]).includes(method)) return page(reply, 400, 'Sign-in refused', '<p>code_challenge_method must be S256 or plain.</p>');
    if (challenge === null && q.code_challenge_method !== undefined) return page(reply, 400, 'Sign-in refused', '<p>code_challenge_method was given without a code_challenge.</p>');
    const refused = challenge === null ? null : challengeRefusal(challenge, method);
    if (refused) return page(reply, 400, 'Sign-in refused', `<p>${escapeHtml(refused)}.</p>`);
    if (q.callback_url !== undefined) {
      if (!isLoopbackCallback(q.callback_url)) return page(reply, 400, 'Sign-in refused', '<p>callback_url must be an http URL on localhost (any port).</p>');
      const code = issue(signInCodes, { challenge, method });
      const back = new URL(q.callback_url);
      back.searchParams.set('code', code);
      return reply.header('cache-control', 'no-store').redirect(back.toString(), 302);
    }
    if (challenge === null) return page(reply, 400, 'Sign-in refused', '<p>Without a callback_url, a code_challenge is required.</p>');
    const code = issue(signInCodes, { challenge, method });
    return page(
      reply,
      200,
      'Signed in to the intern sandbox',
      `<p>Paste this code into your terminal. It works once, within ${Math.round(codeTtl / 60_000)} minutes.</p><p><code id="code">${escapeHtml(code)}</code></p>`,
    );
  });

  // The OAuth 2.0 authorization server for the "OAuth token" role.
  root.get(OAUTH_METADATA_PATH, async (_req, reply) => {
    const issuer = deps.origin();
    return reply.type('application/json; charset=utf-8').send(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['daemon'],
      }),
    );
  });

  root.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q.redirect_uri || !isLoopbackCallback(q.redirect_uri)) {
      return page(reply, 400, 'Authorization refused', '<p>redirect_uri must be an http URL on localhost (any port).</p>');
    }
    const back = new URL(q.redirect_uri);
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    const fail = (error: string, description: string) => {
      back.searchParams.set('error', error);
      back.searchParams.set('error_description', description);
      return reply.redirect(back.toString(), 302);
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (!q.client_id) return fail('invalid_request', 'client_id is required');
    if (!q.code_challenge) return fail('invalid_request', 'a PKCE code_challenge (S256) is required');
    if (q.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const refused = challengeRefusal(q.code_challenge, 'S256');
    if (refused) return fail('invalid_request', refused);
    back.searchParams.set('code', issue(oauthCodes, { challenge: q.code_challenge, method: 'S256', clientId: q.client_id, redirectUri: q.redirect_uri }));
    return reply.header('cache-control', 'no-store').redirect(back.toString(), 302);
  });

  // The token endpoint. Public clients only (`token_endpoint_auth_methods_supported: ["none"]`): the
  // client names itself with client_id, and every code and grant is bound to that client.
  root.route({
    method: 'POST',
    url: '/oauth/token',
    // Errors before the handler (a body over the limit, one fastify cannot read) are OAuth's too.
    errorHandler: (e, _req, reply) => sendOAuthError(reply, toOAuthError(e)),
    handler: async (req, reply) => {
      try {
        return sendTokens(reply, token(req));
      } catch (e) {
        return sendOAuthError(reply, toOAuthError(e));
      }
    },
  });
  }

  function sendTokens(reply: FastifyReply, body: Record<string, unknown>): FastifyReply {
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').type('application/json; charset=utf-8').send(JSON.stringify(body));
  }

  /** A new access token and refresh token of a grant. */
  function issueTokens(grantId: string): Record<string, unknown> {
    const now = Date.now();
    const access = newKey('oauth_token', 'oat-');
    store.setKeyExpiry(sha256Hex(access), now + accessTtl);
    store.addGrantToken(grantId, 'access', sha256Hex(access), now + accessTtl);
    const refresh = `ort-${randomToken(32)}`;
    store.addGrantToken(grantId, 'refresh', sha256Hex(refresh), now + refreshTtl);
    return { access_token: access, token_type: 'Bearer', expires_in: Math.round(accessTtl / 1000), refresh_token: refresh, scope: 'daemon' };
  }

  /** RFC 6749 sections 4.1.3 and 6, with OAuth 2.1's and RFC 9700's rules for public clients. */
  function token(req: FastifyRequest): Record<string, unknown> {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const scheme = /^([A-Za-z][\w-]{0,20})(\s|$)/.exec(authorization)?.[1] ?? 'Basic';
      throw new OAuthError('invalid_client', 'This server has public clients only: send client_id, and no Authorization header', 401, scheme);
    }
    const p = tokenParams(req);
    if (p.client_secret !== undefined) throw new OAuthError('invalid_client', 'This server has public clients only: send client_id, and no client_secret');
    if (!p.grant_type) throw new OAuthError('invalid_request', 'grant_type is required');
    if (p.grant_type !== 'authorization_code' && p.grant_type !== 'refresh_token') {
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
    if (!p.client_id) throw new OAuthError('invalid_request', 'client_id is required');
    purge();

    if (p.grant_type === 'authorization_code') {
      const missing = ['code', 'redirect_uri', 'code_verifier'].filter((k) => !p[k]);
      if (missing.length > 0) throw new OAuthError('invalid_request', `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`);
      const spent = redeemed.get(p.code!);
      if (spent) {
        // RFC 6749 4.1.2: a code used twice is refused, and what it bought is revoked.
        store.revokeGrant(spent.grantId);
        redeemed.delete(p.code!);
        throw new OAuthError('invalid_grant', 'The code was already used: every token issued from it is revoked; sign in again');
      }
      const code = take(oauthCodes, p.code!);
      if (!code) throw new OAuthError('invalid_grant', 'The code is unknown, already used or expired');
      if (p.client_id !== code.clientId) throw new OAuthError('invalid_grant', 'The code was issued to another client_id');
      if (p.redirect_uri !== code.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
      const refused = verifierRefusal(code, p.code_verifier);
      if (refused) throw new OAuthError('invalid_grant', refused);
      const grantId = randomToken(16);
      store.insertGrant({ id: grantId, client_id: p.client_id, user_id: DEMO_USER.user_id, account_id: DEMO_USER.account_id, workspace_id: demoWorkspace(), expires_at: 0 });
      redeemed.set(p.code!, { grantId, expires: code.expires });
      return issueTokens(grantId);
    }

    if (!p.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const hash = sha256Hex(p.refresh_token);
    // Checked before the token is spent: another client's attempt changes nothing.
    const owner = store.refreshGrant(hash);
    if (owner !== undefined && store.grant(owner)?.client_id !== p.client_id) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client_id');
    const used = store.useRefresh(hash);
    if (!used) throw new OAuthError('invalid_grant', 'The refresh token is unknown, revoked or expired: sign in again');
    if (used.reused) {
      // RFC 9700 4.14.2: a refresh token used twice was copied; whoever holds the chain now, it ends.
      store.revokeGrant(used.grantId);
      throw new OAuthError('invalid_grant', 'The refresh token was already used: every token of this sign-in is revoked; sign in again');
    }
    return issueTokens(used.grantId);
  }

  /** Grants whose every token has expired are forgotten, at most once a minute. */
  function purge(): void {
    const now = Date.now();
    if (now - lastPurge < 60_000) return;
    lastPurge = now;
    store.purgeGrants(now);
  }
}
