/**
 * Signing in (public notes, "Signing in from a terminal"), as a sandbox does it: the site's sign-in
 * page at /auth approves at once and hands out a single-use code (10 minutes) bound to a PKCE
 * challenge; POST /api/v1/auth/keys exchanges it for a new API key of the demo user. Beside it, an
 * OAuth 2.0 authorization server (RFC 8414 metadata, authorization code + PKCE S256, refresh tokens)
 * issues the OAuth tokens daemon access wants. Nothing here is logged beyond the route template.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthKeysRequestSchema,
  CODE_CHALLENGE_METHODS,
  type CodeChallengeMethod,
  OAUTH_METADATA_PATH,
  SIGN_IN_PATH,
  isLoopbackCallback,
} from '../../contract/auth.js';
import { maskKey } from '../../contract/byok.js';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES } from '../../contract/routes.js';
import { randomToken, secretsEqual, sha256Hex } from '../crypto.js';
import { HttpError } from '../errors.js';
import { type HttpContext, jsonBody, route } from '../http.js';
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
  challenge: string | null;
  method: CodeChallengeMethod;
  expires: number;
  /** OAuth codes only: the redirect_uri the code was issued for. */
  redirectUri?: string;
}

const bad = (message: string) => new HttpError(400, 'bad_request', message);
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function verifierMatches(code: Code, verifier: string): boolean {
  if (code.challenge === null) return true;
  const computed = code.method === 'S256' ? s256(verifier) : verifier;
  return secretsEqual(computed, code.challenge);
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

/** Reads a form-encoded or JSON body into a flat record of strings. */
function formBody(req: FastifyRequest): Record<string, string> {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  const type = req.headers['content-type'] ?? '';
  if (/^application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(raw));
  if (/^application\/json/i.test(type)) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(jsonBody(req, { strictMediaType: false, allowEmpty: true }))) if (typeof v === 'string') out[k] = v;
    return out;
  }
  return {};
}

/** The sign-in state (codes) shared by the site's routes and the API's exchange route. */
export function createSignIn(ctx: HttpContext, deps: { store: Store; origin: () => string; options?: SignInOptions }) {
  const { store } = deps;
  const codeTtl = deps.options?.codeTtlMs ?? LIMITS.authCodeTtlMs;
  const accessTtl = deps.options?.accessTokenTtlMs ?? 3_600_000;
  const refreshTtl = deps.options?.refreshTokenTtlMs ?? 30 * 86_400_000;
  const signInCodes = new Map<string, Code>();
  const oauthCodes = new Map<string, Code>();
  const sweep = () => {
    const now = Date.now();
    for (const m of [signInCodes, oauthCodes]) for (const [k, c] of m) if (c.expires <= now) m.delete(k);
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
      const code = take(signInCodes, parsed.data.code);
      if (!code) throw bad('The code is unknown, already used or expired: sign in again');
      if (parsed.data.code_challenge_method && code.challenge !== null && parsed.data.code_challenge_method !== code.method) {
        throw bad(`code_challenge_method ${parsed.data.code_challenge_method} is not the method of the challenge (${code.method}); sign in again`);
      }
      if (!verifierMatches(code, parsed.data.code_verifier)) throw bad('code_verifier does not match the challenge; sign in again');
      return { status: 200, body: { key: newKey('api_key', 'sk-or-v1-'), user_id: DEMO_USER.user_id } };
    });
  }

  function registerSite(root: FastifyInstance): void {
  // The site's sign-in page: approves at once (a sandbox has nobody to ask).
  root.get(SIGN_IN_PATH, async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const challenge = q.code_challenge ?? null;
    const method = (q.code_challenge_method ?? (challenge ? 'plain' : 'S256')) as CodeChallengeMethod;
    if (!(CODE_CHALLENGE_METHODS as readonly string[]).includes(method)) return page(reply, 400, 'Sign-in refused', '<p>code_challenge_method must be S256 or plain.</p>');
    if (challenge !== null && (challenge.length < 43 || challenge.length > 128)) return page(reply, 400, 'Sign-in refused', '<p>code_challenge must be 43 to 128 characters.</p>');
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
    if (!q.code_challenge || q.code_challenge.length < 43 || q.code_challenge.length > 128) return fail('invalid_request', 'a PKCE code_challenge (S256) is required');
    if (q.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    back.searchParams.set('code', issue(oauthCodes, { challenge: q.code_challenge, method: 'S256', redirectUri: q.redirect_uri }));
    return reply.header('cache-control', 'no-store').redirect(back.toString(), 302);
  });

  root.post('/oauth/token', async (req, reply) => {
    const b = formBody(req);
    const error = (status: number, code: string, description: string) =>
      reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify({ error: code, error_description: description }));
    const tokens = () => {
      const access = newKey('oauth_token', 'oat-');
      store.setKeyExpiry(sha256Hex(access), Date.now() + accessTtl);
      const refresh = `ort-${randomToken(32)}`;
      store.insertRefresh({ hash: sha256Hex(refresh), user_id: DEMO_USER.user_id, account_id: DEMO_USER.account_id, workspace_id: demoWorkspace(), expires_at: Date.now() + refreshTtl });
      return reply
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ access_token: access, token_type: 'Bearer', expires_in: Math.round(accessTtl / 1000), refresh_token: refresh, scope: 'daemon' }));
    };
    if (b.grant_type === 'authorization_code') {
      if (!b.code || !b.code_verifier) return error(400, 'invalid_request', 'code and code_verifier are required');
      const code = take(oauthCodes, b.code);
      if (!code) return error(400, 'invalid_grant', 'The code is unknown, already used or expired');
      if (b.redirect_uri !== code.redirectUri) return error(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      if (!verifierMatches(code, b.code_verifier)) return error(400, 'invalid_grant', 'code_verifier does not match the challenge');
      return tokens();
    }
    if (b.grant_type === 'refresh_token') {
      if (!b.refresh_token) return error(400, 'invalid_request', 'refresh_token is required');
      if (!store.takeRefresh(sha256Hex(b.refresh_token))) return error(400, 'invalid_grant', 'The refresh token is unknown, used or expired: sign in again');
      return tokens();
    }
    return error(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  });
}
}
