/**
 * `intern-tui login` and `logout` (issue 11, item 5).
 * - `login`: PKCE sign-in for an API key (public notes): a loopback listener, "Open this URL to sign
 *   in:", the browser when there is one, the code exchanged at `POST /auth/keys`.
 * - `login --headless`: the page shows the code; it is pasted at a masked prompt.
 * - `login --oauth`: the OAuth token for daemon access from the profile's issuer (RFC 8414
 *   discovery, authorization code + PKCE S256), with its refresh token.
 * - `login --with-token`: a key from stdin (or a masked prompt on a terminal), for CI.
 * Secrets go to the system keychain when one answers, else the profile in the config file (0600).
 * No secret is ever printed, logged or put in a URL or argument list.
 */
import { askManagementKey, createClient } from '../client/index.js';
import { ApiError, NetworkError } from '../client/errors.js';
import { authorizationUrl, createPkce, discoverOAuth, exchangeOAuthCode, signInUrl } from '../client/auth.js';
import { BASE_URL_ENV, CREDENTIAL_SOURCES, DEFAULT_BASE_URL, NOT_IN_A_KEY, type CredentialKind } from '../contract/routes.js';
import { sanitize } from '../text.js';
import { shellQuote } from './quote.js';
import { type Profile, readConfig } from './config.js';
import { holdsStoredSecrets, noSuchProfile, originOf, parseBaseUrl, profileFromEnv, profileOrigin, warnTo } from './settings.js';
import type { Io } from './context.js';
import { CliError, EXIT, usageError } from './exit.js';
import { maskedPrompt, readAll } from './input.js';
import { OAUTH_CLIENT_ID, forgetProfileSecrets, saveProfile } from './auth/credentials.js';
import { openBrowser as defaultOpenBrowser } from './auth/browser.js';
import { listenForCallback } from './auth/loopback.js';
import type { Keychain } from './auth/store.js';
import { randomBytes } from 'node:crypto';
import type * as Readline from 'node:readline';
import { importExternal } from '../importExternal.js';

export interface LoginOptions {
  /** --profile; else INTERN_TUI_PROFILE, the default profile, or "default". */
  profile?: string;
  /** --base-url: saved in the profile. */
  baseUrl?: string;
  noBrowser?: boolean;
  headless?: boolean;
  oauth?: boolean;
  /** --issuer: the OAuth issuer, saved in the profile. */
  issuer?: string;
  withToken?: boolean;
  /** With --with-token: which credential the key is (default api_key). */
  kind?: string;
}

export interface LoginDeps {
  io: Io;
  /** The config file. */
  path: string;
  /** Where secrets go: a keychain, or null for the config file. */
  keychain: Keychain | null;
  signal?: AbortSignal;
  openBrowser?: (url: string) => Promise<boolean>;
  /** How long to wait for the browser; default 10 minutes (a code's lifetime). */
  timeoutMs?: number;
  now?: () => number;
}

const KINDS = Object.keys(CREDENTIAL_SOURCES) as CredentialKind[];

function target(opts: LoginOptions, deps: LoginDeps) {
  const file = readConfig(deps.path, warnTo(deps.io.stderr));
  const name = opts.profile ?? profileFromEnv(deps.io.env) ?? file.default_profile ?? 'default';
  const profile: Profile = file.profiles[name] ?? {};
  const given = opts.baseUrl || deps.io.env[BASE_URL_ENV];
  const baseUrl = (given || profile.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  // The one rule for a base URL, and its messages (no password or query shown).
  try {
    parseBaseUrl(baseUrl);
  } catch (e) {
    throw usageError((e as Error).message);
  }
  // A base URL from a flag or the environment is saved, so later commands need neither. Not over a
  // profile that keeps keys for another origin: its other keys would then be sent to this one.
  if (given && file.profiles[name] && holdsStoredSecrets(profile) && originOf(baseUrl) !== profileOrigin(profile)) {
    throw usageError(
      `profile "${name}" keeps keys for ${profileOrigin(profile)}, not ${originOf(baseUrl)}: sign in to it as another profile (--profile NAME), or run intern-tui logout --profile ${shellQuote(name)} first`,
    );
  }
  const fields: Partial<Profile> = given ? { base_url: baseUrl } : {};
  return { name, profile, baseUrl, fields };
}

const say = (deps: LoginDeps, line: string) => deps.io.stderr.write(line + '\n');

function where(deps: LoginDeps, stored: 'keychain' | 'file'): string {
  return stored === 'keychain' ? 'the system keychain' : `${deps.path} (mode 0600; no system keychain available)`;
}

/** A code pasted by the person: masked on a terminal, one line otherwise. */
async function readPasted(deps: LoginDeps, question: string): Promise<string> {
  const { io } = deps;
  let value: string;
  if (io.stdin.isTTY && io.stderr.isTTY) value = await maskedPrompt(io, question);
  else {
    io.stderr.write(question + '\n');
    value = await readLine(io.stdin);
  }
  value = value.trim();
  if (!value) throw usageError('no code was given');
  return value;
}

/** The first line of a non-TTY stdin. */
async function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  const { createInterface } = await importExternal<typeof Readline>('node:readline');
  const rl = createInterface({ input: stream, terminal: false });
  try {
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
  }
}

/** Runs the browser half: prints the URL, opens it when asked and possible. */
async function showUrl(deps: LoginDeps, opts: LoginOptions, url: string, headless: boolean): Promise<void> {
  say(deps, headless ? 'Open this URL to sign in, then paste the code it shows:' : 'Open this URL to sign in:');
  say(deps, `  ${url}`);
  if (!opts.noBrowser && !headless) {
    const opened = await (deps.openBrowser ?? ((u: string) => defaultOpenBrowser(u, deps.io.env)))(url);
    if (opened) say(deps, '(opened in your browser)');
  }
}

async function signInForKey(opts: LoginOptions, deps: LoginDeps, t: ReturnType<typeof target>): Promise<number> {
  const pkce = createPkce();
  const api = createClient({ baseUrl: t.baseUrl, credentials: {} });
  // Exchanged and saved before the browser's page is answered, so that it says "Signed in" only when it is.
  const finish = async (code: string) => {
    const { key } = await api.exchangeAuthCode({ code, code_verifier: pkce.verifier, code_challenge_method: pkce.method }, { signal: deps.signal });
    return { key, stored: await saveProfile({ path: deps.path }, t.name, { api_key: key }, t.fields, deps.keychain) };
  };
  let done: Awaited<ReturnType<typeof finish>>;
  if (opts.headless) {
    await showUrl(deps, opts, signInUrl(t.baseUrl, pkce), true);
    done = await finish(await readPasted(deps, 'Code: '));
  } else {
    const cb = await listenForCallback({ timeoutMs: deps.timeoutMs, signal: deps.signal });
    let signedIn = false;
    try {
      await showUrl(deps, opts, signInUrl(t.baseUrl, pkce, cb.url), false);
      say(deps, 'Waiting for the browser...');
      done = await finish(await cb.code);
      signedIn = true;
    } finally {
      await cb.close(signedIn);
    }
  }
  const label = await labelOf(t.baseUrl, done.key);
  deps.io.stdout.write(`Signed in${label ? ` as ${label}` : ''}: profile "${t.name}", API key saved in ${where(deps, done.stored)}.\n`);
  return EXIT.ok;
}

async function signInOAuth(opts: LoginOptions, deps: LoginDeps, t: ReturnType<typeof target>): Promise<number> {
  const issuer = opts.issuer ?? t.profile.oauth_issuer;
  if (!issuer) throw usageError(`profile "${t.name}" has no OAuth issuer: pass --issuer URL once (it is saved in the profile)`);
  const md = await discoverOAuth(issuer);
  const pkce = createPkce();
  const state = randomBytes(16).toString('base64url');
  const cb = await listenForCallback({ state, timeoutMs: deps.timeoutMs, signal: deps.signal });
  let tokens: Awaited<ReturnType<typeof exchangeOAuthCode>>;
  let stored: Awaited<ReturnType<typeof saveProfile>>;
  let signedIn = false;
  try {
    await showUrl(deps, opts, authorizationUrl(md, { clientId: OAUTH_CLIENT_ID, redirectUri: cb.url, pkce, state }), false);
    say(deps, 'Waiting for the browser...');
    const code = await cb.code;
    tokens = await exchangeOAuthCode(md, { clientId: OAUTH_CLIENT_ID, code, redirectUri: cb.url, verifier: pkce.verifier });
    const now = (deps.now ?? Date.now)();
    const secrets = { oauth_token: tokens.access_token, ...(tokens.refresh_token ? { oauth_refresh_token: tokens.refresh_token } : {}) };
    stored = await saveProfile(
      { path: deps.path },
      t.name,
      secrets,
      { ...t.fields, oauth_issuer: issuer.replace(/\/+$/, ''), oauth_expires_at: tokens.expires_in ? now + tokens.expires_in * 1000 : undefined },
      deps.keychain,
    );
    signedIn = true;
  } finally {
    await cb.close(signedIn);
  }
  const renew = tokens.refresh_token ? '; it renews itself with the stored refresh token' : '; there is no refresh token, so run login --oauth again when it expires';
  deps.io.stdout.write(`Signed in for terminal access: profile "${t.name}", OAuth token saved in ${where(deps, stored)}${renew}.\n`);
  return EXIT.ok;
}

async function withToken(opts: LoginOptions, deps: LoginDeps, t: ReturnType<typeof target>): Promise<number> {
  const kind = (opts.kind ?? 'api_key') as CredentialKind;
  if (!KINDS.includes(kind)) throw usageError(`--kind must be one of ${KINDS.join(', ')}`);
  const { io } = deps;
  let value: string;
  if (io.stdin.isTTY && io.stderr.isTTY) value = await maskedPrompt(io, `${CREDENTIAL_SOURCES[kind].label}: `);
  else value = (await readAll(io.stdin, { limit: 64 << 10, what: 'stdin', strict: true })).replace(/\r?\n$/, '');
  value = value.trim();
  if (!value) throw usageError(`no ${CREDENTIAL_SOURCES[kind].label} on stdin (pipe it in: intern-tui login --with-token < file)`);
  if (NOT_IN_A_KEY.test(value)) throw usageError(`the ${CREDENTIAL_SOURCES[kind].label} on stdin holds a space or a control character; give one key`);
  // A key is checked before it is kept (as `gh auth login --with-token` does): one the service
  // refuses is not saved. One that cannot be checked now (the service unreachable) is, with a note.
  // An API key is asked about with GET /key, a management key with the first BYOK credential's page;
  // an OAuth token has no route of its own to ask (its one route needs an intern), so it is kept as given.
  let label: string | undefined;
  if (kind !== 'oauth_token') {
    const checked = kind === 'api_key' ? await checkApiKey(t.baseUrl, value) : await checkManagementKey(t.baseUrl, value);
    if (checked.refused) throw new CliError(EXIT.auth, `${t.baseUrl} refuses this ${CREDENTIAL_SOURCES[kind].label} (${checked.refused}); it was not saved`);
    if (checked.unchecked) io.stderr.write(`intern-tui: note: could not check the ${CREDENTIAL_SOURCES[kind].label} with ${t.baseUrl} (${checked.unchecked}); saving it anyway\n`);
    label = checked.label;
  }
  const stored = await saveProfile({ path: deps.path }, t.name, { [kind]: value }, t.fields, deps.keychain);
  io.stdout.write(`Saved the ${CREDENTIAL_SOURCES[kind].label}${label ? ` (${label})` : ''} for profile "${t.name}" in ${where(deps, stored)}.\n`);
  return EXIT.ok;
}

/** "signed in as": the key's label from GET /key, sanitised; undefined when the service does not say. */
export async function labelOf(baseUrl: string, key: string): Promise<string | undefined> {
  return (await checkApiKey(baseUrl, key)).label;
}

type KeyCheck = { label?: string; refused?: number; unchecked?: string };

/** GET /key with the key: its label; or the status the service refused it with; or why it could not be asked. */
function checkApiKey(baseUrl: string, key: string): Promise<KeyCheck> {
  return askWith(async () => ({ label: sanitize((await createClient({ baseUrl, credentials: { api_key: key }, maxAttempts: 1, timeoutMs: 10_000 }).getKeyInfo()).label) }));
}

/** The first BYOK credential's page with the management key, as auth status asks. */
function checkManagementKey(baseUrl: string, key: string): Promise<KeyCheck> {
  return askWith(async () => {
    await askManagementKey(createClient({ baseUrl, credentials: { management_key: key }, maxAttempts: 1, timeoutMs: 10_000 }));
    return {};
  });
}

async function askWith(ask: () => Promise<KeyCheck>): Promise<KeyCheck> {
  try {
    return await ask();
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return { refused: e.status };
    return { unchecked: e instanceof NetworkError ? 'unreachable' : e instanceof ApiError ? `it answered ${e.status}` : 'no usable answer' };
  }
}

export async function login(opts: LoginOptions, deps: LoginDeps): Promise<number> {
  const modes = [opts.oauth, opts.withToken].filter(Boolean).length;
  if (modes > 1) throw usageError('--oauth and --with-token do not go together');
  if (opts.withToken && (opts.headless || opts.noBrowser)) throw usageError('--with-token reads the key from stdin; --headless and --no-browser are for the browser sign-in');
  if (opts.kind !== undefined && !opts.withToken) throw usageError('--kind goes with --with-token');
  if (opts.issuer !== undefined && !opts.oauth) throw usageError('--issuer goes with --oauth');
  if (opts.oauth && opts.headless) throw usageError('--oauth needs the loopback redirect (the issuer sends the code back to it); use --no-browser to open the URL yourself');
  const t = target(opts, deps);
  if (opts.withToken) return withToken(opts, deps, t);
  if (opts.oauth) return signInOAuth(opts, deps, t);
  return signInForKey(opts, deps, t);
}

export async function logout(opts: { profile?: string }, deps: Omit<LoginDeps, 'keychain'> & { keychain: Keychain | null }): Promise<number> {
  const file = readConfig(deps.path, warnTo(deps.io.stderr));
  const name = opts.profile ?? profileFromEnv(deps.io.env) ?? file.default_profile ?? 'default';
  const removed = await forgetProfileSecrets({ path: deps.path }, name, deps.keychain);
  // A profile named (flag or environment) that the file lacks is a typo, as for every other command
  // (exit 2), unless the keychain still held its secrets: the file lost the profile and logout
  // cleans up after it, which is why the keychain is asked first.
  const named = opts.profile !== undefined || profileFromEnv(deps.io.env) !== undefined;
  if (removed.length === 0 && named && !file.profiles[name]) throw noSuchProfile(name, file);
  if (removed.length === 0) {
    deps.io.stdout.write(`Profile "${name}" holds no stored credentials.\n`);
  } else {
    deps.io.stdout.write(`Signed out of profile "${name}": removed ${removed.join(', ')}.\n`);
  }
  const envSet = KINDS.filter((k) => deps.io.env[CREDENTIAL_SOURCES[k].env]).map((k) => CREDENTIAL_SOURCES[k].env);
  if (envSet.length) deps.io.stderr.write(`intern-tui: note: ${envSet.join(', ')} ${envSet.length > 1 ? 'are' : 'is'} still set in the environment.\n`);
  return EXIT.ok;
}

