/** `createClient`: the typed API client for every route of the service. */
import type { CredentialKind } from '../contract/routes.js';
import { authRoutes } from './auth.js';
import { byokRoutes } from './byok.js';
import { catalogRoutes } from './catalog.js';
import { CHAT_SILENCE_MS, chatRoutes } from './chat.js';
import { HttpCore, RESPONSE_LIMITS } from './http.js';
import { internRoutes } from './interns.js';
import type { ClientOptions, InternApi } from './types.js';
import { vaultRoutes } from './vault.js';

export * from './errors.js';
export { authorizationUrl, createPkce, discoverOAuth, exchangeOAuthCode, refreshOAuthToken, signInUrl, siteOf, type Pkce } from './auth.js';
export type * from './types.js';
export { askManagementKey } from './byok.js';

export function createClient(options: ClientOptions): InternApi {
  const http = new HttpCore(options);
  const configured: Record<CredentialKind, boolean> = {
    api_key: Boolean(options.credentials.api_key),
    management_key: Boolean(options.credentials.management_key),
    oauth_token: Boolean(options.credentials.oauth_token || options.renewOAuthToken),
  };
  return { baseUrl: http.baseUrl, configured, ...internRoutes(http), ...byokRoutes(http), ...vaultRoutes(http), ...catalogRoutes(http), ...chatRoutes(http, options.maxResponseBytes ?? RESPONSE_LIMITS.jsonBytes, options.chatSilenceMs ?? CHAT_SILENCE_MS, options.chatStreamMaxBytes), ...authRoutes(http) };
}
