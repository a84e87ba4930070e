/**
 * `intern-tui sandbox` and its secrets (issue 43, point 3), as the probe ran it: secrets in the
 * sandbox process's environment, read from the intern's shell through /proc. Also the secret's
 * file and descriptor flags, and their one-line errors.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { probeConfinement } from '../../src/sandbox/daemon/confine.js';
import type { Manifest } from '../../src/sandbox/types.js';
import { typeInTerminal } from '../support/sandbox.js';
import { CLI, assertBuilt, poll } from './harness.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    c.kill('SIGTERM');
    await poll(() => c.exitCode !== null || c.signalCode !== null, Boolean, 10_000, () => 'the sandbox to stop');
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'e2e-secrets-'));
  dirs.push(d);
  return d;
};

/** `intern-tui sandbox ARGS` with `env`; `input` is written to its fd 3. Answers once it has a manifest, or has ended. */
async function run(args: string[], env: NodeJS.ProcessEnv, input?: string) {
  assertBuilt();
  const dir = scratch();
  const manifestPath = join(dir, 'manifest.json');
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--manifest', manifestPath, '--seed', 'demo', '--daemon-command', '/bin/sh', ...args], {
    stdio: ['ignore', 'pipe', 'pipe', ...(input === undefined ? [] : (['pipe'] as const))],
    env,
  });
  children.push(child);
  if (input !== undefined) (child.stdio[3] as NodeJS.WritableStream).end(input);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  await poll(() => (existsSync(manifestPath) && out.stdout.includes('manifest:')) || child.exitCode !== null, Boolean, 30_000, () => `the sandbox (stderr: ${out.stderr.slice(-300)})`);
  await poll(() => child.exitCode !== null || existsSync(manifestPath), Boolean, 1000, () => 'settled');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : undefined;
  return { child, out, manifest, manifestPath };
}

/** Types `script` into the running intern's shell; answers what it printed. */
function inShell(manifest: Manifest, script: string): Promise<string> {
  const c = manifest.credentials;
  const api = createClient({ baseUrl: manifest.base_url, credentials: { api_key: c.api_key, management_key: c.management_key, oauth_token: c.oauth_token }, maxAttempts: 1 });
  return typeInTerminal(api, manifest.interns.running!, `${script}; printf 'EN%sD\\n' D\n`, (x) => x.includes('ENDD'));
}

describe('intern-tui sandbox and its secrets (issue 43)', () => {
  it("with INTERN_SANDBOX_SECRET and OPENROUTER_API_KEY in its environment: one note, and the intern's shell reads neither, nor the manifest, data folder or config", async () => {
    const envSecret = `env-secret-${Math.random().toString(36).slice(2)}`;
    const providerKey = `sk-or-v1-${Math.random().toString(36).slice(2)}`;
    const config = scratch();
    mkdirSync(join(config, 'intern-tui'));
    writeFileSync(join(config, 'intern-tui', 'config.json'), '{"profiles":{"p":{"api_key":"sk-config-canary"}}}', { mode: 0o600 });
    const dataDir = join(scratch(), 'data');
    const { out, manifest, manifestPath } = await run(['--data-dir', dataDir], { ...process.env, INTERN_SANDBOX_SECRET: envSecret, OPENROUTER_API_KEY: providerKey, XDG_CONFIG_HOME: config });
    expect(manifest).toBeDefined();
    const notes = () => out.stderr.split('\n').filter((l) => l.startsWith('sandbox: '));
    const confinement = await probeConfinement();
    if (confinement.kind === 'none') {
      // Said so in one line, as soon as its probe answered; docs/sandbox.md says what the shell reads then.
      await poll(notes, (n) => n.length === 2, 10_000, () => out.stderr);
      expect(notes()).toEqual([expect.stringMatching(/^sandbox: INTERN_SANDBOX_SECRET is readable .*\/proc\/PID\/environ; pass --secret-file FILE/), expect.stringMatching(/not confined/)]);
      return;
    }
    const text = await inShell(
      manifest!,
      [
        `tr '\\0' '\\n' < /proc/$PPID/environ 2>&1`,
        `cat /proc/[0-9]*/environ 2>&1 | tr '\\0' '\\n'`,
        `cat '${manifestPath}' '${join(dataDir, 'sandbox.db')}' '${join(config, 'intern-tui', 'config.json')}' 2>&1 | head -c 20000`,
      ].join('; '),
    );
    for (const secret of [envSecret, providerKey, 'sk-config-canary', manifest!.control_token, manifest!.credentials.api_key!, 'SQLite format']) {
      expect(text, `the shell read ${secret.slice(0, 10)}…`).not.toContain(secret);
    }
    // One note, of the variable; none of confinement (the terminal has run, so the probe has answered).
    expect(notes()).toEqual([expect.stringMatching(/^sandbox: INTERN_SANDBOX_SECRET is readable .*\/proc\/PID\/environ; pass --secret-file FILE/)]);
  });

  it('--secret-fd and --secret-file with the same text open the same data folder; no note without the variable', async () => {
    const dataDir = join(scratch(), 'data');
    const env = { ...process.env };
    delete env.INTERN_SANDBOX_SECRET;
    const first = await run(['--data-dir', dataDir, '--secret-fd', '3'], env, 'shared secret\n');
    expect(first.manifest).toBeDefined();
    expect(first.out.stderr).not.toContain('INTERN_SANDBOX_SECRET');
    first.child.kill('SIGTERM');
    await poll(() => first.child.exitCode !== null, Boolean, 10_000, () => `the first sandbox to stop (${first.child.signalCode} ${first.out.stderr.slice(-300)})`);
    const file = join(scratch(), 's');
    writeFileSync(file, 'shared secret\n', { mode: 0o600 });
    const second = await run(['--data-dir', dataDir, '--secret-file', file], env);
    expect(second.manifest?.control_token).toBe(first.manifest!.control_token);
  });

  it('a missing or empty secret file, or a closed descriptor, is a one-line error and exit 2', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'empty'), '');
    for (const [args, message] of [
      [['--secret-file', join(dir, 'missing')], /^intern-tui: the secret file .*missing cannot be read: it does not exist\n$/],
      [['--secret-file', join(dir, 'empty')], /^intern-tui: the secret file .*empty is empty\n$/],
      [['--secret-fd', '700'], /^intern-tui: the secret file descriptor 700 cannot be read: it is not open\n$/],
    ] as const) {
      const { child, out, manifest } = await run([...args], process.env);
      await poll(() => child.exitCode, (c) => c !== null, 10_000, () => 'the exit');
      expect(manifest).toBeUndefined();
      expect(child.exitCode).toBe(2);
      expect(out.stderr).toMatch(message);
    }
  });
});
