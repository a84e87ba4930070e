/**
 * `interns get --watch` and `interns list --watch` piped, as a script reads them: the built CLI
 * against a sandbox process, one JSON document per line for each change, ended by ctrl+c (130) or
 * by its reader going away (141).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, poll, startSandboxProcess, type SandboxProcess } from './harness.js';

let sandbox: SandboxProcess;
let home: string;
beforeAll(async () => {
  sandbox = await startSandboxProcess();
  home = mkdtempSync(join(tmpdir(), 'e2e-watch-home-'));
}, 30_000);
afterAll(async () => {
  await sandbox?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  const c = sandbox.manifest.credentials;
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), OPENROUTER_BASE_URL: sandbox.manifest.base_url, OPENROUTER_API_KEY: c.api_key };
}

function start(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out, done };
}

async function run(args: string[]): Promise<void> {
  const r = start(args);
  const code = await r.done;
  if (code !== 0) throw new Error(`intern-tui ${args.join(' ')} exited ${code}: ${r.out.stderr}`);
}

describe('--watch piped', () => {
  it('interns get prints one JSON line per change, and ctrl+c ends it with 130', async () => {
    await run(['interns', 'create', 'watch-bot', '--description', 'first']);
    const w = start(['interns', 'get', 'watch-bot', '--watch', '--json', 'name,description']);
    await poll(() => w.out.stdout, (s) => s.split('\n').length >= 2, 15_000, () => `the first document (stderr: ${w.out.stderr})`);
    expect(w.out.stdout).toBe('{"name":"watch-bot","description":"first"}\n');
    await run(['interns', 'update', 'watch-bot', '--description', 'second']);
    await poll(() => w.out.stdout, (s) => s.split('\n').length >= 3, 15_000, () => `the second document (stdout: ${w.out.stdout})`);
    expect(w.out.stdout.split('\n').slice(0, 2).map((l) => JSON.parse(l) as unknown)).toEqual([
      { name: 'watch-bot', description: 'first' },
      { name: 'watch-bot', description: 'second' },
    ]);
    w.child.kill('SIGINT');
    expect(await w.done).toBe(130);
  }, 40_000);

  it('interns list --watch with --jq prints the filter\'s output per change; a reader that goes away ends it with 141', async () => {
    const w = start(['interns', 'list', '--watch', '-q', 'map(.name) | sort | join(",")']);
    await poll(() => w.out.stdout, (s) => s.includes('\n'), 15_000, () => `the first line (stderr: ${w.out.stderr})`);
    expect(w.out.stdout.split('\n')[0]).toContain('watch-bot');
    w.child.stdout.destroy();
    await run(['interns', 'create', 'watch-bot-2']);
    expect(await w.done).toBe(141);
  }, 40_000);
});
