/**
 * `intern-tui chat` (the built CLI) against a hostile chat service on 127.0.0.1
 * (test/support/hostileChat.ts): an endless stream read by a reader that stalls, then keeps up; a
 * stream of keepalive comments only; a session id that is shell code. The process's peak memory
 * is read from /proc (VmHWM); the figures are in bench/README.md (issue 43).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { HOSTILE_API_KEY, HOSTILE_INTERN_ID, type HostileMode, startHostileChat } from '../support/hostileChat.js';
import { CLI, PtyScreen, ROOT, assertBuilt, poll } from './harness.js';

/** The budget of issue 43: peak RSS with a stalled reader on an endless stream. */
const PEAK_BUDGET_KB = 150 * 1024;

let home: string;
beforeAll(() => {
  assertBuilt();
  home = mkdtempSync(join(tmpdir(), 'e2e-chat-hostile-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function envFor(baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), OPENROUTER_BASE_URL: baseUrl, OPENROUTER_API_KEY: HOSTILE_API_KEY, ...extra };
  for (const k of ['PATH', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

async function hostile(mode: HostileMode) {
  const server = await startHostileChat(mode);
  onTestFinished(() => server.close());
  return server;
}

/** The built CLI with its stdout a pipe this test reads only when told (`child.stdout.resume()`). */
function start(baseUrl: string, args: string[]): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, 'chat', HOSTILE_INTERN_ID, ...args], { env: envFor(baseUrl), stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => void child.kill('SIGKILL'));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

/** The process's peak resident set (VmHWM) in kB, or null once it is gone. */
function peakKb(pid: number): number | null {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  } catch {
    return null;
  }
}

describe('chat against a hostile service', () => {
  it('stays under 150 MB with a stalled reader on an endless stream, and ends at the stream cap once read (exit 1)', async () => {
    const server = await hostile({ kind: 'endless' });
    const { child, stderr, exited } = start(server.baseUrl, ['hi']);
    // The stdout pipe is not read: once it and the connection behind it are full, the service can
    // send no more. Before issue 43 the CLI read on, holding what it could not write (1.8 GB).
    await poll(
      () => ({ blocked: server.blockedSince(), sent: server.sent(), exited: child.exitCode !== null }),
      (s) => s.exited || s.sent > 400e6 || (s.blocked !== null && performance.now() - s.blocked > 1500),
      60_000,
      () => `the service to be held back (sent ${server.sent()} bytes; stderr: ${stderr().slice(-300)})`,
      50,
    );
    const stalled = peakKb(child.pid!);
    expect(child.exitCode, stderr()).toBeNull();
    expect(stalled).toBeLessThanOrEqual(PEAK_BUDGET_KB);
    const heldAt = server.sent();
    expect(heldAt).toBeLessThan(64 << 20);

    // A reader that keeps up: the stream runs to its cap, and the command ends there.
    let peak = stalled!;
    const sampler = setInterval(() => (peak = peakKb(child.pid!) ?? peak), 100);
    onTestFinished(() => clearInterval(sampler));
    child.stdout!.resume();
    const code = await exited;
    clearInterval(sampler);
    expect(code).toBe(1);
    expect(stderr()).toContain('the answer passed 64 MiB, the most one chat stream may carry; it was closed, which cancels the run');
    expect(server.sent()).toBeGreaterThan(64 << 20);
    expect(peak).toBeLessThanOrEqual(PEAK_BUDGET_KB);
    await poll(() => server.open(), (n) => n === 0, 10_000, () => 'the stream to be closed');
  }, 120_000);

  it('a stream of keepalives only: --idle-timeout ends the wait (exit 1) with the command that resumes the session; silent piped', async () => {
    const server = await hostile({ kind: 'keepalive', everyMs: 100 });
    const { stderr, exited } = start(server.baseUrl, ['hi', '--idle-timeout', '1s']);
    expect(await exited).toBe(1);
    const sent = server.chats[0] as { session_id: string };
    expect(sent.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stderr()).toContain(`intern-tui: nothing new from flood for 1s (--idle-timeout): stopped waiting, which cancels the turn; to go on in its session: intern-tui chat flood --session ${sent.session_id} PROMPT`);
    // stderr is not a terminal: no status line, no escape.
    expect(stderr()).not.toContain('still working');
    expect(stderr()).not.toContain('\x1b');
    await poll(() => server.open(), (n) => n === 0, 10_000, () => 'the stream to be closed');
  }, 60_000);

  it('refuses --idle-timeout without a unit before anything is sent (exit 2)', async () => {
    const server = await hostile({ kind: 'keepalive', everyMs: 100 });
    const { stderr, exited } = start(server.baseUrl, ['hi', '--idle-timeout', '30']);
    expect(await exited).toBe(2);
    expect(stderr()).toContain('--idle-timeout needs a unit (ms, s, m or h), such as 30s or 5m');
    expect(server.chats).toHaveLength(0);
  }, 30_000);

  it('on a terminal, a silent turn says the intern is still working and for how long, below an unfinished line, erased when the answer goes on', async () => {
    const server = await hostile({ kind: 'keepalive', everyMs: 200, first: 'half a line' });
    const t = new PtyScreen(process.execPath, [CLI, 'chat', HOSTILE_INTERN_ID, 'hi'], { cols: 80, rows: 12, cwd: ROOT, env: envFor(server.baseUrl, { TERM: 'xterm-256color' }) });
    onTestFinished(() => t.close());
    const seconds = (screen: string) => Number(/flood is still working: nothing new for (\d+)s; ctrl\+c stops/.exec(screen)?.[1] ?? 0);
    const first = seconds(await t.waitFor((screen) => seconds(screen) >= 2));
    // Redrawn in place: one such line, however many seconds went by.
    await t.waitFor((screen) => seconds(screen) > first);
    expect(t.screen().match(/still working/g)).toHaveLength(1);
    expect(t.screen()).toMatch(/^half a line$/m);
    server.finish(' and the rest\n', 'sess_plain-1');
    expect(await t.waitForExit(20_000)).toBe(0);
    const screen = t.screen();
    expect(screen).not.toContain('still working');
    expect(screen).toMatch(/^half a line and the rest$/m);
    expect(screen).toContain('session: sess_plain-1 (continue with --session sess_plain-1)');
  }, 60_000);

  it('a session id that is shell code is put in no command to paste', async () => {
    const server = await hostile({ kind: 'session', sessionId: 'sess_$(touch /tmp/PWNED);x' });
    const { stderr, exited } = start(server.baseUrl, ['hi']);
    expect(await exited).toBe(0);
    expect(stderr()).toContain('session: the service named a session id that is not a plain id ("sess_$(touch /tmp/PWNED);x"), so no command to paste is given');
    expect(stderr()).not.toContain('--session');
  }, 30_000);
});
