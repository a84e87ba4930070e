/**
 * `intern-tui auth status`, like `gh auth status`: for the profile in use, each credential kind,
 * whether it is set and where it comes from (flag, environment, keychain, file), whether the service
 * takes the API key (its label from `GET /key`: "signed in as") and the management key, and the
 * OAuth token's expiry and renewal. Never a secret.
 */
import { askManagementKey, createClient } from '../../client/index.js';
import { ApiError } from '../../client/errors.js';
import { CREDENTIAL_SOURCES, loginCommand, type CredentialKind } from '../../contract/routes.js';
import { shellQuote } from '../quote.js';
import { sanitize } from '../../text.js';
import { readConfig } from '../config.js';
import { type Flags, loginHint, refusedFix, usesEmbeddedSandbox } from '../settings.js';
import { EXIT } from '../exit.js';
import { type AuthDeps, resolveSignedIn } from './credentials.js';

export interface KindStatus {
  set: boolean;
  source: 'flag' | 'env' | 'keychain' | 'file' | null;
  /** Where to set it when missing. */
  env: string;
  /** API key only: the label from GET /key. */
  label?: string;
  /** API and management keys: whether the service takes it (GET /key; the first BYOK key's page), refuses it, or could not be asked. */
  check?: 'ok' | 'refused' | 'unreachable';
  /** OAuth token only. */
  expires_at?: string | null;
  renews?: boolean;
}

export interface AuthStatus {
  profile: string | null;
  config_file: string;
  base_url: string;
  oauth_issuer: string | null;
  credentials: Record<CredentialKind, KindStatus>;
  /** The origin the profile's stored keys belong to, when the base URL (from a flag or the environment) is another: they are not sent. */
  stored_keys_for: string | null;
  /** Nothing configured (no credential, no base URL): the TUI and the commands use a temporary built-in sandbox. */
  sandbox: boolean;
}

/** The fields of `auth status --json` (every key of AuthStatus: the check below fails to compile when one is left out). */
export const AUTH_STATUS_FIELDS = ['profile', 'config_file', 'base_url', 'oauth_issuer', 'credentials', 'stored_keys_for', 'sandbox'] as const satisfies readonly (keyof AuthStatus)[];
const allNamed: Exclude<keyof AuthStatus, (typeof AUTH_STATUS_FIELDS)[number]> extends never ? true : never = true;
void allNamed;

const SOURCE_TEXT = { flag: 'a command-line flag', env: 'the environment', keychain: 'the system keychain', file: 'the config file' } as const;

export async function authStatus(flags: Flags, deps: AuthDeps & { now?: () => number }): Promise<{ status: AuthStatus; exit: number }> {
  const file = readConfig(deps.path, deps.warn);
  const r = await resolveSignedIn(flags, deps, file);
  const profile = r.profile !== null ? file.profiles[r.profile] : undefined;
  const credentials = {} as Record<CredentialKind, KindStatus>;
  for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
    credentials[kind] = { set: Boolean(r.credentials[kind]), source: r.sources[kind] ?? null, env: CREDENTIAL_SOURCES[kind].env };
  }
  // An expired stored OAuth token is left out by resolveSignedIn; it still counts as set when it renews.
  if (!credentials.oauth_token.set && r.renewOAuthToken) {
    credentials.oauth_token = { ...credentials.oauth_token, set: true, source: profile?.credential_store ?? 'file' };
  }
  if (credentials.oauth_token.set && (credentials.oauth_token.source === 'file' || credentials.oauth_token.source === 'keychain')) {
    credentials.oauth_token.expires_at = profile?.oauth_expires_at !== undefined ? new Date(profile.oauth_expires_at).toISOString() : null;
    credentials.oauth_token.renews = Boolean(r.renewOAuthToken);
  }
  // The keys are asked of the service, both at once: a key it refuses exits 4 (as gh auth status
  // exits on a bad token), one it could not be asked about 1 (unchecked is not fine).
  const client = createClient({ baseUrl: r.baseUrl, credentials: { api_key: r.credentials.api_key, management_key: r.credentials.management_key }, maxAttempts: 1, timeoutMs: 10_000 });
  const check = async (kind: 'api_key' | 'management_key', ask: () => Promise<unknown>) => {
    if (!r.credentials[kind]) return;
    try {
      await ask();
      credentials[kind].check = 'ok';
    } catch (e) {
      credentials[kind].check = e instanceof ApiError && (e.status === 401 || e.status === 403) ? 'refused' : 'unreachable';
    }
  };
  await Promise.all([
    check('api_key', async () => (credentials.api_key.label = sanitize((await client.getKeyInfo()).label))),
    check('management_key', () => askManagementKey(client)),
  ]);
  const checks = [credentials.api_key.check, credentials.management_key.check];
  let exit: number = checks.includes('refused') ? EXIT.auth : checks.includes('unreachable') ? EXIT.failed : EXIT.ok;
  if (!Object.values(credentials).some((c) => c.set)) exit = EXIT.auth;
  return {
    status: {
      profile: r.profile,
      config_file: deps.path,
      base_url: r.baseUrl,
      oauth_issuer: profile?.oauth_issuer ?? null,
      credentials,
      stored_keys_for: r.storedWithheldFor,
      sandbox: usesEmbeddedSandbox(false, r),
    },
    exit,
  };
}

export function formatStatus(s: AuthStatus, now = Date.now()): string {
  const at = { profile: s.profile, baseUrl: s.base_url, storedWithheldFor: s.stored_keys_for };
  const lines = [`${sanitize(s.base_url)}`, `  profile: ${s.profile ? sanitize(s.profile) : '(none)'} (${s.config_file})`];
  if (s.stored_keys_for) lines.push(`  stored keys: not sent to this host; profile ${s.profile ? `"${sanitize(s.profile)}" ` : ''}keeps them for ${sanitize(s.stored_keys_for)}`);
  for (const kind of Object.keys(s.credentials) as CredentialKind[]) {
    const c = s.credentials[kind];
    const label = CREDENTIAL_SOURCES[kind].label;
    if (!c.set) {
      lines.push(`  ${label}: not set (set ${c.env}, or run ${loginHint(kind, at)})`);
      continue;
    }
    let line = `  ${label}: set, from ${SOURCE_TEXT[c.source ?? 'file']}`;
    if (c.check === 'ok') line += kind === 'api_key' ? `; signed in as ${c.label}` : '; the service takes it';
    // Set again where it came from: a key from the environment wins over a login's.
    else if (c.check === 'refused') line += `; the service refuses it (${refusedFix(kind, c.source, at)})`;
    else if (c.check === 'unreachable') line += '; the service could not be reached to check it';
    if (kind === 'oauth_token') {
      if (c.expires_at) {
        const left = Date.parse(c.expires_at) - now;
        line += left > 0 ? `; expires in ${Math.max(1, Math.round(left / 60_000))} min` : '; expired';
      }
      if (c.renews) line += `; renews itself from the stored refresh token${s.oauth_issuer ? ` (issuer ${sanitize(s.oauth_issuer)})` : ''}`;
    }
    lines.push(line);
  }
  if (s.sandbox) lines.push('Nothing is configured, so the TUI and the commands use a temporary built-in sandbox with demo data.', `Sign in to the service with: ${loginCommand('api_key', s.profile ? shellQuote(s.profile) : null)}`);
  return lines.join('\n') + '\n';
}
