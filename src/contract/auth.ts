/**
 * Signing in (public notes, "Signing in from a terminal"): the PKCE exchange that yields an API key,
 * and the OAuth 2.0 authorization server (RFC 8414 metadata, RFC 7636 PKCE) that yields the OAuth
 * token daemon access wants. One home for the rules both the sandbox and the CLI apply.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Where the sign-in page lives on the site's origin (outside `/api/v1`). */
export const AUTH_PAGE_PATH = '/auth';
/** RFC 8414 well-known path, relative to the issuer's origin. */
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** A code from the sign-in page or the authorize endpoint is single use and valid this long. */
export const AUTH_CODE_TTL_MS = 10 * 60_000;

/** RFC 7636 section 4.1: 43 to 128 characters of the unreserved set. */
export const CODE_VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
export const CodeChallengeMethodSchema = z.enum(['S256', 'plain']);
export type CodeChallengeMethod = z.infer<typeof CodeChallengeMethodSchema>;

/** A fresh verifier: 32 random bytes, base64url (43 characters). */
export function makeCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The challenge for a verifier: BASE64URL(SHA256(verifier)) for S256, the verifier itself for plain. */
export function codeChallenge(verifier: string, method: CodeChallengeMethod = 'S256'): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * A callback the sign-in page may redirect to: `http` on a loopback host (`localhost`, `127.0.0.1`,
 * `[::1]`), any port, no credentials in the URL. Anything else would hand the code to another site.
 */
export function isLoopbackCallback(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) && !u.username && !u.password && u.port !== '';
}

/** `POST /auth/keys` body. */
export const AuthKeyRequestSchema = z.strictObject({
  code: z.string().min(1).max(512),
  code_verifier: z.string().regex(CODE_VERIFIER_RE, { error: 'must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~' }),
  code_challenge_method: CodeChallengeMethodSchema.optional(),
});
export type AuthKeyRequest = z.infer<typeof AuthKeyRequestSchema>;

/** `POST /auth/keys` answer: an ordinary API key. */
export const AuthKeyResponseSchema = z.object({ key: z.string().min(1), user_id: z.string().nullable() });
export type AuthKeyResponse = z.infer<typeof AuthKeyResponseSchema>;

/** RFC 8414 metadata: the fields a client needs, the rest tolerated. */
export const AuthServerMetadataSchema = z
  .object({
    issuer: z.url(),
    authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()).optional(),
    code_challenge_methods_supported: z.array(z.string()).optional(),
    token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
    revocation_endpoint: z.url().optional(),
  })
  .loose();
export type AuthServerMetadata = z.infer<typeof AuthServerMetadataSchema>;

/** RFC 6749 section 5.1 token response. */
export const TokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', { error: 'token_type must be Bearer' }),
    expires_in: z.number().int().positive().optional(),
    refresh_token: z.string().min(1).optional(),
    scope: z.string().optional(),
  })
  .loose();
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** RFC 6749 section 5.2 error response. */
export const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() }).loose();

/** The OAuth client id this program uses with any issuer (a public client: no secret, PKCE instead). */
export const OAUTH_CLIENT_ID = 'intern-tui';
