/**
 * Signing in from the terminal, end to end with the built CLI (issue 11, item 5): `login --no-browser`
 * against a sandbox, the printed URL followed like a browser would, then `interns list --json` with no
 * credential in the environment; `login --oauth` and then attach in the TUI. No secret may appear in
 * any output, in any process's arguments, or anywhere but the 0600 config file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PtyScreen, ROOT, Tui, attachAndRun, openIntern, startSandboxProcess, type SandboxProcess } from './harness.js';

let sb: SandboxProcess;
beforeAll(async () => {
  sb = await startSandboxProcess();
});
afterAll(() => sb?.stop());

const home = mkdtempSync(join(tmpdir(), 'e2e-login-'));
const configFile = join(home, 'config', 'intern-tui', 'config.json');
/** No credential and no base URL from the environment: only what login saved. */
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  LANG: 'C.UTF-8',
  // Never touch a real keychain from a test: the config-file store (0600).
  INTERN_TUI_CREDENTIAL_STORE: 'file',
};
const outputs: string[] = [];
const argLists: string[] = [];

/** Every process's arguments on this machine right now (Linux /proc), to look for secrets. */
function allArguments(): string {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // The process ended meanwhile.
    }
  }
  return out.join('\n');
}

interface Run {
  child: ChildProcess;
  text: () => string;
  exit: Promise<number | null>;
}
function cli(args: string[]): Run {
  argLists.push(args.join(' '));
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  void exit.then(() => outputs.push(text));
  return { child, text: () => text, exit };
}

async function until<T>(what: string, read: () => T | undefined | null, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a browser does with the printed URL: load it, follow the redirect to the loopback callback. */
async function followLikeABrowser(url: string): Promise<void> {
  const page = await request(url);
  await page.body.dump();
  expect(page.statusCode).toBe(302);
  const back = await request(String(page.headers.location));
  const body = await back.body.text();
  expect(back.statusCode).toBe(200);
  expect(body).toContain('You are signed in');
}

const printedUrl = (run: Run) => until('the sign-in URL', () => /Open this URL to sign in:\n {2}(\S+)/.exec(run.text())?.[1]);
const profile = (name = 'default') => (JSON.parse(readFileSync(configFile, 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles[name]!;

describe('intern-tui login', () => {
  it('login --no-browser, the URL followed like a browser, then interns list --json with no credential in the environment', async () => {
    const run = cli(['login', '--no-browser', '--base-url', sb.manifest.base_url]);
    const url = await printedUrl(run);
    expect(url.startsWith(`${new URL(sb.manifest.base_url).origin}/auth?`)).toBe(true);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    await followLikeABrowser(url);
    expect(await run.exit).toBe(0);
    expect(run.text()).toMatch(/Signed in as sk-\.\.\.[\w-]+: profile "default"/);

    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const key = profile().api_key!;
    expect(key).toMatch(/^sk-or-v1-/);

    const list = cli(['interns', 'list', '--json']);
    expect(await list.exit).toBe(0);
    const interns = JSON.parse(list.text()) as { name: string }[];
    expect(interns.map((i) => i.name)).toContain('runner');

    const status = cli(['auth', 'status']);
    expect(await status.exit).toBe(0);
    expect(status.text()).toMatch(/API key: set, from the config file; signed in as sk-\.\.\.[\w-]+/);
  });

  it('a code the service refuses: the browser page says the sign-in failed, the terminal says why, nothing is saved', async () => {
    const config = () => (existsSync(configFile) ? readFileSync(configFile, 'utf8') : null);
    const before = config();
    const run = cli(['login', '--no-browser', '--profile', 'bogus', '--base-url', sb.manifest.base_url]);
    const url = await printedUrl(run);
    const callback = new URL(url).searchParams.get('callback_url')!;
    const back = await request(`${callback.replace('localhost', '127.0.0.1')}?code=bogus`);
    const body = await back.body.text();
    expect(back.statusCode).toBe(400);
    expect(body).toContain('Sign-in failed');
    expect(body).not.toContain('signed in');
    expect(await run.exit).toBe(1);
    expect(run.text()).toMatch(/code is unknown/);
    expect(config()).toBe(before);
  });

  it('login --oauth, then attach in the TUI works with the stored OAuth token', async () => {
    const run = cli(['login', '--oauth', '--no-browser', '--issuer', sb.manifest.issuer]);
    const url = await printedUrl(run);
    expect(url.startsWith(`${sb.manifest.issuer}/oauth/authorize?`)).toBe(true);
    await followLikeABrowser(url);
    expect(await run.exit).toBe(0);
    const p = profile();
    expect(p.oauth_token).toMatch(/^oat-/);
    expect(p.oauth_refresh_token).toMatch(/^ort-/);

    const t = new Tui({ env });
    try {
      await openIntern(t, 'runner');
      await attachAndRun(t, 'echo signed-$((6*7))-in', 'signed-42-in');
      // While attached: no process on the machine carries a secret in its arguments.
      const args = allArguments();
      for (const secret of [p.api_key!, p.oauth_token!, p.oauth_refresh_token!]) expect(args).not.toContain(secret);
      outputs.push(t.screen());
    } finally {
      await t.close();
    }
  });

  it('login --headless on a terminal: the pasted code is masked, never drawn (issue 13, defect 2)', async () => {
    const t = new PtyScreen(process.execPath, [CLI, 'login', '--headless', '--profile', 'pasted', '--base-url', sb.manifest.base_url], { cols: 250, rows: 20, cwd: ROOT, env: { ...env, TERM: 'xterm-256color' } });
    argLists.push('login --headless --profile pasted');
    try {
      const screen = await t.waitFor('Code: ');
      const url = /paste the code it shows:\n {2}(\S+)/.exec(screen)![1]!;
      const page = await (await request(url)).body.text();
      const code = /<code id="code"[^>]*>([^<]+)<\/code>/.exec(page)![1]!;
      await t.type(code);
      await t.press('enter');
      await t.waitFor(/Signed in as sk-\.\.\.[\w-]+: profile "pasted"/);
      expect(t.output).not.toContain(code);
      expect(t.screen()).toContain('*'.repeat(code.length));
      expect(await t.waitForExit()).toBe(0);
      outputs.push(t.output);
    } finally {
      await t.close();
    }
  });

  it(':login inside the TUI shows the URL, and once it is followed the list loads signed in', async () => {
    const cfg = JSON.parse(readFileSync(configFile, 'utf8')) as { profiles: Record<string, unknown> };
    cfg.profiles.tui = { base_url: sb.manifest.base_url };
    writeFileSync(configFile, JSON.stringify(cfg), { mode: 0o600 });
    const t = new Tui({ env: { ...env, BROWSER: 'none' }, args: ['--profile', 'tui'], cols: 240, rows: 30 });
    try {
      await t.waitFor('profile tui');
      await t.press(':');
      await t.type('login');
      await t.press('enter');
      const screen = await t.waitFor(/Open this URL to sign in:\s*│?\s*\n.*http/);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(screen)![1]!;
      await followLikeABrowser(url);
      await t.waitFor(/signed in as sk-\.\.\.[\w-]+/);
      await t.waitFor(/› ?★? runner /);
      outputs.push(t.output);
    } finally {
      await t.close();
    }
    expect(profile('tui').api_key).toMatch(/^sk-or-v1-/);
  });

  it('logout removes the credentials; a command then exits 4 and says how to sign in', async () => {
    const secrets = [...Object.entries(profile()), ...Object.entries(profile('pasted')), ...Object.entries(profile('tui'))]
      .filter(([k]) => /key|token/.test(k))
      .map(([, v]) => v);
    expect(secrets.length).toBe(5);
    const out = cli(['logout']);
    expect(await out.exit).toBe(0);
    expect(out.text()).toMatch(/Signed out of profile "default": removed api_key \(file\), oauth_token \(file\), oauth_refresh_token \(file\)/);
    expect(await cli(['logout', '--profile', 'pasted']).exit).toBe(0);
    expect(await cli(['logout', '--profile', 'tui']).exit).toBe(0);
    expect(readFileSync(configFile, 'utf8')).not.toMatch(/sk-or-v1-|oat-|ort-/);
    const list = cli(['interns', 'list', '--json']);
    expect(await list.exit).toBe(4);
    expect(list.text()).toContain('intern-tui login');
    // No secret in any output or argument list of this whole file.
    const everything = [...outputs, ...argLists].join('\n');
    for (const s of secrets) expect(everything).not.toContain(s);
  });
});
