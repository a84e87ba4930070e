/**
 * Issue 43, point 3: an intern's shell read the sandbox's secrets (`/proc/$PPID/environ`, the
 * manifest, secret.key, the database). Now, where the machine allows it, the shell runs in
 * namespaces of its own (src/sandbox/daemon/confine.ts) and sees none of them; where it cannot,
 * the sandbox says so in one line at start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confinementNote, probeConfinement } from '../../src/sandbox/daemon/confine.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { sandbox, typeInTerminal, userClient } from '../support/sandbox.js';

let sb: RunningSandbox | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const scratch = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `secrets-${name}-`));
  dirs.push(d);
  return d;
};

/** Types `script` into the running intern's shell and answers what it printed up to the end marker. */
function inShell(s: RunningSandbox, script: string): Promise<string> {
  // The marker is split (EN%sD) so the echo of the typed line does not match it.
  return typeInTerminal(userClient(s), s.manifest.interns.running!, `${script}; printf 'EN%sD\\n' D\n`, (x) => x.includes('ENDD'), { what: 'the shell answered' });
}

/** What the probe's shell tries: its parent's environment, every process it can see, and the private files. */
const PROBE = (paths: string[]) =>
  [
    `printf 'PAR%sENT=%s=\\n' '' "$(tr '\\0' ' ' < /proc/$PPID/cmdline 2>&1)"`,
    `tr '\\0' '\\n' < /proc/$PPID/environ 2>&1`,
    `for p in /proc/[0-9]*; do printf 'PROC %s ' "$p"; tr '\\0' ' ' < "$p/cmdline" 2>/dev/null; echo; done`,
    ...paths.map((p) => `cat '${p}' 2>&1 | head -c 4000; printf 'LS%s=%s=\\n' '' "$(ls -A '${p}' 2>/dev/null | tr '\\n' ,)"`),
  ].join('; ');

async function start(options: SandboxOptions, notes: string[]): Promise<RunningSandbox> {
  return sandbox({ seed: 'demo', daemonCommand: '/bin/sh', notice: (line) => notes.push(line), ...options });
}

/** Asserts the shell saw nothing of `secrets`, no process outside its namespace (its parent included), or the note. */
async function expectConfined(notes: string[], out: string, secrets: string[]) {
  // The sandbox's own answer (cached for the process): its note, if any, was given when it came.
  const confinement = await probeConfinement();
  if (confinement.kind === 'none') {
    // The machine cannot: the sandbox said so, once, in one line (docs/sandbox.md says what the shell reads then).
    expect(notes.filter((n) => n === confinementNote(confinement))).toHaveLength(1);
    expect(confinementNote(confinement)).not.toContain('\n');
    return;
  }
  expect(notes.filter((n) => /confined/.test(n))).toEqual([]);
  // Its parent is its own namespace's (a shell), or outside it and unseen: never the sandbox.
  const parent = /PARENT=(.*?)=/.exec(out)?.[1];
  expect(parent).toBeDefined();
  expect(parent).not.toMatch(/node|vitest/);
  // No other process of the machine in sight: the sandbox's (this test's node) least of all.
  const procs = out.split('\n').filter((l) => l.startsWith('PROC '));
  expect(procs.length).toBeGreaterThan(0);
  for (const line of procs) expect(line).not.toMatch(/node|vitest/);
  for (const secret of secrets) expect(out, `the shell read ${secret.slice(0, 12)}…`).not.toContain(secret);
  // Each private folder lists as empty; a private file lists as its own name only (it is /dev/null).
  const listed = [...out.matchAll(/LS=(.*?)=/g)].map((x) => x[1] ?? '');
  expect(listed.length).toBeGreaterThan(0);
  for (const l of listed) expect(l === '' || /^\/[^,]*,$/.test(l), `listed: ${l}`).toBe(true);
}

describe("the intern's shell and the sandbox's secrets (issue 43)", () => {
  it('does not read secret.key, the database, the manifest or the config folder, nor see the sandbox process', async () => {
    const dataDir = scratch('data');
    const manifestPath = join(scratch('manifest'), 'manifest.json');
    const config = join(scratch('config'), 'intern-tui');
    mkdirSync(config);
    const configSecret = `sk-config-${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { p: { api_key: configSecret } } }), { mode: 0o600 });
    const notes: string[] = [];
    sb = await start({ dataDir, manifestPath, privatePaths: [config] }, notes);
    const key = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim();
    const out = await inShell(sb, PROBE([join(dataDir, 'secret.key'), join(dataDir, 'sandbox.db'), dataDir, manifestPath, join(config, 'config.json'), config]));
    const m = sb.manifest;
    await expectConfined(notes, out, [key, configSecret, m.control_token, ...Object.values(m.credentials), 'SQLite format']);
  });

  it('with the secret in a file: the shell reads neither the file nor the variable, which no child inherits, and the variable is noted', async () => {
    const fileSecret = `file-secret-${Math.random().toString(36).slice(2)}`;
    const envSecret = `env-secret-${Math.random().toString(36).slice(2)}`;
    const secretFile = join(scratch('secret'), 'sandbox.secret');
    writeFileSync(secretFile, `${fileSecret}\n`, { mode: 0o600 });
    const notes: string[] = [];
    process.env.INTERN_SANDBOX_SECRET = envSecret;
    try {
      sb = await start({ dataDir: scratch('data'), secret: { file: secretFile } }, notes);
    } finally {
      // Read once and taken out: a program started from now on does not inherit it.
      expect(process.env.INTERN_SANDBOX_SECRET).toBeUndefined();
      delete process.env.INTERN_SANDBOX_SECRET;
    }
    expect(notes.filter((n) => n.includes('INTERN_SANDBOX_SECRET'))).toEqual([expect.stringMatching(/\/proc.*--secret-file/)]);
    expect(spawnSync('env', { encoding: 'utf8' }).stdout).not.toContain(envSecret);
    const out = await inShell(sb, `env; ${PROBE([secretFile])}`);
    expect(out).not.toContain('INTERN_SANDBOX_SECRET=');
    await expectConfined(notes, out, [fileSecret]);
  });

  it('a data folder beside the workspaces, in one parent: the shell works in its own folder and the data folder stays covered', async () => {
    const parent = scratch('parent');
    const dataDir = join(parent, 'data');
    const workspacesDir = join(parent, 'workspaces');
    const notes: string[] = [];
    sb = await start({ dataDir, workspacesDir }, notes);
    const key = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim();
    const out = await inShell(sb, `printf 'CW%sD=%s\\n' '' "$(pwd -P)"; ${PROBE([join(dataDir, 'secret.key'), dataDir])}`);
    expect(out).toContain(`CWD=${join(workspacesDir, sb.manifest.interns.running!)}`);
    await expectConfined(notes, out, [key, 'SQLite format']);
  });

  it('a data folder sealed with a secret file opens again with it; another secret is a one-line error, and an unreadable one stops the start before anything is made', async () => {
    const dataDir = scratch('data');
    const secretFile = join(scratch('secret'), 's');
    writeFileSync(secretFile, 'first secret\n', { mode: 0o600 });
    sb = await sandbox({ dataDir, secret: { file: secretFile }, seed: 'demo' });
    const token = sb.manifest.control_token;
    await sb.close();
    // The same text from the variable opens it too: moving from INTERN_SANDBOX_SECRET to a file loses nothing.
    sb = await sandbox({ dataDir, secret: { text: 'first secret' }, seed: 'demo', notice: () => undefined });
    expect(sb.manifest.control_token).toBe(token);
    await sb.close();
    sb = undefined;
    writeFileSync(secretFile, 'another secret\n');
    await expect(sandbox({ dataDir, secret: { file: secretFile } })).rejects.toThrow(/^the secret does not open the state sealed in .* \(it was made with another secret\)$/);
    const fresh = join(scratch('fresh'), 'data');
    await expect(sandbox({ dataDir: fresh, secret: { file: join(fresh, 'nope') } })).rejects.toThrow(/^the secret file .*nope cannot be read: it does not exist$/);
    expect(existsSync(fresh)).toBe(false);
  });
});
