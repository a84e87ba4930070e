/**
 * The CLI's settings: flags, then the environment, then a named profile of the config file
 * (config.ts reads it); where the config and cache live is dirs.ts's. No zod here: the start-up
 * path reads it (earlySandbox.ts, to start the embedded sandbox before the rest of the CLI has loaded).
 */
import { dirname } from 'node:path';
import { BASE_URL_ENV, CREDENTIAL_SOURCES, DEFAULT_BASE_URL, NOT_IN_A_KEY, loginCommand, type CredentialKind } from '../contract/routes.js';
import { isRegionalHost } from '../contract/rules.js';
import { themeWarning } from '../tui/theme.js';
import type { ClientOptions, Credentials } from '../client/types.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { ThreadSandboxOptions } from '../sandbox/thread.js';
import type { FeatureSpec } from '../tui/types.js';
import type { NotifyKind } from '../tui/terminal.js';
import type { ConfigFile, Profile } from './config.js';
import { SECRET_NAMES } from './auth/store.js';
import { shellQuote } from './quote.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** How the CLI reports a warning about the settings (a config file others can read, a profile overridden...). */
export const warnTo =
  (stderr: NodeJS.WritableStream) =>
  (message: string): void => {
    stderr.write(`intern-tui: warning: ${message}\n`);
  };

/** What a missing config file reads as (config.ts's readConfig, and dispatch.ts's early decision). */
export const noConfigFile = (): ConfigFile => ({ profiles: {} });

// Where the config, the caches and the state live: dirs.ts (a leaf the TUI's quick start loads alone).
export { cacheDir, codeCacheDir, configPath, profileFromEnv, stateDir } from './dirs.js';
import { configPath, profileFromEnv } from './dirs.js';

export interface Flags {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  managementKey?: string;
  oauthToken?: string;
  scrollback?: number;
  /** --no-color: the TUI's no-colour theme. */
  noColor?: boolean;
  /** --no-mouse: the TUI asks for no mouse reports. */
  noMouse?: boolean;
}

export type CredentialSource = 'flag' | 'env' | 'keychain' | 'file';

export interface Resolved {
  profile: string | null;
  baseUrl: string;
  /** Whether a base URL came from any source (else the default). */
  baseUrlConfigured: boolean;
  /**
   * The profile's own origin (its base_url, else the default's) when the base URL from a flag or the
   * environment is on another: the profile's stored keys and tokens (file, keychain, the OAuth
   * renewal) belong to that origin and are not sent elsewhere, as gh keys its tokens by host.
   */
  storedWithheldFor: string | null;
  /** The profile keeps keys (in the file, or by its marker in the keychain), whether or not they could be read now. */
  profileHoldsKeys: boolean;
  credentials: Credentials;
  /** Where each credential came from (a keychain lookup, async, is added by cli/auth/credentials.ts). */
  sources: Partial<Record<CredentialKind, CredentialSource>>;
  scrollback: number;
  /** The profile's `record`: attach records every session when `always`. */
  record: 'off' | 'always';
  /** How the chat asks for attention: the profile's `notify`, else the bell. */
  notify: NotifyKind;
  /** Whether the TUI takes the mouse: --no-mouse, else the profile's `mouse`, else yes. */
  mouse: boolean;
  features: FeatureSpec[];
  /** The config file's `keys` (the TUI's remapping, checked when it starts) and `theme`: the person's, not a profile's. */
  keys: NonNullable<ConfigFile['keys']>;
  theme: string | null;
  warnings: string[];
}

const FLAG_OF: Record<CredentialKind, keyof Flags> = { api_key: 'apiKey', management_key: 'managementKey', oauth_token: 'oauthToken' };


/** A profile named by --profile or INTERN_TUI_PROFILE that the config file lacks: the words every command uses. */
export function noSuchProfile(name: string, file: ConfigFile): ConfigError {
  const known = Object.keys(file.profiles);
  return new ConfigError(`no profile "${name}" in the config file${known.length ? ` (known: ${known.join(', ')})` : ''}`);
}

export function resolveConfig(flags: Flags, env: NodeJS.ProcessEnv, file: ConfigFile): Resolved {
  const profileName = flags.profile ?? profileFromEnv(env) ?? file.default_profile ?? null;
  let profile: Profile = {};
  if (profileName !== null) {
    const found = file.profiles[profileName];
    if (!found) {
      if (flags.profile !== undefined || profileFromEnv(env) !== undefined) throw noSuchProfile(profileName, file);
      throw new ConfigError(`default_profile "${profileName}" is not among the profiles of the config file`);
    }
    profile = found;
  }
  const explicitBase = flags.baseUrl || env[BASE_URL_ENV] || profile.base_url;
  const baseUrl = explicitBase || DEFAULT_BASE_URL;
  const url = parseBaseUrl(baseUrl);
  const ownOrigin = profileOrigin(profile);
  const storedWithheldFor = profileName !== null && url.origin !== ownOrigin && holdsStoredSecrets(profile) ? ownOrigin : null;
  const credentials: Credentials = {};
  const sources: Resolved['sources'] = {};
  for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
    const candidates: [string | undefined, CredentialSource][] = [
      [flags[FLAG_OF[kind]] as string | undefined, 'flag'],
      [env[CREDENTIAL_SOURCES[kind].env], 'env'],
      [storedWithheldFor ? undefined : profile[kind], 'file'],
    ];
    const hit = candidates.find(([v]) => v);
    // A key pasted with its line break (or copied from a Windows file) would fail as a header, reported as a network error.
    if (hit && NOT_IN_A_KEY.test(hit[0]!)) {
      const where = hit[1] === 'flag' ? CREDENTIAL_SOURCES[kind].flag : hit[1] === 'env' ? CREDENTIAL_SOURCES[kind].env : `the profile's ${kind} in the config file`;
      throw new ConfigError(`the ${CREDENTIAL_SOURCES[kind].label} from ${where} holds a space, a line break or another control character, which no key has; set it again without them`);
    }
    if (hit) {
      credentials[kind] = hit[0]!;
      sources[kind] = hit[1];
    }
  }
  const warnings: string[] = [];
  // Said when it matters: a kind the profile keeps that no flag or variable gives for this host
  // (a CI job that sets every key for it needs no warning on every command).
  const kept = (kind: CredentialKind) => profile.credential_store === 'keychain' || Boolean(profile[kind]) || (kind === 'oauth_token' && Boolean(profile.oauth_refresh_token));
  const missed = (Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]).some((kind) => kept(kind) && !credentials[kind]);
  if (storedWithheldFor && missed) {
    const from = flags.baseUrl ? '--base-url' : BASE_URL_ENV;
    warnings.push(
      `profile "${profileName}" keeps keys for ${storedWithheldFor}, not sent to ${url.origin} (from ${from}): give keys for it by flag or environment, or sign in to it as another profile (${loginCommand('api_key')} --base-url URL --profile NAME)`,
    );
  }
  const host = url.host;
  const theme = themeWarning(env);
  if (theme) warnings.push(theme);
  if (isRegionalHost(host)) warnings.push(`${host} is a regional host: the service refuses intern routes on regional hosts; use the global host`);
  return {
    profile: profileName,
    baseUrl,
    baseUrlConfigured: Boolean(explicitBase),
    storedWithheldFor,
    profileHoldsKeys: profileName !== null && holdsStoredSecrets(profile),
    credentials,
    sources,
    scrollback: flags.scrollback ?? profile.scrollback ?? 10_000,
    record: profile.record ?? 'off',
    notify: profile.notify ?? 'bell',
    mouse: flags.noMouse !== true && profile.mouse !== false,
    features: [...(profile.features ?? []), ...BUILTIN_FEATURES],
    keys: file.keys ?? {},
    theme: file.theme ?? null,
    warnings,
  };
}

/** Checks a base URL: a URL, http(s), no user name or password. */
export function parseBaseUrl(baseUrl: string): URL {
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`the base URL is not a URL: ${shownUrl(baseUrl)}${hasScheme ? '' : schemeHint(baseUrl)}`);
  }
  // `localhost:8080/api/v1` parses, with "localhost:" as its scheme.
  if (!hasScheme) throw new ConfigError(`the base URL has no http:// or https://${schemeHint(baseUrl)}`);
  // A password in the URL would be shown wherever the base URL is (status, errors); the service takes bearer keys.
  if (url.username || url.password) throw new ConfigError(`the base URL must not hold a user name or password: give ${url.protocol}//${url.host}${url.pathname} and the credentials by ${CREDENTIAL_SOURCES.api_key.env} or ${loginCommand('api_key')}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`the base URL must be http or https, not ${url.protocol.slice(0, 20)}`);
  // Paths are added to it: a query or a fragment (even an empty one: a bare ? or #) would end up in the middle of every one.
  if (/[?#]/.test(baseUrl)) throw new ConfigError(`the base URL must not hold a query or a fragment: give ${url.origin}${url.pathname}`);
  return url;
}

/** A base URL as an error may show it: no user name or password (whatever precedes an @), no query or fragment (a token may ride there), 200 characters at most. */
function shownUrl(baseUrl: string): string {
  return baseUrl.replace(/^([^/]*\/\/)?[^/]*@/, (_, scheme: string | undefined) => `${scheme ?? ''}…@`).replace(/[?#].*$/, '').slice(0, 200);
}

/** " (with its scheme: http://host/path)", from the part that is shown. */
function schemeHint(baseUrl: string): string {
  // \u2026, not the character itself: esbuild keeps a regex literal as written, and one character
  // outside ASCII makes V8 hold the whole of dist/tui.cjs as a two-byte string (scripts/build.mjs).
  const bare = shownUrl(baseUrl).replace(/^\u2026@/, '');
  return ` (with its scheme: http://${bare} or https://${bare})`;
}

/** A profile's base URL was checked when the config file was read; an unreadable one matches nothing. */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return '';
  }
}

/** Whether a profile keeps any key or token: in the file, or (by its marker) in the keychain. */
export function holdsStoredSecrets(profile: Profile): boolean {
  return SECRET_NAMES.some((name) => profile[name]) || profile.credential_store === 'keychain';
}

/**
 * The `login` that stores a credential of `kind` for where commands go now: the profile's own, or,
 * for a base URL it keeps no keys for (login would refuse to move it), another profile for it.
 */
export function loginHint(kind: CredentialKind, at: { profile: string | null; baseUrl: string; storedWithheldFor: string | null }): string {
  // A command to paste: the base URL and profile name quoted for the shell (quote.ts).
  return at.storedWithheldFor ? `${loginCommand(kind)} --base-url ${shellQuote(at.baseUrl)} --profile NAME` : loginCommand(kind, at.profile === null ? null : shellQuote(at.profile));
}

/**
 * How to mend a credential the service refused, by where it came from: the variable or flag that
 * set it, else the login that stored it (`loginHint`); not known, both. `code` marks a command up
 * (a message's backticks). `auth status` and every command's refusal say it alike.
 */
export function refusedFix(kind: CredentialKind, source: CredentialSource | null | undefined, at: { profile: string | null; baseUrl: string; storedWithheldFor: string | null }, code: (command: string) => string = (c) => c): string {
  if (source === 'env') return `check ${CREDENTIAL_SOURCES[kind].env}`;
  if (source === 'flag') return `check ${CREDENTIAL_SOURCES[kind].flag}`;
  const login = code(loginHint(kind, at));
  return source ? `run ${login}` : `check ${CREDENTIAL_SOURCES[kind].env}, or run ${login}`;
}

/** refusedFix for each credential that is set, as the TUI's "Not authenticated" says it. */
export function refusedFixes(r: Pick<Resolved, 'sources' | 'profile' | 'baseUrl' | 'storedWithheldFor'>): Partial<Record<CredentialKind, string>> {
  const out: Partial<Record<CredentialKind, string>> = {};
  for (const kind of Object.keys(r.sources) as CredentialKind[]) out[kind] = refusedFix(kind, r.sources[kind], r);
  return out;
}

/** The origin a profile's stored keys belong to: its base URL's, else the default service's. */
export const profileOrigin = (profile: Profile): string => originOf(profile.base_url || DEFAULT_BASE_URL);

/** Examples for the connections screen's feature check; a profile's own features come first. */
export const BUILTIN_FEATURES: FeatureSpec[] = [
  { name: 'Code review', requires: ['github'] },
  { name: 'Standup digest', requires: ['slack', 'github'] },
  { name: 'Calendar triage', requires: ['google'] },
];

/**
 * Whether the TUI runs on its embedded sandbox: when asked (`--sandbox`), or when nothing points it
 * anywhere (no credential and no base URL from a flag, the environment or a profile, and no profile
 * that keeps keys: one whose keychain is locked, or not read yet, still names the service).
 */
export function usesEmbeddedSandbox(forceSandbox: boolean, resolved: Pick<Resolved, 'credentials' | 'baseUrlConfigured' | 'profileHoldsKeys'>): boolean {
  return forceSandbox || (!Object.values(resolved.credentials).some(Boolean) && !resolved.baseUrlConfigured && !resolved.profileHoldsKeys);
}

/** The embedded sandbox: loopback, a free port, the demo data; the config folder out of its interns' sight. */
export const EMBEDDED_SANDBOX: ThreadSandboxOptions = { host: '127.0.0.1', port: 0, seed: 'demo', privatePaths: [dirname(configPath())] };

/** The embedded sandbox, when dispatch.ts has started it already (before legacy.ts and the TUI load). */
export interface EarlySandbox {
  started: Promise<RunningSandbox>;
}

/** The client's options for an embedded sandbox: its URL and its manifest's three credentials. */
export function embeddedClientOptions(sandbox: Pick<RunningSandbox, 'baseUrl' | 'manifest'>): ClientOptions {
  const c = sandbox.manifest.credentials;
  return { baseUrl: sandbox.baseUrl, credentials: { api_key: c.api_key, management_key: c.management_key, oauth_token: c.oauth_token } };
}
