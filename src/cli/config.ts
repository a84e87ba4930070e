/**
 * Configuration and credentials. Precedence: flags, then environment, then a
 * named profile in $XDG_CONFIG_HOME/intern-tui/config.json. The file is
 * schema-validated, and written atomically with mode 0600.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { describeIssues } from '../contract/errors.js';
import { BASE_URL_ENV, CREDENTIAL_SOURCES, DEFAULT_BASE_URL, type CredentialKind } from '../contract/routes.js';
import { isRegionalHost } from '../contract/rules.js';
import type { Credentials } from '../client/types.js';
import type { FeatureSpec } from '../tui/types.js';

const FeatureSchema = z.strictObject({ name: z.string().min(1).max(80), requires: z.array(z.string().min(1)).max(50) });
export const ProfileSchema = z.strictObject({
  base_url: z.url({ error: 'must be an http(s) URL' }).optional(),
  api_key: z.string().min(1).optional(),
  management_key: z.string().min(1).optional(),
  oauth_token: z.string().min(1).optional(),
  /** The OAuth issuer for daemon access (RFC 8414 discovery); `login --oauth` uses it. */
  oauth_issuer: z.url({ error: 'must be an http(s) URL' }).optional(),
  /** When the stored OAuth access token expires (ms since the epoch); renewed before then. */
  oauth_expires_at: z.number().int().optional(),
  /** The OAuth refresh token, when the profile's secrets are in this file. */
  oauth_refresh_token: z.string().min(1).optional(),
  /** Where `login` put this profile's secrets: the system keychain, or this file (0600). */
  credential_store: z.enum(['keychain', 'file']).optional(),
  scrollback: z.number().int().min(0).max(1_000_000).optional(),
  features: z.array(FeatureSchema).max(100).optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;
export const ConfigFileSchema = z.strictObject({
  default_profile: z.string().min(1).optional(),
  profiles: z.record(z.string().min(1), ProfileSchema).default({}),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'intern-tui', 'config.json');
}
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'intern-tui');
}

/** Reads the config file; a missing file is an empty config. Errors name the file and the field. */
export function readConfig(path: string, warn: (msg: string) => void = () => undefined): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'unknown error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${path}: ${describeIssues(parsed.error)}`);
  const holdsSecrets = Object.values(parsed.data.profiles).some((p) => p.api_key || p.management_key || p.oauth_token || p.oauth_refresh_token);
  if (holdsSecrets && process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    warn(`${path} holds credentials but other users can read it; run: chmod 600 ${path}`);
  }
  return parsed.data;
}

/** Writes the config atomically (temp file + rename), 0600 in a 0700 directory. */
export function writeConfig(path: string, config: ConfigFile): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.config.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export interface Flags {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  managementKey?: string;
  oauthToken?: string;
  scrollback?: number;
  /** --no-color: the TUI's no-colour theme. */
  noColor?: boolean;
}

export type CredentialSource = 'flag' | 'env' | 'keychain' | 'file';

export interface Resolved {
  profile: string | null;
  baseUrl: string;
  /** Whether a base URL came from any source (else the default). */
  baseUrlConfigured: boolean;
  credentials: Credentials;
  /** Where each credential came from (a keychain lookup, async, is added by cli/auth/credentials.ts). */
  sources: Partial<Record<CredentialKind, CredentialSource>>;
  scrollback: number;
  features: FeatureSpec[];
  warnings: string[];
}

const FLAG_OF: Record<CredentialKind, keyof Flags> = { api_key: 'apiKey', management_key: 'managementKey', oauth_token: 'oauthToken' };

export function resolveConfig(flags: Flags, env: NodeJS.ProcessEnv, file: ConfigFile): Resolved {
  const profileName = flags.profile ?? env.INTERN_TUI_PROFILE ?? file.default_profile ?? null;
  let profile: Profile = {};
  if (profileName !== null) {
    const found = file.profiles[profileName];
    if (!found) {
      if (flags.profile !== undefined || env.INTERN_TUI_PROFILE !== undefined) {
        const known = Object.keys(file.profiles);
        throw new ConfigError(`no profile "${profileName}" in the config file${known.length ? ` (known: ${known.join(', ')})` : ''}`);
      }
      throw new ConfigError(`default_profile "${profileName}" is not among the profiles of the config file`);
    }
    profile = found;
  }
  const credentials: Credentials = {};
  const sources: Resolved['sources'] = {};
  for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
    const candidates: [string | undefined, CredentialSource][] = [
      [flags[FLAG_OF[kind]] as string | undefined, 'flag'],
      [env[CREDENTIAL_SOURCES[kind].env], 'env'],
      [profile[kind], 'file'],
    ];
    const hit = candidates.find(([v]) => v);
    if (hit) {
      credentials[kind] = hit[0]!;
      sources[kind] = hit[1];
    }
  }
  const explicitBase = flags.baseUrl || env[BASE_URL_ENV] || profile.base_url;
  const baseUrl = explicitBase || DEFAULT_BASE_URL;
  const warnings: string[] = [];
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    throw new ConfigError(`the base URL is not a URL: ${baseUrl.slice(0, 200)}`);
  }
  if (isRegionalHost(host)) warnings.push(`${host} is a regional host: the service refuses intern routes on regional hosts; use the global host`);
  return {
    profile: profileName,
    baseUrl,
    baseUrlConfigured: Boolean(explicitBase),
    credentials,
    sources,
    scrollback: flags.scrollback ?? profile.scrollback ?? 10_000,
    features: [...(profile.features ?? []), ...BUILTIN_FEATURES],
    warnings,
  };
}

/** Examples for the connections screen's feature check; a profile's own features come first. */
export const BUILTIN_FEATURES: FeatureSpec[] = [
  { name: 'Code review', requires: ['github'] },
  { name: 'Standup digest', requires: ['slack', 'github'] },
  { name: 'Calendar triage', requires: ['google'] },
];
