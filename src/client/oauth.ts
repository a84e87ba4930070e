/**
 * A standard OAuth 2.0 client for the "OAuth token" that daemon access wants (public notes: a
 * configurable issuer with RFC 8414 metadata): discovery, the authorization URL with PKCE S256,
 * and the token endpoint's `authorization_code` and `refresh_token` grants. Public client: no secret.
 */
import { request, type Dispatcher } from 'undici';
import {
  AuthServerMetadataSchema,
  OAUTH_CLIENT_ID,
  OAUTH_METADATA_PATH,
  OAuthErrorSchema,
  TokenResponseSchema,
  type AuthServerMetadata,
  type TokenResponse,
} from '../contract/auth.js';
import { describeIssues } from '../contract/errors.js';
import { USER_AGENT } from '../version.js';
import { NetworkError, ResponseShapeError } from './errors.js';
import { readBody } from './http.js';

/** The issuer refused (RFC 6749 5.2 `error`), e.g. `invalid_grant` for a used or expired refresh token. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export interface OAuthOptions {
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

const MAX_BYTES = 1 << 20;

async function call(url: string, init: { method: 'GET' | 'POST'; form?: Record<string, string> }, what: string, o: OAuthOptions): Promise<{ status: number; json: unknown }> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: init.method,
      headers: {
        'user-agent': USER_AGENT,
        accept: 'application/json',
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      signal: AbortSignal.timeout(o.timeoutMs ?? 15_000),
      dispatcher: o.dispatcher,
    });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new NetworkError(what, typeof code === 'string' ? code : 'connection failed', false);
  }
  const body = await readBody(res, MAX_BYTES, what);
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ResponseShapeError(what, `HTTP ${res.statusCode}, and the body is not JSON`);
  }
  return { status: res.statusCode, json };
}

/** RFC 8414: fetches `<issuer>/.well-known/oauth-authorization-server` and checks that it names the same issuer. */
export async function discover(issuer: string, o: OAuthOptions = {}): Promise<AuthServerMetadata> {
  const base = issuer.replace(/\/+$/, '');
  const u = new URL(base);
  // RFC 8414 section 3.1: the well-known segment goes between the host and any path of the issuer.
  const url = `${u.origin}${OAUTH_METADATA_PATH}${u.pathname === '/' ? '' : u.pathname}`;
  const what = 'OAuth discovery';
  const { status, json } = await call(url, { method: 'GET' }, what, o);
  if (status !== 200) throw new ResponseShapeError(what, `${url} answered HTTP ${status}`);
  const parsed = AuthServerMetadataSchema.safeParse(json);
  if (!parsed.success) throw new ResponseShapeError(what, describeIssues(parsed.error));
  if (parsed.data.issuer.replace(/\/+$/, '') !== base) {
    throw new ResponseShapeError(what, `the metadata names issuer ${parsed.data.issuer}, not ${base}`);
  }
  const methods = parsed.data.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) throw new ResponseShapeError(what, 'the issuer does not support PKCE S256');
  return parsed.data;
}

export function authorizationUrl(md: AuthServerMetadata, f: { redirectUri?: string; challenge: string; state: string; scope?: string }): string {
  const u = new URL(md.authorization_endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', OAUTH_CLIENT_ID);
  if (f.redirectUri) u.searchParams.set('redirect_uri', f.redirectUri);
  u.searchParams.set('code_challenge', f.challenge);
  u.searchParams.set('code_challenge_method', 'S256');
  u.searchParams.set('state', f.state);
  if (f.scope) u.searchParams.set('scope', f.scope);
  return u.toString();
}

async function token(md: AuthServerMetadata, form: Record<string, string>, o: OAuthOptions): Promise<TokenResponse> {
  const what = 'OAuth token request';
  const { status, json } = await call(md.token_endpoint, { method: 'POST', form: { ...form, client_id: OAUTH_CLIENT_ID } }, what, o);
  if (status !== 200) {
    const err = OAuthErrorSchema.safeParse(json);
    if (err.success) throw new OAuthError(status, err.data.error, `the issuer refused: ${err.data.error}${err.data.error_description ? ` (${err.data.error_description.slice(0, 200)})` : ''}`);
    throw new OAuthError(status, 'http_error', `the issuer answered HTTP ${status}`);
  }
  const parsed = TokenResponseSchema.safeParse(json);
  if (!parsed.success) throw new ResponseShapeError(what, describeIssues(parsed.error));
  return parsed.data;
}

export function exchangeCode(md: AuthServerMetadata, f: { code: string; verifier: string; redirectUri?: string }, o: OAuthOptions = {}): Promise<TokenResponse> {
  return token(md, { grant_type: 'authorization_code', code: f.code, code_verifier: f.verifier, ...(f.redirectUri ? { redirect_uri: f.redirectUri } : {}) }, o);
}

export function refreshAccessToken(md: AuthServerMetadata, refreshToken: string, o: OAuthOptions = {}): Promise<TokenResponse> {
  return token(md, { grant_type: 'refresh_token', refresh_token: refreshToken }, o);
}
