/** Bearer resolution and the access rules of spec section 5. */
import { isRegionalHost } from '../contract/rules.js';
import { CREDENTIAL_SOURCES, type RouteCredential } from '../contract/routes.js';
import { sha256Hex } from './crypto.js';
import { HttpError, forbidden, notFound, unauthorized } from './errors.js';
import type { KeyRow, Store } from './store.js';

export interface Caller {
  key: KeyRow;
  /** `user:<id>`, `org:<workspace>` or `intern:<id>`: who the audit log names, never the secret. */
  principal: string;
}

export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

export function resolveCaller(store: Store, authorization: string | undefined): Caller | undefined {
  const secret = bearerOf(authorization);
  if (!secret) return undefined;
  const key = store.keyByHash(sha256Hex(secret));
  if (!key) return undefined;
  const principal = key.kind === 'intern_key' ? `intern:${key.intern_id}` : key.user_id ? `user:${key.user_id}` : `org:${key.workspace_id}`;
  return { key, principal };
}

/**
 * Intern and vault routes: 401 unknown key or a management key, 403 regional
 * host or lost access, 404 outside the programme. `needs` is the route's credential kind.
 */
export function authorizeIntern(store: Store, authorization: string | undefined, host: string | undefined, needs: RouteCredential): Caller {
  const caller = resolveCaller(store, authorization);
  if (!caller || caller.key.kind === 'management_key') throw unauthorized(`Missing, unknown or unusable ${needs === 'oauth_token' ? CREDENTIAL_SOURCES.oauth_token.label : CREDENTIAL_SOURCES.api_key.label}`);
  if (host && isRegionalHost(host)) throw forbidden('Regional hostnames are refused on intern routes; use the global host');
  if (caller.key.lost_access) throw forbidden('The owner of this key no longer has access');
  if (!caller.key.in_programme) throw notFound('Not found');
  if (needs === 'oauth_token' && caller.key.kind !== 'oauth_token') {
    throw new HttpError(403, 'personal_identity_required', 'Daemon access needs a personal identity: authenticate with an OAuth token, not an API key');
  }
  return caller;
}

/**
 * Catalogue routes (`GET /models`, `GET /providers`): the public OpenAPI document gives them its global
 * security, a bearer API key, with no narrower requirement: any known key of the service, a
 * management key included, and 401 without one. They are not intern or vault routes, so neither the
 * programme (spec 1, 5.8) nor the regional-host rule (spec 1) applies; a key whose owner lost access
 * is still 403 (spec 5.7).
 */
export function authorizeCatalogue(store: Store, authorization: string | undefined): Caller {
  const caller = resolveCaller(store, authorization);
  if (!caller) throw unauthorized('Missing or unknown API key');
  if (caller.key.lost_access) throw forbidden('The owner of this key no longer has access');
  return caller;
}

/** BYOK routes: 401 without a known key, 403 for anything but a management key. */
export function authorizeManagement(store: Store, authorization: string | undefined): Caller {
  const caller = resolveCaller(store, authorization);
  if (!caller) throw unauthorized('Missing authentication');
  if (caller.key.kind !== 'management_key') throw forbidden('This route requires a management key');
  return caller;
}
