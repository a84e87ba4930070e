import { mkdtempSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, parseCommand } from '../../../src/cli/args.js';
import { readConfig, writeConfig } from '../../../src/cli/config.js';
import { missingCredentialMessage } from '../../../src/cli/context.js';
import { ConfigError, cacheDir, configPath, refusedFixes, resolveConfig, usesEmbeddedSandbox } from '../../../src/cli/settings.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intern-tui-cfg-'));

describe('precedence', () => {
  const file = {
    default_profile: 'work',
    profiles: {
      work: { base_url: 'https://work.example/api/v1', api_key: 'p-api', management_key: 'p-mgmt', oauth_token: 'p-oauth' },
      home: { api_key: 'h-api' },
    },
  };
  it.each([
    ['profile only', {}, {}, { api_key: 'p-api', management_key: 'p-mgmt', oauth_token: 'p-oauth' }, 'https://work.example/api/v1'],
    ['env over profile', {}, { OPENROUTER_API_KEY: 'e-api', OPENROUTER_BASE_URL: 'https://work.example/api/v1/' }, { api_key: 'e-api', management_key: 'p-mgmt', oauth_token: 'p-oauth' }, 'https://work.example/api/v1/'],
    ['flags over env', { apiKey: 'f-api', baseUrl: 'https://work.example/api/v1' }, { OPENROUTER_API_KEY: 'e-api' }, { api_key: 'f-api', management_key: 'p-mgmt', oauth_token: 'p-oauth' }, 'https://work.example/api/v1'],
    ['another host: the profile keeps its keys', {}, { OPENROUTER_API_KEY: 'e-api', OPENROUTER_BASE_URL: 'https://env.example/api/v1' }, { api_key: 'e-api' }, 'https://env.example/api/v1'],
    ['another host by flag', { baseUrl: 'http://work.example/api/v1' }, {}, {}, 'http://work.example/api/v1'],
    ['named profile', { profile: 'home' }, {}, { api_key: 'h-api' }, 'https://openrouter.ai/api/v1'],
  ])('%s', (_n, flags, env, credentials, baseUrl) => {
    const r = resolveConfig(flags, env, file);
    expect(r.credentials).toEqual(credentials);
    expect(r.baseUrl).toBe(baseUrl);
  });
  it('says how to mend each set key the service may refuse, by where it came from', () => {
    const r = resolveConfig({ profile: 'home' }, { OPENROUTER_MANAGEMENT_KEY: 'env-mgmt' }, file);
    expect(refusedFixes(r)).toEqual({ api_key: 'run intern-tui login --profile home', management_key: 'check OPENROUTER_MANAGEMENT_KEY' });
  });

  it('says of a theme that cannot be a theme\'s name that it is not taken, rather than silently drawing for a dark background', () => {
    expect(resolveConfig({}, { INTERN_TUI_THEME: '../my theme' }, file).warnings).toContain(
      'INTERN_TUI_THEME is "../my theme": it takes a theme\'s name (dark, light, high-contrast, solarized, or a file\'s in the config folder\'s themes/); the colours follow the terminal (COLORFGBG), else dark',
    );
    // A built-in's name, or a theme file's (which the TUI looks for when it starts), is no warning here.
    for (const name of ['Light', 'solarized', 'high-contrast', 'my-theme']) expect(resolveConfig({}, { INTERN_TUI_THEME: name }, file).warnings.join()).not.toContain('INTERN_TUI_THEME');
  });
  it('sends no stored key to a base URL on another origin than the profile\'s, and says why', () => {
    const r = resolveConfig({}, { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1' }, file);
    expect(r.credentials).toEqual({});
    expect(r.storedWithheldFor).toBe('https://work.example');
    expect(r.warnings.join('\n')).toMatch(/profile "work" keeps keys for https:\/\/work\.example, not sent to http:\/\/127\.0\.0\.1:9 \(from OPENROUTER_BASE_URL\)/);
    expect(r.warnings.join('\n')).not.toMatch(/p-api|p-mgmt|p-oauth/);
    // A profile with no base URL is the default service's; one with no stored key withholds nothing.
    expect(resolveConfig({ profile: 'home', baseUrl: 'https://openrouter.ai/api/v1' }, {}, file).credentials).toEqual({ api_key: 'h-api' });
    expect(resolveConfig({ profile: 'home', baseUrl: 'https://evil.example/api/v1' }, {}, file).warnings[0]).toMatch(/profile "home" keeps keys for https:\/\/openrouter\.ai, not sent to https:\/\/evil\.example \(from --base-url\)/);
    // The environment giving every kind the profile keeps, for that host: no warning (nothing is missed).
    const given = resolveConfig({}, { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: 'e-api', OPENROUTER_MANAGEMENT_KEY: 'e-m', OPENROUTER_OAUTH_TOKEN: 'e-o' }, file);
    expect([given.storedWithheldFor, given.warnings]).toEqual(['https://work.example', []]);
    // An empty INTERN_TUI_PROFILE is unset, as an empty key is.
    expect(resolveConfig({}, { INTERN_TUI_PROFILE: '' }, file).profile).toBe('work');
    const bare = resolveConfig({ baseUrl: 'https://evil.example/api/v1' }, {}, { profiles: { x: { scrollback: 5 } }, default_profile: 'x' });
    // Recording is off unless the profile says always.
    expect(bare.record).toBe('off');
    expect(resolveConfig({}, {}, { profiles: { x: { record: 'always' } }, default_profile: 'x' }).record).toBe('always');
    expect([bare.storedWithheldFor, bare.warnings]).toEqual([null, []]);
  });
  it('a missing key for a host the profile keeps no keys for points to signing in as another profile', () => {
    const r = resolveConfig({}, { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1' }, file);
    expect(missingCredentialMessage('intern-tui interns list', 'api_key', r)).toBe(
      'intern-tui interns list needs an API key for http://127.0.0.1:9/api/v1: set OPENROUTER_API_KEY, or run `intern-tui login --base-url http://127.0.0.1:9/api/v1 --profile NAME`',
    );
    expect(missingCredentialMessage('intern-tui interns list', 'api_key', resolveConfig({ profile: 'home' }, {}, { profiles: { home: {} } }))).toContain('run `intern-tui login --profile home`');
  });
  it('knows when nothing is configured (the sandbox case)', () => {
    const r = resolveConfig({}, {}, { profiles: {} });
    expect(r.credentials).toEqual({});
    expect(r.baseUrlConfigured).toBe(false);
    expect(r.baseUrl).toBe('https://openrouter.ai/api/v1');
    expect(r.features.map((f) => f.name)).toContain('Code review');
  });
  it('refuses an unknown profile, naming the known ones', () => {
    expect(() => resolveConfig({ profile: 'nope' }, {}, file)).toThrow(/no profile "nope".*work, home/);
  });
  it('refuses a base URL with a user name or password, or not http(s), without echoing the password', () => {
    for (const source of [{ flags: { baseUrl: 'https://me:hunter2@example.com/api/v1' }, env: {} }, { flags: {}, env: { OPENROUTER_BASE_URL: 'https://me:hunter2@example.com/api/v1' } }]) {
      expect(() => resolveConfig(source.flags, source.env, { profiles: {} })).toThrow(/must not hold a user name or password: give https:\/\/example\.com\/api\/v1/);
      expect(() => resolveConfig(source.flags, source.env, { profiles: {} })).not.toThrow(/hunter2/);
    }
    expect(() => resolveConfig({ baseUrl: 'ftp://example.com/api/v1' }, {}, { profiles: {} })).toThrow(/must be http or https/);
    expect(() => resolveConfig({ baseUrl: 'http://127.0.0.1:9/api/v1?x=1' }, {}, { profiles: {} })).toThrow(/must not hold a query or a fragment: give http:\/\/127\.0\.0\.1:9\/api\/v1$/);
    expect(() => resolveConfig({ baseUrl: '127.0.0.1:9/api/v1' }, {}, { profiles: {} })).toThrow(/with its scheme: http:\/\/127\.0\.0\.1:9\/api\/v1/);
    expect(() => resolveConfig({ baseUrl: 'localhost:9/api/v1' }, {}, { profiles: {} })).toThrow(/has no http:\/\/ or https:\/\/ \(with its scheme: http:\/\/localhost:9\/api\/v1/);
    // Credentials before the host are left out of the hint ("…@" where it shows the URL).
    expect(() => resolveConfig({ baseUrl: 'user:secret@localhost:9/api/v1' }, {}, { profiles: {} })).toThrow(/\(with its scheme: http:\/\/localhost:9\/api\/v1 or https:\/\/localhost:9\/api\/v1\)$/);
    // A bare ? or # too: the client would build /api/v1?/interns.
    for (const tail of ['?', '#']) expect(() => resolveConfig({ baseUrl: `http://127.0.0.1:9/api/v1${tail}` }, {}, { profiles: {} })).toThrow(/must not hold a query or a fragment/);
    // Without a scheme, still no password and no query in the message.
    for (const bad of ['me:hunter2@example.com/api/v1', 'example.com:8443/api/v1?token=hunter2', 'no scheme@x?token=hunter2 with spaces']) {
      expect(() => resolveConfig({ baseUrl: bad }, {}, { profiles: {} })).toThrow(ConfigError);
      expect(() => resolveConfig({ baseUrl: bad }, {}, { profiles: {} })).not.toThrow(/hunter2/);
    }
    expect(() => resolveConfig({ baseUrl: 'not a url://me:hunter2@x' }, {}, { profiles: {} })).toThrow(/not a URL/);
    expect(() => resolveConfig({ baseUrl: 'not a url://me:hunter2@x' }, {}, { profiles: {} })).not.toThrow(/hunter2/);
  });
  it('refuses a key holding a line break or a control character, naming where it came from and not the key', () => {
    expect(() => resolveConfig({}, { OPENROUTER_API_KEY: 'sk-or-v1-secretvalue\r' }, { profiles: {} })).toThrow(/API key from OPENROUTER_API_KEY holds a space, a line break/);
    expect(() => resolveConfig({}, { OPENROUTER_API_KEY: 'sk-or-v1-secretvalue\r' }, { profiles: {} })).not.toThrow(/secretvalue/);
    expect(() => resolveConfig({}, {}, { profiles: { p: { management_key: 'a b' } }, default_profile: 'p' })).toThrow(/management key from the profile's management_key in the config file/);
    expect(resolveConfig({}, { OPENROUTER_API_KEY: 'sk-or-v1-fine' }, { profiles: {} }).credentials.api_key).toBe('sk-or-v1-fine');
  });
  it('warns about a regional host', () => {
    expect(resolveConfig({ baseUrl: 'https://eu.openrouter.ai/api/v1' }, {}, { profiles: {} }).warnings[0]).toMatch(/regional host/);
    expect(resolveConfig({}, {}, { profiles: {} }).warnings).toEqual([]);
  });
});

describe('config file', () => {
  it('answers an empty config when there is no file, and uses XDG_CONFIG_HOME', () => {
    const dir = tmp();
    expect(readConfig(join(dir, 'none.json'))).toEqual({ profiles: {} });
    expect(configPath({ XDG_CONFIG_HOME: dir })).toBe(join(dir, 'intern-tui', 'config.json'));
  });
  it('ignores a relative XDG_CONFIG_HOME or XDG_CACHE_HOME, as the XDG spec asks (it would name a folder under wherever the command runs)', () => {
    expect(configPath({ XDG_CONFIG_HOME: 'rel/config', HOME: '/home/u' })).toBe('/home/u/.config/intern-tui/config.json');
    expect(cacheDir({ XDG_CACHE_HOME: '.cache', HOME: '/home/u' })).toBe('/home/u/.cache/intern-tui');
    expect(cacheDir({ XDG_CACHE_HOME: '/var/c', HOME: '/home/u' })).toBe('/var/c/intern-tui');
  });
  it.each([
    ['{ not json', /is not valid JSON/],
    ['{"profiles": {"a": {"api_key": 5}}}', /profiles\.a\.api_key/],
    ['{"profiles": {"a": {"bogus": 1}}}', /bogus: unknown field/],
    ['{"profiles": {"a": {"base_url": "not a url"}}}', /base_url/],
    ['{"profiles": {"a": {"record": "sometimes"}}}', /profiles\.a\.record/],
    ['{"keys": {"down": 5}}', /keys\.down/],
    ['{"keys": {"down": []}}', /keys\.down/],
    ['{"theme": ""}', /theme/],
    ['{"theme": "../../etc/x"}', /theme: must name a theme: dark, light, high-contrast, solarized, or a file's in themes\//],
  ])('a bad file %s names the file and field', (text, message) => {
    const path = join(tmp(), 'config.json');
    writeFileSync(path, text);
    expect(() => readConfig(path)).toThrow(ConfigError);
    expect(() => readConfig(path)).toThrow(message);
    expect(() => readConfig(path)).toThrow(path);
  });
  it('takes the TUI\'s keys and theme at its top level, for every profile (the ids and keys are checked when the TUI starts)', () => {
    const path = join(tmp(), 'config.json');
    writeFileSync(path, JSON.stringify({ keys: { down: ['ctrl+n', 'down'], delete: 'x' }, theme: 'solarized', profiles: { a: {} } }));
    const file = readConfig(path);
    expect(resolveConfig({ profile: 'a' }, {}, file)).toMatchObject({ keys: { down: ['ctrl+n', 'down'], delete: 'x' }, theme: 'solarized' });
    expect(resolveConfig({}, {}, { profiles: {} })).toMatchObject({ keys: {}, theme: null });
  });
  it('writes with mode 0600 in a 0700 directory, and warns about a readable file', () => {
    const path = join(tmp(), 'sub', 'config.json');
    writeConfig(path, { profiles: { a: { api_key: 'k' } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    readConfig(path, (w) => warnings.push(w));
    expect(warnings[0]).toMatch(/chmod 600/);
  });
});

describe('arguments', () => {
  it.each([
    [[], { kind: 'tui', forceSandbox: false }],
    [['--sandbox'], { kind: 'tui', forceSandbox: true }],
    [['--help'], { kind: 'help' }],
    [['-v'], { kind: 'version' }],
    [['config', 'path'], { kind: 'config', action: 'path' }],
    [['config', 'use', 'work'], { kind: 'config', action: 'use', profile: 'work' }],
    [['login', '--profile', 'x'], { kind: 'login' }],
  ])('%j', (argv, expected) => {
    expect(parseCommand(argv)).toMatchObject(expected);
  });
  it('answers --help of the sandbox and of config with their own help', () => {
    expect(parseCommand(['sandbox', '--help'])).toMatchObject({ kind: 'help', text: expect.stringMatching(/^intern-tui sandbox: [\s\S]*--data-dir DIR[\s\S]*--step-ms N/) });
    expect(parseCommand(['config', '--help'])).toMatchObject({ kind: 'help', text: expect.stringMatching(/^intern-tui config: [\s\S]*config show/) });
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
  });
  it('parses the sandbox flags', () => {
    expect(parseCommand(['sandbox', '--port', '0', '--seed', 'empty', '--deadline-ms', '50', '--manifest', 'm.json'])).toEqual({
      kind: 'sandbox',
      options: { host: '127.0.0.1', port: 0, seed: 'empty', deadlineMs: 50, manifest: 'm.json', dataDir: undefined, daemonCommand: undefined, stepMs: undefined },
    });
  });
  it("takes the sandbox's secret from a file or a descriptor, never as the secret itself (issue 43)", () => {
    expect(parseCommand(['sandbox', '--secret-file', '/run/s'])).toMatchObject({ kind: 'sandbox', options: { secret: { file: '/run/s' } } });
    expect(parseCommand(['sandbox', '--secret-fd', '3'])).toMatchObject({ kind: 'sandbox', options: { secret: { fd: 3 } } });
    expect(parseCommand(['sandbox', '--help'])).toMatchObject({ text: expect.stringMatching(/--secret-file FILE[\s\S]*--secret-fd N[\s\S]*\/proc/) });
  });
  it.each([
    [['--bogus'], /^unknown flag --bogus; see intern-tui --help$/],
    [['config', 'show', '--json'], /^config prints no JSON; intern-tui auth status --json gives the profile, the base URL and where each credential comes from; see intern-tui config --help$/],
    [['--json'], /^the TUI prints no JSON; see intern-tui --help$/],
    [['sandbox', '--bogus'], /^unknown flag --bogus; see intern-tui sandbox --help$/],
    [['--scrolback', '5'], /^unknown flag --scrolback \(did you mean --scrollback\?\); see intern-tui --help$/],
    [['frobnicate'], /unknown command/],
    [['--profile', 'work', 'intrens'], /unknown command "intrens" \(did you mean "interns"\?\)/],
    [['sandbox', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['sandbox', '--seed', 'lots'], /--seed must be demo or empty/],
    [['sandbox', '--secret-file', 'a', '--secret-fd', '4'], /^--secret-file and --secret-fd cannot be used together/],
    [['sandbox', '--secret-fd', '1'], /^--secret-fd must be a whole number from 3 to/],
    [['sandbox', '--secret-file='], /^--secret-file needs a file name$/],
    [['config', 'edit'], /config path\|show\|use PROFILE/],
    [['config', 'use'], /usage: intern-tui config use PROFILE/],
    [['config', 'show', 'extra'], /config show takes no arguments besides flags/],
    [['config', 'show', '--sandbox'], /^config takes no --sandbox: the built-in sandbox is made afresh by each command/],
    [['config', 'show', '--api-key', 'sk-or-v1-x'], /^config takes no --api-key: keys come from the environment or intern-tui login, never the command line/],
    [['login', '--management-key', 'sk-or-v1-x'], /^login takes no --management-key: keys come from the environment or intern-tui login --with-token \(stdin\)/],
    [['--scrollback', '-1'], /--scrollback needs a value; one that starts with "-" goes as --scrollback=VALUE/],
    [['sandbox', '--port', '-1'], /--port needs a value; one that starts with "-" goes as --port=VALUE/],
    [['--api-key', 'k', 'interns', 'list'], /a command comes first, before any flag: intern-tui interns list \[flags\]/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

describe('the embedded sandbox', () => {
  const none = { profiles: {} };
  it('runs when nothing is configured, or when --sandbox asks for it', () => {
    expect(usesEmbeddedSandbox(false, resolveConfig({}, {}, none))).toBe(true);
    expect(usesEmbeddedSandbox(true, resolveConfig({ apiKey: 'sk-flag' }, {}, none))).toBe(true);
  });
  it.each([
    ['a credential flag', { apiKey: 'sk-flag' }, {}],
    ['a credential in the environment', {}, { OPENROUTER_MANAGEMENT_KEY: 'mk' }],
    ['a base URL flag', { baseUrl: 'http://127.0.0.1:9' }, {}],
    ['a base URL in the environment', {}, { OPENROUTER_BASE_URL: 'http://127.0.0.1:9' }],
  ])('does not run with %s', (_, flags, env) => {
    expect(usesEmbeddedSandbox(false, resolveConfig(flags, env, none))).toBe(false);
  });
  it('does not run when a profile names a service', () => {
    const file = { default_profile: 'work', profiles: { work: { base_url: 'https://example.test/api/v1' } } };
    expect(usesEmbeddedSandbox(false, resolveConfig({}, {}, file))).toBe(false);
  });
  it('does not run for a profile that keeps its keys in the keychain, read or not (a locked keychain is not "nothing configured")', () => {
    const file = { default_profile: 'work', profiles: { work: { credential_store: 'keychain' as const } } };
    expect(usesEmbeddedSandbox(false, resolveConfig({}, {}, file))).toBe(false);
  });
});
