/**
 * Signing in: PKCE (RFC 7636), the sign-in exchange that yields an API key, and an OAuth 2.0 client
 * for the token daemon access wants (RFC 8414 discovery, authorization code + PKCE, refresh). No UI:
 * the CLI opens the browser and listens for the callback; this module only builds and sends.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthKeysRequest,
  AuthKeysResponseSchema,
  OAUTH_METADATA_PATH,
  OAuthErrorSchema,
  type OAuthMetadata,
  OAuthMetadataSchema,
  type OAuthToken,
  OAuthTokenSchema,
  SIGN_IN_PATH,
} from '../contract/auth.js';
import { describeIssues } from '../contract/errors.js';
import { ROUTES } from '../contract/routes.js';
import { USER_AGENT } from '../version.js';
import { ApiError, ResponseShapeError } from './errors.js';
import { type HttpCore, exchange, readBody } from './http.js';
import type { CallOptions } from './types.js';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** A fresh verifier (43 characters of base64url, 256 bits) and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), method: 'S256' };
}

/** The site's origin from an API base URL: `https://openrouter.ai/api/v1` → `https://openrouter.ai`. */
export function siteOf(baseUrl: string): string {
  const u = new URL(baseUrl);
  return u.origin;
}

/** The sign-in page's URL; without a callback it is headless (the page shows a code to paste). */
export function signInUrl(baseUrl: string, pkce: Pkce, callbackUrl?: string): string {
  const u = new URL(SIGN_IN_PATH, siteOf(baseUrl));
  if (callbackUrl) u.searchParams.set('callback_url', callbackUrl);
  u.searchParams.set('code_challenge', pkce.challenge);
  u.searchParams.set('code_challenge_method', pkce.method);
  return u.toString();
}

export function authRoutes(http: HttpCore) {
  return {
    /** `POST /auth/keys`: a sign-in code and its verifier for a new API key. Sends no credential. */
    exchangeAuthCode: (body: AuthKeysRequest, opts?: CallOptions) => http.json(AuthKeysResponseSchema, { route: ROUTES.exchangeAuthCode, body }, opts),
  };
}

const MAX_OAUTH_BYTES = 256 << 10;
/** The most of an OAuth error's description a message holds. */
const MAX_DESCRIPTION = 300;

const redactAll = (text: string, secrets: readonly string[]) => secrets.reduce((t, secret) => (secret ? t.split(secret).join('[redacted]') : t), text);

/** `secrets`: the values this request sends that no message may repeat (a code, a verifier, a refresh token). */
async function oauthCall(url: string, init: { method: 'GET' | 'POST'; form?: Record<string, string>; secrets?: readonly string[] }, label: string): Promise<unknown> {
  const res = await exchange(
    url,
    {
      method: init.method,
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      signal: AbortSignal.timeout(15_000),
    },
    label,
  );
  const body = await readBody(res, MAX_OAUTH_BYTES, label);
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ResponseShapeError(label, `HTTP ${res.status}, not JSON`);
  }
  if (res.status >= 400) {
    const err = OAuthErrorSchema.safeParse(json);
    // An RFC 6749 section 5.2 error: its code and description are the server's words, shown with
    // every secret this request sent cut out (a server may echo one) and the description clipped.
    const hide = (text: string, max: number) => redactAll(text, init.secrets ?? []).slice(0, max);
    const code = err.success ? hide(err.data.error, 64) : null;
    const what = err.success ? `${code}${err.data.error_description ? `: ${hide(err.data.error_description, MAX_DESCRIPTION)}` : ''}` : `HTTP ${res.status}`;
    throw new ApiError(res.status, res.status, code, res.status >= 500, `${label} refused: ${what}`, label);
  }
  return json;
}

/** RFC 8414 discovery: the issuer's metadata, whose `issuer` must be the one asked for. */
export async function discoverOAuth(issuer: string): Promise<OAuthMetadata> {
  const base = issuer.replace(/\/+$/, '');
  const label = `GET ${OAUTH_METADATA_PATH}`;
  const parsed = OAuthMetadataSchema.safeParse(await oauthCall(`${base}${OAUTH_METADATA_PATH}`, { method: 'GET' }, label));
  if (!parsed.success) throw new ResponseShapeError(label, describeIssues(parsed.error));
  if (parsed.data.issuer.replace(/\/+$/, '') !== base) throw new ResponseShapeError(label, `the metadata names issuer ${parsed.data.issuer}, not ${base}`);
  return parsed.data;
}

export function authorizationUrl(meta: OAuthMetadata, p: { clientId: string; redirectUri: string; pkce: Pkce; state: string; scope?: string }): string {
  const u = new URL(meta.authorization_endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', p.clientId);
  u.searchParams.set('redirect_uri', p.redirectUri);
  u.searchParams.set('code_challenge', p.pkce.challenge);
  u.searchParams.set('code_challenge_method', p.pkce.method);
  u.searchParams.set('state', p.state);
  if (p.scope) u.searchParams.set('scope', p.scope);
  return u.toString();
}

async function token(meta: OAuthMetadata, form: Record<string, string>): Promise<OAuthToken> {
  const label = 'POST token_endpoint';
  const secrets = [form.code, form.code_verifier, form.refresh_token].filter((v): v is string => Boolean(v));
  const parsed = OAuthTokenSchema.safeParse(await oauthCall(meta.token_endpoint, { method: 'POST', form, secrets }, label));
  if (!parsed.success) throw new ResponseShapeError(label, describeIssues(parsed.error));
  return parsed.data;
}

export function exchangeOAuthCode(meta: OAuthMetadata, p: { clientId: string; code: string; redirectUri: string; verifier: string }) {
  return token(meta, { grant_type: 'authorization_code', client_id: p.clientId, code: p.code, redirect_uri: p.redirectUri, code_verifier: p.verifier });
}

export function refreshOAuthToken(meta: OAuthMetadata, p: { clientId: string; refreshToken: string }) {
  return token(meta, { grant_type: 'refresh_token', client_id: p.clientId, refresh_token: p.refreshToken });
}
