/** Sign-in exchange: `POST /auth/keys` turns a sign-in code and its PKCE verifier into an API key. */
import { AuthKeyResponseSchema, type AuthKeyRequest } from '../contract/auth.js';
import { ROUTES } from '../contract/routes.js';
import type { HttpCore } from './http.js';
import type { CallOptions } from './types.js';

export function authRoutes(http: HttpCore) {
  return {
    /** Takes no credential (it is how one is obtained): HttpCore sends no Authorization header. */
    exchangeAuthCode: (body: AuthKeyRequest, opts?: CallOptions) =>
      http.json(AuthKeyResponseSchema, { route: ROUTES.exchangeAuthCode, body }, opts),
  };
}
