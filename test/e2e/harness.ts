/**
 * End-to-end harness: a sandbox started by the built CLI with --manifest, and
 * the built CLI itself in a real pseudo-terminal, its screen read through
 * @xterm/headless. Everything waits for a condition; nothing sleeps.
 *
 * The tests run the bundle in dist/: `npm test` builds it first; run
 * `npm run build` before running these files on their own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import type { Manifest } from '../../src/sandbox/types.js';
import { KEYS } from '../support/keys.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'bin', 'intern-tui.js');

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
}

/** Reads until `ok` holds, every 15 ms, or fails after `timeoutMs` naming what it waited for. */
export async function poll<T>(read: () => T, ok: (v: T) => boolean, timeoutMs: number, what: () => string, intervalMs = 15): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface SandboxProcess {
  manifest: Manifest;
  dir: string;
  stop(): Promise<void>;
}

/** `intern-tui sandbox --port 0 --manifest FILE`, waiting for the manifest. */
export async function startSandboxProcess(extra: string[] = []): Promise<SandboxProcess> {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-sandbox-'));
  const manifestPath = join(dir, 'manifest.json');
  const child: ChildProcess = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--manifest', manifestPath, '--step-ms', '150', '--seed', 'empty', '--daemon-command', '/bin/sh', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SHELL: '/bin/sh' },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await poll(() => existsSync(manifestPath) || child.exitCode !== null, Boolean, 20_000, () => `the sandbox manifest (stderr: ${stderr.slice(-500)})`);
  if (child.exitCode !== null) throw new Error(`the sandbox exited: ${stderr.slice(-500)}`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  return {
    manifest,
    dir,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await poll(() => child.exitCode !== null || child.signalCode !== null, Boolean, 10_000, () => 'the sandbox to stop');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TuiOptions {
  manifest?: Manifest;
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  args?: string[];
  credentials?: ('api_key' | 'management_key' | 'oauth_token')[];
}

const ENV_OF = { api_key: 'OPENROUTER_API_KEY', management_key: 'OPENROUTER_MANAGEMENT_KEY', oauth_token: 'OPENROUTER_OAUTH_TOKEN' } as const;

/** Any program in a real pseudo-terminal, its screen kept by @xterm/headless. */
export class PtyScreen {
  readonly term: xterm.Terminal;
  protected readonly proc: pty.IPty;
  output = '';
  exitCode: number | null = null;
  /** Keep everything the program printed in `output` (off for floods). */
  keepOutput = true;
  /**
   * Parse the output into `term` (the screen). The bench turns it off to time bytes passed straight
   * through, which the user's own terminal parses, not the program: `onRaw` then sees them.
   */
  parse = true;
  onRaw: ((data: string) => void) | undefined;
  private readonly parsed = new Set<() => void>();

  constructor(file: string, args: string[], opts: { cols: number; rows: number; cwd: string; env: Record<string, string> }) {
    this.term = new xterm.Terminal({ allowProposedApi: true, cols: opts.cols, rows: opts.rows, scrollback: 0 });
    // node-pty sets TERM from `name`: the env's own TERM (a test's TERM=dumb) wins.
    this.proc = pty.spawn(file, args, { name: opts.env.TERM ?? 'xterm-256color', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env: opts.env });
    this.proc.onData((d) => {
      if (this.keepOutput) this.output += d;
      this.onRaw?.(d);
      if (!this.parse) return;
      // Marked as following user input, xterm parses a write into its empty buffer at once instead
      // of on a timer (at least 1 ms in Node): the time to the parsed screen is then the program's,
      // not this reader's (the bench times echoes with it, tmux's and intern-tui's alike).
      this.term.input('', true);
      this.term.write(d);
    });
    this.term.onWriteParsed(() => {
      for (const f of this.parsed) f();
    });
    this.proc.onExit(({ exitCode }) => (this.exitCode = exitCode));
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** Raw bytes to the program, at once (benchmarks; tests use `press`). */
  write(data: string): void {
    this.proc.write(data);
  }

  /** Resolves as soon as a parsed write leaves `ok` true: no polling interval in the way. */
  whenParsed(ok: () => boolean, timeoutMs = 15_000, what = 'the screen'): Promise<void> {
    if (ok()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!ok()) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (cursor line ${JSON.stringify(this.cursorLine())}):\n${this.screen()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.parsed.delete(check);
      };
      this.parsed.add(check);
    });
  }

  /** The text of the row the cursor is on. */
  cursorLine(): string {
    const b = this.term.buffer.active;
    return (b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '').trimEnd();
  }

  /** The screen as text, one line per row, trailing spaces trimmed. */
  screen(): string {
    const b = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** The TUI's intern list has loaded: its first row is selected (raw mode is on by then). */
  async ready(): Promise<void> {
    await this.waitFor(/^›/m);
  }

  /** Waits until every pending write is parsed, then until the screen shows `text`. */
  async waitFor(text: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const has = (s: string) => (typeof text === 'string' ? s.includes(text) : text instanceof RegExp ? text.test(s) : text(s));
    await new Promise<void>((r) => this.term.write('', r));
    return poll(() => this.screen(), has, timeoutMs, () => `${String(text)} on screen:\n${this.screen()}`);
  }

  async waitForGone(text: string, timeoutMs = 15_000): Promise<void> {
    await poll(() => this.screen(), (s) => !s.includes(text), timeoutMs, () => `${text} to leave the screen:\n${this.screen()}`);
  }

  async waitForExit(timeoutMs = 10_000): Promise<number> {
    return poll(() => this.exitCode, (c) => c !== null, timeoutMs, () => 'the TUI to exit') as Promise<number>;
  }

  /** One key per write, as a person types. */
  async press(...keys: string[]): Promise<void> {
    for (const k of keys) {
      // A combination missing from KEYS would otherwise be typed out letter by letter.
      if (!(k in KEYS) && /^(ctrl|shift|alt|meta)\+./.test(k)) throw new Error(`press: add "${k}" to test/support/keys.ts`);
      this.proc.write(KEYS[k] ?? k);
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  async type(text: string): Promise<void> {
    for (const ch of text) await this.press(ch);
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
    this.proc.resize(cols, rows);
  }

  /**
   * The terminal goes away, as when its window is closed: the pty is closed under the program (its
   * reads and writes fail) and it gets SIGHUP. Resolves once the process is gone.
   */
  async hangUp(timeoutMs = 15_000): Promise<void> {
    (this.proc as unknown as { destroy(): void }).destroy();
    await this.waitForEnd(timeoutMs);
  }

  /** Sends the program a signal. */
  signal(signal: NodeJS.Signals): void {
    this.proc.kill(signal);
  }

  /** Resolves once the process is gone (whether or not the pty reported its exit). */
  async waitForEnd(timeoutMs = 15_000): Promise<void> {
    const alive = () => {
      try {
        process.kill(this.proc.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await poll(alive, (a) => !a, timeoutMs, () => 'the program to end');
    this.gone = true;
  }
  /** The process is gone (waitForEnd saw it), whether or not the pty reported its exit. */
  private gone = false;

  /**
   * Ends the program; resolves once it has exited (or after 5 s), so that nothing it writes on its
   * way out (the TUI's code cache) lands in a folder the caller removes next.
   */
  close(): Promise<void> {
    const exited = this.exitCode !== null || this.gone ? Promise.resolve() : new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      this.proc.onExit(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      this.proc.kill();
    } catch {
      /* already gone */
    }
    this.term.dispose();
    return exited;
  }
}

/** The built CLI in a pseudo-terminal with a scratch HOME, configured for a sandbox. */
export class Tui extends PtyScreen {
  private readonly home: string;

  constructor(opts: TuiOptions = {}) {
    assertBuilt();
    const home = mkdtempSync(join(tmpdir(), 'e2e-home-'));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      // The run's own temporary folder (test/support/tmpRoot.ts), for what the TUI makes there.
      TMPDIR: tmpdir(),
      ...opts.env,
    };
    if (opts.manifest) {
      env.OPENROUTER_BASE_URL = opts.manifest.base_url;
      for (const kind of opts.credentials ?? (['api_key', 'management_key', 'oauth_token'] as const)) env[ENV_OF[kind]] = opts.manifest.credentials[kind]!;
    }
    super(process.execPath, [CLI, ...(opts.args ?? [])], { cols: opts.cols ?? 100, rows: opts.rows ?? 30, cwd: ROOT, env });
    this.home = home;
  }

  override async close(): Promise<void> {
    await super.close();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Filters the intern list to `name`, opens it, and waits for its details. */
export async function openIntern(t: PtyScreen, name: string): Promise<void> {
  await t.ready();
  await t.press('/');
  await t.type(name);
  await t.press('enter');
  await t.waitFor(new RegExp(`› ?★? ${name} `));
  await t.press('enter');
  await t.waitFor(/id {2,}[0-9a-f-]{36}/);
}

/** From an intern's details: attaches (a), waits for the connection, types `command` at the remote shell and waits for `output`. */
export async function attachAndRun(t: PtyScreen, command: string, output: string): Promise<string> {
  await t.press('a');
  await t.waitFor('connected');
  await t.waitFor('ctrl+] detach');
  await t.type(command);
  await t.press('enter');
  return t.waitFor(output);
}
