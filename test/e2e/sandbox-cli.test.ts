/** `intern-tui sandbox` as a user runs it: what it prints, what it logs, and how it stops. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/sandbox/types.js';
import { CLI, assertBuilt } from './harness.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until<T>(what: string, read: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function startSandbox(env: NodeJS.ProcessEnv = process.env) {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-sandbox-cli-'));
  dirs.push(dir);
  const manifestPath = join(dir, 'manifest.json');
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--manifest', manifestPath, '--seed', 'empty', '--daemon-command', '/bin/sh'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  await until('the manifest', () => existsSync(manifestPath) && out.stdout.includes('manifest:'));
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out, manifest, manifestPath, exited };
}

/** The sandbox command run to its end (it fails before listening): its exit code and stderr. */
function runToEnd(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, 'sandbox', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((r) => child.on('close', (code) => r({ code, stderr, stdout })));
}

describe('intern-tui sandbox', () => {
  it('refuses a manifest in a folder that does not exist, and a port it cannot listen on, before it serves anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2e-sandbox-cli-'));
    dirs.push(dir);
    const missing = await runToEnd(['--port', '0', '--manifest', join(dir, 'no-such-folder', 'manifest.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`the folder ${join(dir, 'no-such-folder')} does not exist`);
    expect(missing.stdout).not.toContain('listening');
    // A port in use: another sandbox's.
    const { manifest } = await startSandbox();
    const port = new URL(manifest.base_url).port;
    const taken = await runToEnd(['--port', port]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE (the port is in use)`);
    // Folders that cannot work together are the command line's mistake too.
    const nested = await runToEnd(['--port', '0', '--data-dir', join(dir, 'data'), '--workspaces-dir', join(dir, 'data', 'ws')]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('the workspaces folder must not be inside the data folder');
  });


  it('prints where it listens, logs one line per request without a secret, and stops cleanly on SIGTERM mid-request', async () => {
    const { child, out, manifest, manifestPath, exited } = await startSandbox();
    expect(out.stdout).toContain(`sandbox listening: ${manifest.base_url}`);
    expect(out.stdout).toContain(`manifest: ${manifestPath}`);
    expect(manifest.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const apiKey = manifest.credentials.api_key!;
    const rawKey = 'sk-proj-e2e-secret-never-logged-1234';
    const list = await request(`${manifest.base_url}/interns?limit=2`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(list.statusCode).toBe(200);
    await list.body.dump();
    const created = await request(`${manifest.base_url}/byok`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manifest.credentials.management_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'openai', key: rawKey }),
    });
    expect(created.statusCode).toBe(201);
    await created.body.dump();
    await until('the log lines', () => out.stderr.includes('POST /api/v1/byok 201'));
    expect(out.stderr).toMatch(/GET \/api\/v1\/interns 200 [\d.]+ms/);
    for (const secret of [apiKey, rawKey, manifest.credentials.management_key!, manifest.control_token]) {
      expect(out.stderr).not.toContain(secret);
      expect(out.stdout).not.toContain(secret);
    }

    // A request in flight when SIGTERM arrives still gets its answer; then the process exits 0.
    const origin = manifest.base_url.replace(/\/api\/v1$/, '');
    const fault = await request(`${origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manifest.control_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ match: 'GET /interns/{internId}', delay_ms: 600 }),
    });
    expect(fault.statusCode).toBe(200);
    await fault.body.dump();
    const slow = request(`${manifest.base_url}/interns/${manifest.interns.running}`, { headers: { authorization: `Bearer ${apiKey}` } });
    await until('the slow request to be held by the fault', () => out.stderr.includes('fault: GET /interns/{internId} held for 600ms'));
    child.kill('SIGTERM');
    const res = await slow;
    expect(res.statusCode).toBe(200);
    expect(((await res.body.json()) as { id: string }).id).toBe(manifest.interns.running);
    expect(await exited).toBe(0);
    expect(out.stderr).toContain('sandbox: stopping');
  });

  it('the reader of its log gone (a `| tee` ended by ctrl+c): it closes, exits 141 and leaves no temporary data behind', async () => {
    const own = mkdtempSync(join(tmpdir(), 'e2e-sandbox-tmp-'));
    dirs.push(own);
    const { child, manifest, exited } = await startSandbox({ ...process.env, TMPDIR: own });
    child.stderr!.destroy();
    // Its next log line meets the closed pipe.
    const res = await request(`${manifest.base_url}/interns`, { headers: { authorization: `Bearer ${manifest.credentials.api_key!}` } }).catch(() => undefined);
    await res?.body.dump();
    expect(await exited).toBe(141);
    expect(readdirSync(own)).toEqual([]);
  });

  it('SIGTERM while it starts (its folders made, its manifest not yet written): it starts, closes, exits 0 and leaves nothing behind', async () => {
    assertBuilt();
    const own = mkdtempSync(join(tmpdir(), 'e2e-sandbox-tmp-'));
    dirs.push(own);
    const elsewhere = mkdtempSync(join(tmpdir(), 'e2e-sandbox-cli-'));
    dirs.push(elsewhere);
    const manifestPath = join(elsewhere, 'manifest.json');
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--manifest', manifestPath, '--seed', 'demo', '--daemon-command', '/bin/sh'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: own },
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
    // Its temporary data folder is made as the start begins; the manifest is written as it ends.
    await until('the start to be under way', () => readdirSync(own).some((f) => f.startsWith('intern-sandbox-')) || undefined, 30_000);
    child.kill('SIGTERM');
    // Ended by the signal's default action, it left its folders and was not exit 0.
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('sandbox: stopping');
    expect(readdirSync(own)).toEqual([]);
  });

  for (const signals of [['SIGTERM', 'SIGTERM'], ['SIGINT', 'SIGTERM'], ['SIGHUP']] as const) {
    it(`${signals.join(' then ')} while it stops: it still closes, exits 0 and leaves no temporary data behind`, async () => {
      // A temporary directory of its own, to see what it leaves there.
      const own = mkdtempSync(join(tmpdir(), 'e2e-sandbox-tmp-'));
      dirs.push(own);
      const { child, out, manifest, exited } = await startSandbox({ ...process.env, TMPDIR: own });
      expect(readdirSync(own).length).toBeGreaterThan(0);
      // A request held 600 ms keeps the close busy while the second signal arrives.
      const origin = manifest.base_url.replace(/\/api\/v1$/, '');
      const fault = await request(`${origin}/__sandbox/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manifest.control_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ match: 'GET /interns/{internId}', delay_ms: 600 }),
      });
      await fault.body.dump();
      const slow = request(`${manifest.base_url}/interns/${manifest.interns.running}`, { headers: { authorization: `Bearer ${manifest.credentials.api_key!}` } });
      await until('the slow request to be held by the fault', () => out.stderr.includes('fault: GET /interns/{internId} held for 600ms'));
      for (const s of signals) {
        child.kill(s);
        // Taken (it says so), or not (the signal ended it: the checks below say how).
        await until(`${s} to be taken`, () => out.stderr.includes('sandbox: stopping') || child.exitCode !== null || child.signalCode !== null);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await slow).statusCode).toBe(200);
      expect(await exited).toBe(0);
      expect(child.signalCode).toBeNull();
      expect(readdirSync(own)).toEqual([]);
    });
  }
});
