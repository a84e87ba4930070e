/**
 * Signing in from a terminal (public notes, "Signing in from a terminal"): the PKCE exchange that
 * yields an API key, and the standard OAuth 2.0 shapes (RFC 8414 metadata, RFC 6749 token answers)
 * for the OAuth token that daemon access wants.
 */
import * as z from 'zod';

export const CODE_CHALLENGE_METHODS = ['S256', 'plain'] as const;
export type CodeChallengeMethod = (typeof CODE_CHALLENGE_METHODS)[number];

/** RFC 7636: 43 to 128 characters of [A-Za-z0-9-._~]. A `plain` challenge is a verifier itself. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 7636: an S256 challenge is the base64url SHA-256 of the verifier, 43 characters without padding. */
export const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * `POST /auth/keys` (the OpenAPI document's `exchangeAuthCodeForAPIKey`): only `code` is required;
 * `code_verifier` goes with a code issued for a `code_challenge`, and `code_challenge_method` may be
 * null. The project's client always sends all three (S256).
 */
export const AuthKeysRequestSchema = z.lazy(() => z.strictObject({
  code: z.string().min(1, { error: 'code is required' }).max(512),
  code_verifier: z.string().min(1, { error: 'code_verifier must not be empty' }).max(128).optional(),
  code_challenge_method: z.enum(CODE_CHALLENGE_METHODS).nullable().optional(),
}));
export type AuthKeysRequest = z.infer<typeof AuthKeysRequestSchema>;
export const AuthKeysResponseSchema = z.lazy(() => z.object({ key: z.string().min(1), user_id: z.string().nullable() }));
export type AuthKeysResponse = z.infer<typeof AuthKeysResponseSchema>;

/** Where a sign-in may send its code back: a loopback callback on any port (http). */
export function isLoopbackCallback(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) && u.username === '' && u.password === '';
}

/** RFC 8414 authorization server metadata: the fields a client needs. */
export const OAuthMetadataSchema = z.lazy(() => z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.string().min(1),
  token_endpoint: z.string().min(1),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  grant_types_supported: z.array(z.string()).optional(),
  response_types_supported: z.array(z.string()).optional(),
}));
export type OAuthMetadata = z.infer<typeof OAuthMetadataSchema>;

/** RFC 6749 section 5.1. */
export const OAuthTokenSchema = z.lazy(() => z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
}));
export type OAuthToken = z.infer<typeof OAuthTokenSchema>;
/** RFC 6749 section 5.2. */
export const OAuthErrorSchema = z.lazy(() => z.object({ error: z.string(), error_description: z.string().optional() }));

export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** The sign-in page lives on the site, outside the API prefix. */
export const SIGN_IN_PATH = '/auth';
