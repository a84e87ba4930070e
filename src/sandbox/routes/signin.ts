/**
 * Signing in (public notes, "Signing in from a terminal"). Being a sandbox, every request is approved at
 * once for the demo user:
 * - `GET /auth` on the site's origin (outside /api/v1): redirects to a loopback `callback_url` with
 *   `?code=`, or in headless mode (no callback) shows the code on a page.
 * - `POST /api/v1/auth/keys`: code + PKCE verifier (S256 or plain) for a new API key.
 * - An OAuth 2.0 authorization server for the "OAuth token" callers of spec section 5: RFC 8414
 *   metadata, `GET /oauth/authorize` (authorization code, PKCE S256 only) and `POST /oauth/token`
 *   (`authorization_code`, `refresh_token`). Its access tokens are what the daemon route accepts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_PAGE_PATH,
  AuthKeyRequestSchema,
  CODE_VERIFIER_RE,
  CodeChallengeMethodSchema,
  OAUTH_METADATA_PATH,
  isLoopbackCallback,
} from '../../contract/auth.js';
import { describeIssues } from '../../contract/errors.js';
import { ROUTES } from '../../contract/routes.js';
import { HttpError } from '../errors.js';
import { type HttpContext, jsonBody, route } from '../http.js';
import { type SignIn, SignInRefused } from '../signin.js';

export const OAUTH_AUTHORIZE_PATH = '/oauth/authorize';
export const OAUTH_TOKEN_PATH = '/oauth/token';

/** RFC 7636 section 4.2: the challenge is 43 to 128 characters of the unreserved set too. */
const CHALLENGE_RE = CODE_VERIFIER_RE;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

const one = (q: Record<string, unknown>, name: string): string | undefined => {
  const v = q[name];
  return typeof v === 'string' ? v : undefined;
};

function withParams(base: string, params: Record<string, string | undefined>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

export interface SignInDeps {
  signIn: SignIn;
  /** `http://127.0.0.1:PORT`: known once the server listens. */
  issuer: () => string;
}

/** `POST /api/v1/auth/keys`, registered under the API prefix. */
export function registerAuthKeyRoute(api: FastifyInstance, ctx: HttpContext, deps: SignInDeps): void {
  route(api, ctx, ROUTES.exchangeAuthCode, (req) => {
    // The verifier is optional here only for a code issued without a challenge; the check is in SignIn.
    const parsed = AuthKeyRequestSchema.partial({ code_verifier: true }).safeParse(jsonBody(req, { strictMediaType: false, allowEmpty: false }));
    if (!parsed.success) throw new HttpError(400, null, `Invalid request: ${describeIssues(parsed.error)}`);
    try {
      const { key, user_id } = deps.signIn.exchangeForKey(parsed.data.code, parsed.data.code_verifier, parsed.data.code_challenge_method);
      return { status: 200, body: { key, user_id }, headers: { 'cache-control': 'no-store' } };
    } catch (e) {
      if (e instanceof SignInRefused) throw new HttpError(400, null, e.message);
      throw e;
    }
  });
}

/** The sign-in page and the OAuth authorization server, on the site's origin. */
export function registerSignInRoutes(app: FastifyInstance, deps: SignInDeps): void {
  const { signIn } = deps;

  app.get(AUTH_PAGE_PATH, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const callback = one(q, 'callback_url');
    const challenge = one(q, 'code_challenge');
    const methodRaw = one(q, 'code_challenge_method');
    const refuse = (why: string) => page(reply, 400, 'Sign-in request refused', `<p>${escapeHtml(why)}</p>`);
    if (callback !== undefined && !isLoopbackCallback(callback)) {
      return refuse('callback_url must be an http URL on localhost, 127.0.0.1 or [::1] with a port.');
    }
    const method = methodRaw === undefined ? undefined : CodeChallengeMethodSchema.safeParse(methodRaw);
    if (method && !method.success) return refuse('code_challenge_method must be S256 or plain.');
    if (challenge !== undefined && !CHALLENGE_RE.test(challenge)) return refuse('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
    if (callback === undefined && challenge === undefined) return refuse('Without callback_url (headless sign-in) a code_challenge is required.');
    if (challenge === undefined && method !== undefined) return refuse('code_challenge_method was given without code_challenge.');
    const code = signIn.issueCode({ purpose: 'key', challenge, method: method?.data });
    if (callback !== undefined) return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(withParams(callback, { code }), 302);
    return page(
      reply,
      200,
      'Signed in to the intern sandbox',
      `<p>Paste this code into the terminal that asked for it. It works once, within 10 minutes.</p>` +
        `<p><code id="code" style="font-size:1.3em">${escapeHtml(code)}</code></p>`,
    );
  });

  app.get(OAUTH_METADATA_PATH, async (_req, reply) => {
    const issuer = deps.issuer();
    return reply.header('cache-control', 'no-store').send({
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_AUTHORIZE_PATH}`,
      token_endpoint: `${issuer}${OAUTH_TOKEN_PATH}`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  app.get(OAUTH_AUTHORIZE_PATH, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const redirectUri = one(q, 'redirect_uri');
    const clientId = one(q, 'client_id');
    const state = one(q, 'state');
    // RFC 6749 4.1.2.1: with no trustworthy redirect, say so on the page and never redirect.
    if (!clientId) return page(reply, 400, 'Authorization refused', '<p>client_id is required.</p>');
    if (redirectUri !== undefined && !isLoopbackCallback(redirectUri)) {
      return page(reply, 400, 'Authorization refused', '<p>redirect_uri must be an http URL on localhost, 127.0.0.1 or [::1] with a port.</p>');
    }
    const fail = (error: string, description: string) =>
      redirectUri !== undefined
        ? reply.redirect(withParams(redirectUri, { error, error_description: description, state }), 302)
        : page(reply, 400, 'Authorization refused', `<p>${escapeHtml(error)}: ${escapeHtml(description)}</p>`);
    if (one(q, 'response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    const challenge = one(q, 'code_challenge');
    if (!challenge || !CHALLENGE_RE.test(challenge)) return fail('invalid_request', 'a PKCE code_challenge is required');
    if (one(q, 'code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const code = signIn.issueCode({ purpose: 'oauth', challenge, method: 'S256', redirectUri, clientId });
    if (redirectUri !== undefined) return reply.header('cache-control', 'no-store').redirect(withParams(redirectUri, { code, state }), 302);
    return page(
      reply,
      200,
      'Authorized',
      `<p>Paste this code into the terminal that asked for it. It works once, within 10 minutes.</p>` +
        `<p><code id="code" style="font-size:1.3em">${escapeHtml(code)}</code></p>`,
    );
  });

  app.post(OAUTH_TOKEN_PATH, async (req: FastifyRequest, reply) => {
    const oauthError = (status: number, error: string, description: string) =>
      reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
    const ct = req.headers['content-type'] ?? '';
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(ct)) {
      return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    }
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const form = new URLSearchParams(raw);
    for (const name of new Set(form.keys())) if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `${name} is repeated`);
    const get = (n: string) => form.get(n) ?? undefined;
    try {
      const grant = get('grant_type');
      let tokens;
      if (grant === 'authorization_code') {
        const code = get('code');
        if (!code) return oauthError(400, 'invalid_request', 'code is required');
        tokens = signIn.exchangeForTokens({ code, verifier: get('code_verifier'), redirectUri: get('redirect_uri'), clientId: get('client_id') });
      } else if (grant === 'refresh_token') {
        const token = get('refresh_token');
        if (!token) return oauthError(400, 'invalid_request', 'refresh_token is required');
        tokens = signIn.refresh(token, get('client_id'));
      } else {
        return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
      }
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
    } catch (e) {
      if (e instanceof SignInRefused) return oauthError(e.kind === 'invalid_client' ? 401 : 400, e.kind, e.message);
      throw e;
    }
  });
}
