/**
 * The CLI's sign-in functions against a live sandbox: login (PKCE, headless, OAuth, with-token),
 * the keychain and its file fallback, logout, auth status, and the OAuth token renewing itself.
 * A fake browser follows the printed URL the way a browser would.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, discoverOAuth, refreshOAuthToken } from '../../src/client/index.js';
import { CliError, EXIT } from '../../src/cli/exit.js';
import { resolveSignedIn } from '../../src/cli/auth/credentials.js';
import { authStatus, formatStatus } from '../../src/cli/auth/status.js';
import { availableKeychain, memoryKeychain, type Keychain } from '../../src/cli/auth/store.js';
import type { Io } from '../../src/cli/context.js';
import { login, logout } from '../../src/cli/login.js';
import { writeConfig } from '../../src/cli/config.js';
import { parseFor } from '../../src/cli/parse.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { runCommand } from '../../src/cli/run.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'demo', signIn: { accessTokenTtlMs: 3_000 } });
});
afterAll(() => sb.close());

function makeIo(stdinText?: string, tty = false): Io & { text: () => string } {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown; isRaw?: boolean };
  const out: string[] = [];
  const sink = () => {
    const s = new PassThrough() as PassThrough & { isTTY?: boolean };
    s.on('data', (d: Buffer) => out.push(d.toString()));
    s.isTTY = tty;
    return s;
  };
  if (tty) {
    stdin.isTTY = true;
    stdin.isRaw = false;
    stdin.setRawMode = () => stdin;
  }
  if (stdinText !== undefined) stdin.end(stdinText);
  return { stdin, stdout: sink(), stderr: sink(), env: {}, text: () => out.join('') };
}

/** The browser's last page from the loopback callback: it is answered once the sign-in is done. */
let lastPage: Promise<{ status: number; text: string }> | undefined;
/**
 * A browser: GET the sign-in URL, then follow the redirect to the loopback callback. Like the real
 * opener it does not wait for that page, which waits for the login to exchange the code.
 */
async function browse(url: string): Promise<boolean> {
  const first = await request(url);
  await first.body.dump();
  const loc = first.headers.location;
  if (first.statusCode !== 302 || typeof loc !== 'string') throw new Error(`sign-in page answered ${first.statusCode}`);
  lastPage = request(loc).then(async (back) => ({ status: back.statusCode, text: await back.body.text() }));
  lastPage.catch(() => undefined);
  return true;
}

const cfgDir = () => mkdtempSync(join(tmpdir(), 'signin-cli-'));
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { default_profile?: string; profiles: Record<string, Record<string, unknown>> };
/** Waits until the service no longer accepts an access token (it expired). */
async function untilRefused(token: string): Promise<void> {
  const running = sb.manifest.interns.running!;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const r = await raw(sb, 'GET', `/interns/${running}/daemon`, { token });
    if (r.status === 401) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the access token never expired');
}

describe('login (PKCE)', () => {
  it('without a keychain: saves the key and the base URL in the config file at 0600, and the key works', async () => {
    const path = join(cfgDir(), 'config.json');
    const io = makeIo();
    let opened = '';
    const code = await login({ baseUrl: sb.baseUrl }, { io, path, keychain: null, openBrowser: (u) => ((opened = u), browse(u)) });
    expect(code).toBe(0);
    expect(await lastPage).toMatchObject({ status: 200, text: expect.stringContaining('You are signed in') });
    expect(io.text()).toContain('Open this URL to sign in:');
    expect(io.text()).toContain(opened);
    expect(new URL(opened).searchParams.get('callback_url')).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const cfg = read(path);
    expect(cfg.default_profile).toBe('default');
    const p = cfg.profiles.default!;
    expect(p).toMatchObject({ base_url: sb.baseUrl, credential_store: 'file' });
    expect(p.api_key).toMatch(/^sk-or-v1-/);
    // The key is never printed.
    expect(io.text()).not.toContain(p.api_key as string);
    expect(io.text()).toMatch(/Signed in as sk-\.\.\.[\w-]+/);
    const r = await resolveSignedIn({}, { env: {}, path });
    expect(r.sources.api_key).toBe('file');
    const list = await createClient({ baseUrl: r.baseUrl, credentials: r.credentials }).listInterns();
    expect(list.data.length).toBeGreaterThan(0);
  });

  it('with a keychain: the key goes there, the file holds no secret; logout removes it', async () => {
    const path = join(cfgDir(), 'config.json');
    const keychain = memoryKeychain();
    const io = makeIo();
    await login({ baseUrl: sb.baseUrl, profile: 'work' }, { io, path, keychain, openBrowser: browse });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toMatch(/sk-or-v1-/);
    expect(read(path).profiles.work).toEqual({ base_url: sb.baseUrl, credential_store: 'keychain' });
    expect([...keychain.entries.keys()]).toEqual(['work/api_key']);
    const r = await resolveSignedIn({ profile: 'work' }, { env: {}, path, keychain });
    expect(r.sources.api_key).toBe('keychain');
    expect(r.credentials.api_key).toBe(keychain.entries.get('work/api_key'));
    // auth status: source and label, never the secret.
    const { status, exit } = await authStatus({ profile: 'work' }, { env: {}, path, keychain });
    expect(exit).toBe(0);
    expect(status.credentials.api_key).toMatchObject({ set: true, source: 'keychain', check: 'ok' });
    const shown = formatStatus(status) + JSON.stringify(status);
    expect(shown).toMatch(/signed in as sk-\.\.\.[\w-]+/);
    expect(shown).not.toContain(r.credentials.api_key!);
    // Another origin from the environment: the keychain's key is not read for it.
    const elsewhere = await resolveSignedIn({ profile: 'work' }, { env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1' }, path, keychain });
    expect([elsewhere.credentials, elsewhere.sources, elsewhere.storedWithheldFor]).toEqual([{}, {}, new URL(sb.baseUrl).origin]);
    const shownElsewhere = formatStatus((await authStatus({ profile: 'work' }, { env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1' }, path, keychain })).status);
    expect(shownElsewhere).toContain(`stored keys: not sent to this host; profile "work" keeps them for ${new URL(sb.baseUrl).origin}`);
    // And the way to a key for this host is a profile of its own: login would refuse to move "work".
    expect(shownElsewhere).toContain('API key: not set (set OPENROUTER_API_KEY, or run intern-tui login --base-url http://127.0.0.1:9/api/v1 --profile NAME)');

    const out = makeIo();
    await logout({ profile: 'work' }, { io: out, path, keychain });
    expect(out.text()).toContain('api_key (keychain)');
    expect(keychain.entries.size).toBe(0);
    const after = await authStatus({ profile: 'work' }, { env: {}, path, keychain });
    expect(after.exit).toBe(4);
    expect(after.status.credentials.api_key.set).toBe(false);
    // The profile still names its service: commands go there (and say what is missing), not to a sandbox.
    expect(after.status.sandbox).toBe(false);
    expect(formatStatus(after.status)).not.toContain('sandbox');
  });

  it('logout of a profile the config file lacks is refused as every command refuses it, unless the keychain held its secrets', async () => {
    const path = join(cfgDir(), 'config.json');
    const keychain = memoryKeychain();
    await login({ baseUrl: sb.baseUrl, profile: 'work' }, { io: makeIo(), path, keychain, openBrowser: browse });
    const typo = logout({ profile: 'nope' }, { io: makeIo(), path, keychain });
    await expect(typo).rejects.toMatchObject({ name: 'ConfigError', message: 'no profile "nope" in the config file (known: work)' });
    // The file lost the profile, the keychain did not: logout still removes what is left.
    await keychain.set('gone', 'api_key', 'sk-or-v1-left-behind');
    const out = makeIo();
    await logout({ profile: 'gone' }, { io: out, path, keychain });
    expect(out.text()).toContain('Signed out of profile "gone": removed api_key (keychain)');
    expect(keychain.entries.has('gone/api_key')).toBe(false);
  });

  it('checks the management key too: 4 when the service refuses a key, 1 when it cannot be asked, never the keys', async () => {
    const c = sb.manifest.credentials;
    const at = (env: Record<string, string>) => authStatus({}, { env: { OPENROUTER_BASE_URL: sb.baseUrl, ...env }, path: join(cfgDir(), 'none.json'), keychain: memoryKeychain() });
    const good = await at({ OPENROUTER_API_KEY: c.api_key!, OPENROUTER_MANAGEMENT_KEY: c.management_key! });
    expect(good.exit).toBe(0);
    expect(good.status.credentials.management_key).toMatchObject({ set: true, source: 'env', check: 'ok' });
    expect(formatStatus(good.status)).toContain('management key: set, from the environment; the service takes it');
    const wrong = 'sk-or-v1-wrong-management-key-000';
    const refused = await at({ OPENROUTER_API_KEY: c.api_key!, OPENROUTER_MANAGEMENT_KEY: wrong });
    expect(refused.exit).toBe(4);
    expect(refused.status.credentials.management_key.check).toBe('refused');
    expect(refused.status.credentials.api_key.check).toBe('ok');
    const shown = formatStatus(refused.status) + JSON.stringify(refused.status);
    expect(shown).toContain('management key: set, from the environment; the service refuses it (check OPENROUTER_MANAGEMENT_KEY)');
    expect(shown).not.toContain(wrong);
    expect(shown).not.toContain(c.api_key!);
    // An account whose default workspace was deleted: its key is taken, though the list asks for a workspace (400).
    const noDefault = await at({ OPENROUTER_API_KEY: c.api_key!, OPENROUTER_MANAGEMENT_KEY: c.management_key_no_default_workspace! });
    expect(noDefault.exit).toBe(0);
    expect(noDefault.status.credentials.management_key.check).toBe('ok');
    const path = join(cfgDir(), 'config.json');
    expect(await login({ withToken: true, kind: 'management_key', baseUrl: sb.baseUrl }, { io: makeIo(`${c.management_key_no_default_workspace!}\n`), path, keychain: null })).toBe(0);
    expect(read(path).profiles.default).toMatchObject({ management_key: c.management_key_no_default_workspace });
    const away = await authStatus({}, { env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: c.api_key! }, path: join(cfgDir(), 'none.json'), keychain: memoryKeychain() });
    expect(away.exit).toBe(1);
    expect(formatStatus(away.status)).toContain('API key: set, from the environment; the service could not be reached to check it');
  });

  it('says when nothing is configured that the TUI and the commands use the built-in sandbox', async () => {
    const { status, exit } = await authStatus({}, { env: {}, path: join(cfgDir(), 'none.json'), keychain: memoryKeychain() });
    expect(exit).toBe(4);
    expect(status.sandbox).toBe(true);
    expect(formatStatus(status)).toContain('Nothing is configured, so the TUI and the commands use a temporary built-in sandbox with demo data.\nSign in to the service with: intern-tui login\n');
    const withBase = await authStatus({}, { env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1' }, path: join(cfgDir(), 'none.json'), keychain: memoryKeychain() });
    expect(withBase.status.sandbox).toBe(false);
  });

  it('--no-browser only prints the URL; following it by hand completes the sign-in', async () => {
    const path = join(cfgDir(), 'config.json');
    const io = makeIo();
    let browserCalled = false;
    const done = login({ baseUrl: sb.baseUrl, noBrowser: true }, { io, path, keychain: null, openBrowser: async () => (browserCalled = true) });
    let url: string | undefined;
    while (!url) {
      url = /Open this URL to sign in:\n {2}(\S+)/.exec(io.text())?.[1];
      if (!url) await new Promise((r) => setImmediate(r));
    }
    await browse(url);
    expect(await done).toBe(0);
    expect(browserCalled).toBe(false);
    expect(read(path).profiles.default!.api_key).toMatch(/^sk-or-v1-/);
  });

  it('--headless: the page shows the code, which is read from stdin (no terminal) and never echoed', async () => {
    const path = join(cfgDir(), 'config.json');
    const stdin = new PassThrough();
    const io = { ...makeIo(), stdin };
    const all: string[] = [];
    io.stderr.on('data', (d: Buffer) => all.push(d.toString()));
    const done = login({ baseUrl: sb.baseUrl, headless: true }, { io, path, keychain: null });
    let url: string | undefined;
    while (!url) {
      url = /paste the code it shows:\n {2}(\S+)/.exec(all.join(''))?.[1];
      if (!url) await new Promise((r) => setImmediate(r));
    }
    expect(new URL(url).searchParams.get('callback_url')).toBeNull();
    const page = await (await request(url)).body.text();
    const code = /<code id="code"[^>]*>([^<]+)<\/code>/.exec(page)![1]!;
    stdin.end(`${code}\n`);
    expect(await done).toBe(0);
    expect(all.join('')).not.toContain(code);
    expect(read(path).profiles.default!.api_key).toMatch(/^sk-or-v1-/);
  });
});

describe('login --with-token', () => {
  it('reads the key from piped stdin', async () => {
    const path = join(cfgDir(), 'config.json');
    const key = sb.manifest.credentials.management_key!;
    const io = makeIo(`${key}\n`);
    await login({ withToken: true, kind: 'management_key', baseUrl: sb.baseUrl }, { io, path, keychain: null });
    expect(read(path).profiles.default!.management_key).toBe(key);
    expect(io.text()).not.toContain(key);
  });

  it('on a terminal, the typed key is masked: only asterisks are echoed', async () => {
    const path = join(cfgDir(), 'config.json');
    const key = sb.manifest.credentials.api_key!;
    const io = makeIo(undefined, true);
    const done = login({ withToken: true, baseUrl: sb.baseUrl }, { io, path, keychain: null });
    while (!io.text().includes('API key: ')) await new Promise((r) => setImmediate(r));
    for (const ch of key) (io.stdin as PassThrough).write(ch);
    (io.stdin as PassThrough).write('\r');
    expect(await done).toBe(0);
    expect(io.text()).not.toContain(key);
    expect(io.text()).not.toContain(key.slice(9, 15));
    expect(io.text()).toContain('*'.repeat(key.length));
    expect(read(path).profiles.default!.api_key).toBe(key);
  });

  it('does not save an API key the service refuses; one it cannot check is saved, with a note', async () => {
    const path = join(cfgDir(), 'config.json');
    const refused = login({ withToken: true, baseUrl: sb.baseUrl }, { io: makeIo('sk-or-v1-not-a-key-it-knows\n'), path, keychain: null });
    await expect(refused).rejects.toThrow(/refuses this API key \(401\); it was not saved/);
    await expect(refused).rejects.not.toThrow(/not-a-key-it-knows/);
    expect(existsSync(path)).toBe(false);
    // Nothing listens on a closed loopback port: unreachable, saved anyway, and said so.
    const io = makeIo('sk-or-v1-offline-key\n');
    expect(await login({ withToken: true, baseUrl: 'http://127.0.0.1:9/api/v1' }, { io, path, keychain: null })).toBe(0);
    expect(io.text()).toMatch(/could not check the API key with http:\/\/127\.0\.0\.1:9\/api\/v1 \(unreachable\); saving it anyway/);
    expect(read(path).profiles.default!.api_key).toBe('sk-or-v1-offline-key');
  });

  it("does not move a profile that keeps keys to another host: its other keys would go there too", async () => {
    const path = join(cfgDir(), 'config.json');
    await login({ withToken: true, kind: 'management_key', baseUrl: sb.baseUrl }, { io: makeIo(`${sb.manifest.credentials.management_key!}\n`), path, keychain: null });
    const before = readFileSync(path, 'utf8');
    const moved = login({ withToken: true, baseUrl: 'http://127.0.0.1:9/api/v1' }, { io: makeIo('sk-or-v1-elsewhere\n'), path, keychain: null });
    await expect(moved).rejects.toThrow(new RegExp(`profile "default" keeps keys for ${new URL(sb.baseUrl).origin}, not http://127\\.0\\.0\\.1:9: sign in to it as another profile`));
    expect(readFileSync(path, 'utf8')).toBe(before);
    // Another profile for that host is the way.
    expect(await login({ withToken: true, baseUrl: 'http://127.0.0.1:9/api/v1', profile: 'local' }, { io: makeIo('sk-or-v1-elsewhere\n'), path, keychain: null })).toBe(0);
    expect(read(path).profiles.local).toMatchObject({ base_url: 'http://127.0.0.1:9/api/v1', api_key: 'sk-or-v1-elsewhere' });
  });

  it('does not save a management key the service refuses (an API key given as one, say)', async () => {
    const path = join(cfgDir(), 'config.json');
    const wrongKind = login({ withToken: true, kind: 'management_key', baseUrl: sb.baseUrl }, { io: makeIo(`${sb.manifest.credentials.api_key!}\n`), path, keychain: null });
    await expect(wrongKind).rejects.toThrow(/refuses this management key \(40[13]\); it was not saved/);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses an empty stdin and a bad kind', async () => {
    const path = join(cfgDir(), 'config.json');
    await expect(login({ withToken: true }, { io: makeIo(''), path, keychain: null })).rejects.toThrow(/no API key on stdin/);
    await expect(login({ withToken: true, kind: 'password' }, { io: makeIo('x'), path, keychain: null })).rejects.toThrow(/--kind must be/);
  });
});

describe('a key the service refuses', () => {
  const listInterns = COMMANDS.find((c) => c.noun === 'interns' && c.verb === 'list')!;
  const run = async (env: NodeJS.ProcessEnv, rest: string[] = []) => {
    const io = makeIo();
    io.env = env;
    const code = await runCommand(listInterns, rest, parseFor(listInterns, rest), io);
    return { code, text: io.text() };
  };

  it('is named with where it came from: the login that stored it, or the variable that set it', async () => {
    const home = cfgDir();
    mkdirSync(join(home, 'intern-tui'));
    writeConfig(join(home, 'intern-tui', 'config.json'), { profiles: { work: { base_url: sb.baseUrl, api_key: 'sk-or-v1-stale-key-refused-0000', credential_store: 'file' } } });
    const stored = await run({ XDG_CONFIG_HOME: home }, ['--profile', 'work']);
    expect(stored.code).toBe(4);
    expect(stored.text).toContain('(the service refused the API key: run `intern-tui login --profile work`)');
    expect(stored.text).not.toContain('OPENROUTER_API_KEY');
    const fromEnv = await run({ XDG_CONFIG_HOME: home, OPENROUTER_API_KEY: 'sk-or-v1-wrong-env-key-refused-0' }, ['--profile', 'work']);
    expect(fromEnv.code).toBe(4);
    expect(fromEnv.text).toContain('(the service refused the API key: check OPENROUTER_API_KEY)');
    // The profile's keys are for its own host: a key set for another is fixed by a profile of its own.
    const elsewhere = await run({ XDG_CONFIG_HOME: home, OPENROUTER_BASE_URL: sb.baseUrl.replace('127.0.0.1', 'localhost') }, ['--profile', 'work']);
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.text).toMatch(/needs an API key for http:\/\/localhost:\d+\/api\/v1: set OPENROUTER_API_KEY, or run `intern-tui login --base-url http:\/\/localhost:\d+\/api\/v1 --profile NAME`/);
    for (const r of [stored, fromEnv, elsewhere]) expect(r.text).not.toMatch(/stale-key|wrong-env-key/);
  });
});

describe('login --oauth', () => {
  it('gets an access and a refresh token from the issuer; the client renews the token itself once it expires', async () => {
    const path = join(cfgDir(), 'config.json');
    const io = makeIo();
    await login({ baseUrl: sb.baseUrl, oauth: true, issuer: sb.manifest.issuer }, { io, path, keychain: null, openBrowser: browse });
    const p = read(path).profiles.default!;
    expect(p).toMatchObject({ oauth_issuer: sb.manifest.issuer, credential_store: 'file' });
    expect(p.oauth_token).toMatch(/^oat-/);
    expect(p.oauth_refresh_token).toMatch(/^ort-/);
    expect(p.oauth_expires_at).toBeGreaterThan(Date.now());
    expect(io.text()).not.toContain(p.oauth_token as string);
    expect(io.text()).not.toContain(p.oauth_refresh_token as string);

    const running = sb.manifest.interns.running!;
    // The service's clock passes the expiry while the profile still thinks it valid: the 401 triggers a renewal.
    await untilRefused(p.oauth_token as string);
    const earlier = () => Date.now() - 3_600_000;
    const r = await resolveSignedIn({}, { env: {}, path, now: earlier });
    expect(r.renewOAuthToken).toBeDefined();
    expect(r.credentials.oauth_token).toBe(p.oauth_token);
    const api = createClient({ baseUrl: r.baseUrl, credentials: r.credentials, renewOAuthToken: r.renewOAuthToken, maxAttempts: 1 });
    expect((await api.getDaemonAccess(running)).token).toBeTruthy();
    const renewed = read(path).profiles.default!;
    expect(renewed.oauth_token).not.toBe(p.oauth_token);
    expect(renewed.oauth_refresh_token).not.toBe(p.oauth_refresh_token);

    // Expired by the profile's own clock: it is left out and renewed before the first call.
    const later = await resolveSignedIn({}, { env: {}, path, now: () => Date.now() + 3_600_000 });
    expect(later.credentials.oauth_token).toBeUndefined();
    const api2 = createClient({ baseUrl: later.baseUrl, credentials: later.credentials, renewOAuthToken: later.renewOAuthToken, maxAttempts: 1 });
    expect(api2.configured.oauth_token).toBe(true);
    await api2.getDaemonAccess(running);
    expect(read(path).profiles.default!.oauth_token).not.toBe(renewed.oauth_token);
  });

  it('a stored sign-in whose refresh token a copy used first is revoked, and the client says to sign in again (exit 4)', async () => {
    const path = join(cfgDir(), 'config.json');
    await login({ baseUrl: sb.baseUrl, oauth: true, issuer: sb.manifest.issuer }, { io: makeIo(), path, keychain: null, openBrowser: browse });
    const p = read(path).profiles.default!;
    // Someone with a copy of the file renews first: the service cannot tell which of the two is the thief.
    const meta = await discoverOAuth(sb.manifest.issuer);
    const theirs = await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: p.oauth_refresh_token as string });
    const later = await resolveSignedIn({}, { env: {}, path, now: () => Date.now() + 3_600_000 });
    const api = createClient({ baseUrl: later.baseUrl, credentials: later.credentials, renewOAuthToken: later.renewOAuthToken, maxAttempts: 1 });
    const e = await api.getDaemonAccess(sb.manifest.interns.running!).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(EXIT.auth);
    expect((e as Error).message).toBe(
      'POST token_endpoint refused: invalid_grant: The refresh token was already used: every token of this sign-in is revoked; sign in again (the issuer refused the stored sign-in: run `intern-tui login --profile default --oauth`)',
    );
    for (const secret of [p.oauth_refresh_token, p.oauth_token, theirs.refresh_token, theirs.access_token]) expect((e as Error).message).not.toContain(secret as string);
    // The copy's tokens went with the chain.
    expect((await raw(sb, 'GET', `/interns/${sb.manifest.interns.running!}/daemon`, { token: theirs.access_token })).status).toBe(401);
    expect(await refreshOAuthToken(meta, { clientId: 'intern-tui', refreshToken: theirs.refresh_token! }).catch((x: unknown) => x)).toMatchObject({ reason: 'invalid_grant' });
  });

  it('without an issuer in the profile or a flag: a usage error naming --issuer', async () => {
    const path = join(cfgDir(), 'config.json');
    await expect(login({ baseUrl: sb.baseUrl, oauth: true }, { io: makeIo(), path, keychain: null })).rejects.toThrow(/--issuer/);
  });

  it('--oauth with --headless is refused: the issuer sends the code back to the loopback redirect', async () => {
    const path = join(cfgDir(), 'config.json');
    await expect(login({ oauth: true, headless: true, issuer: sb.manifest.issuer }, { io: makeIo(), path, keychain: null })).rejects.toThrow(/--no-browser/);
  });
});

describe('keychain fallback', () => {
  const broken: Keychain = {
    get: async () => {
      throw new Error('no Secret Service');
    },
    set: async () => {
      throw new Error('no Secret Service');
    },
    delete: async () => {
      throw new Error('no Secret Service');
    },
  };
  it('a keychain that refuses means the file; INTERN_TUI_CREDENTIAL_STORE picks explicitly', async () => {
    expect(await availableKeychain({}, broken)).toBeNull();
    const mem = memoryKeychain();
    expect(await availableKeychain({}, mem)).toBe(mem);
    expect(mem.entries.size).toBe(0);
    expect(await availableKeychain({ INTERN_TUI_CREDENTIAL_STORE: 'file' }, mem)).toBeNull();
    await expect(availableKeychain({ INTERN_TUI_CREDENTIAL_STORE: 'keychain' }, broken)).rejects.toThrow(/not available/);
  });
  it('this machine: the real keychain either works or falls back without throwing', async () => {
    const k = await availableKeychain({});
    expect(k === null || typeof k.get === 'function').toBe(true);
  });
});
