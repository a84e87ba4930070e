/**
 * Every route of the service as data: method, path template, the credential it
 * takes, its success status and its deadline. The client picks credentials from
 * this table; the sandbox registers its handlers and deadlines from it.
 */
import { LIMITS } from './limits.js';

/**
 * The credential kinds a person configures: `api_key` for intern, vault, chat and catalogue routes,
 * `management_key` for BYOK, `oauth_token` for daemon access.
 */
export type CredentialKind = 'api_key' | 'management_key' | 'oauth_token';
/** What a route takes: a credential, or `none` for the sign-in exchange (it is how a key is obtained). */
export type RouteCredential = CredentialKind | 'none';
export type ErrorFamily = 'intern' | 'byok';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** Path under {base_url}, with `{param}` placeholders. */
  path: string;
  credential: RouteCredential;
  success: number;
  errors: ErrorFamily;
  /** The route's deadline, when the service sets one. */
  deadlineMs: number;
}

const intern = (method: HttpMethod, path: string, success: number, credential: RouteCredential = 'api_key'): RouteSpec => ({
  method,
  path,
  credential,
  success,
  errors: 'intern',
  deadlineMs: LIMITS.routeDeadlineMs,
});
const byok = (method: HttpMethod, path: string, success: number): RouteSpec => ({
  method,
  path,
  credential: 'management_key',
  success,
  errors: 'byok',
  deadlineMs: LIMITS.routeDeadlineMs,
});

export const ROUTES = {
  listInterns: intern('GET', '/interns', 200),
  createIntern: intern('POST', '/interns', 201),
  getIntern: intern('GET', '/interns/{internId}', 200),
  updateIntern: intern('PATCH', '/interns/{internId}', 200),
  deleteIntern: intern('DELETE', '/interns/{internId}', 202),
  provisionIntern: intern('POST', '/interns/{internId}/provision', 202),
  suspendIntern: intern('POST', '/interns/{internId}/suspend', 200),
  getInternIcon: intern('GET', '/interns/{internId}/icon', 200),
  getDaemonAccess: intern('GET', '/interns/{internId}/daemon', 200, 'oauth_token'),
  listConnections: intern('GET', '/vault/interns/{internId}/connections', 200),
  /** Workspaces (the public OpenAPI document): management key, and the BYOK routes' error envelope. */
  listWorkspaces: byok('GET', '/workspaces', 200),
  getWorkspace: byok('GET', '/workspaces/{id}', 200),
  listByok: byok('GET', '/byok', 200),
  createByok: byok('POST', '/byok', 201),
  getByok: byok('GET', '/byok/{id}', 200),
  updateByok: byok('PATCH', '/byok/{id}', 200),
  deleteByok: byok('DELETE', '/byok/{id}', 200),
  listVaultSecrets: intern('GET', '/vault/secrets', 200),
  putVaultSecret: intern('PUT', '/vault/secrets/{name}', 200),
  deleteVaultSecret: intern('DELETE', '/vault/secrets/{name}', 204),
  listInternSecrets: intern('GET', '/vault/interns/{internId}/secrets', 200),
  putInternSecret: intern('PUT', '/vault/interns/{internId}/secrets/{name}', 200),
  deleteInternSecret: intern('DELETE', '/vault/interns/{internId}/secrets/{name}', 204),
  copySecretsToIntern: intern('POST', '/vault/interns/{internId}/secrets/copy', 200),
  listEffectiveSecrets: intern('GET', '/vault/interns/{internId}/effective-secrets', 200),
  listModels: intern('GET', '/models', 200),
  listProviders: intern('GET', '/providers', 200),
  getKeyInfo: intern('GET', '/key', 200),
  /** A stream: no deadline of its own (the run goes on until it ends, is cancelled or an interaction times out). */
  chat: { ...intern('POST', '/interns/{internId}/chat/completions', 200), deadlineMs: 0 },
  invoke: intern('POST', '/interns/{internId}/invoke', 202),
  exchangeAuthCode: intern('POST', '/auth/keys', 200, 'none'),
} as const satisfies Record<string, RouteSpec>;
export type RouteName = keyof typeof ROUTES;

/** `GET /interns/{internId}`: the "match" form the sandbox's fault injection uses. */
export function routeLabel(route: RouteSpec): string {
  return `${route.method} ${route.path}`;
}

const BY_LABEL = new Map<string, RouteSpec>(Object.values(ROUTES as Record<string, RouteSpec>).map((r) => [routeLabel(r), r]));

/** The credential a route takes, by its label (`GET /byok/{id}`); undefined for a label not in the table. */
export function credentialOfRoute(label: string): RouteCredential | undefined {
  return BY_LABEL.get(label)?.credential;
}

/**
 * Fills a path template; every parameter is URI-encoded. `.` and `..` are refused: encoded or not,
 * a URL parser takes them as the path's own segments (`DELETE /vault/secrets/..` is another route).
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    if (value === '.' || value === '..') throw new Error(`"${value}" cannot be sent as ${name}: a URL takes it as a step in the path, not a name`);
    if (value === '') throw new Error(`an empty ${name} cannot be sent: the path would name the collection, not one of it`);
    return encodeURIComponent(value);
  });
}

/** The environment variable and flag that provide each credential kind, and the `login` flags that store one. */
export const CREDENTIAL_SOURCES: Record<
  CredentialKind,
  { env: string; flag: string; label: string; /** The label with its article, for "needs …". */ aLabel: string; /** What `intern-tui login` needs to store it. */ loginFlags: string }
> = {
  api_key: { env: 'OPENROUTER_API_KEY', flag: '--api-key', label: 'API key', aLabel: 'an API key', loginFlags: '' },
  management_key: { env: 'OPENROUTER_MANAGEMENT_KEY', flag: '--management-key', label: 'management key', aLabel: 'a management key', loginFlags: ' --with-token --kind management_key' },
  oauth_token: { env: 'OPENROUTER_OAUTH_TOKEN', flag: '--oauth-token', label: 'OAuth token', aLabel: 'an OAuth token', loginFlags: ' --oauth' },
};

/**
 * What no key or token holds: a space of any kind or a control character. One that does was pasted
 * with its line break (or read from a Windows file), and would fail as a header.
 */
export const NOT_IN_A_KEY = /[\s\x00-\x1f\x7f]/;

/** The command that stores a credential of this kind (for a named profile, with its --profile). */
export function loginCommand(kind: CredentialKind, profile?: string | null): string {
  return `intern-tui login${profile ? ` --profile ${profile}` : ''}${CREDENTIAL_SOURCES[kind].loginFlags}`;
}
export const BASE_URL_ENV = 'OPENROUTER_BASE_URL';
export const DEFAULT_BASE_URL = 'https://openrouter.ai/api/v1';
