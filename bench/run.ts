/**
 * `npm run bench`: the attach screen's budgets, measured beside tmux on the
 * same machine in the same run. Each line prints the figure and its budget.
 * A measurement over its budget, or one that could not finish, prints a line
 * `FAILED <measurement>: <why>` and the run exits 1: a status of 1 always
 * comes with such a line.
 *
 * Setup: a sandbox process (the built CLI, empty seed, /bin/sh behind the
 * daemon), the built TUI in a real pseudo-terminal whose screen is read by
 * @xterm/headless, and a tmux server of its own (`-L`), so nothing here
 * touches the user's tmux.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PtyScreen, type SandboxProcess, Tui, openIntern, startSandboxProcess } from '../test/e2e/harness.js';
import { writeFlood } from './flood.js';
import { PROMPT_LINE, setPromptCommand } from './prompt.js';

const COLS = 100;
const ROWS = 30;
const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 50);
const ECHO_SAMPLES = Number(process.env.BENCH_ECHO_SAMPLES ?? 1000);
const SCROLLBACK = 10_000;
const KEY_GAP_MS = 25;

export const BUDGETS = {
  throughputRatio: 1, // intern-tui MB/s ÷ tmux MB/s, at least
  echoP99Ms: 16, // at most
  peakRssMb: 200, // at most
  detachMs: 100, // at most
};

interface Line {
  name: string;
  figure: string;
  budget: string;
  /** Why the figure misses its budget, or undefined when it is within. */
  over?: string;
}

/** Every reason this run will exit 1, each naming its measurement. */
const failures: string[] = [];
/** The measurement under way: a failure that is not a figure is charged to it. */
let stage = 'setup';

function fail(what: string, why: string): void {
  failures.push(`${what}: ${why}`);
  console.log(`FAILED ${what}: ${why}`);
  process.exitCode = 1;
}

function report(line: Line): void {
  console.log(`${line.name.padEnd(26)} ${line.figure.padEnd(48)} budget: ${line.budget}`);
  if (line.over !== undefined) fail(line.name, `over budget: ${line.over}`);
}

const dirs: string[] = [];
const cleanups: (() => void | Promise<void>)[] = [];

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', `intern-tui-bench-${process.pid}`, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for ${pid}`);
  return Number(m[1]) / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Opens the TUI on the `runner` intern and attaches to its terminal. */
async function attached(sb: SandboxProcess): Promise<Tui> {
  const t = new Tui({ manifest: sb.manifest, cols: COLS, rows: ROWS, args: ['--scrollback', String(SCROLLBACK)] });
  cleanups.push(() => t.close());
  await openIntern(t, 'runner');
  await t.press('a');
  // Keys typed before the connection is open are dropped (the status line shows `ctrl+] detach`
  // while still connecting): wait for `connected` and for the shell's first prompt.
  await t.whenParsed(() => t.screen().includes('│ connected │') && !['', t.screen().split('\n', 1)[0]!.trimEnd()].includes(t.cursorLine()), 20_000, 'the connection and the shell prompt');
  // A prompt that survives a flood cut at any byte by ctrl+c (see bench/prompt.ts).
  await t.type(setPromptCommand());
  await t.press('enter');
  await t.whenParsed(() => t.cursorLine() === PROMPT_LINE, 10_000, 'the prompt');
  return t;
}

/**
 * Types `samples` characters one at a time, timing each from write to its echo
 * on the screen. Keys go out 25 ms apart (40 a second, faster than anyone
 * types): sent back to back, each echo would wait out the 60 fps frame cap of
 * the one before and the figure would measure the cap, not the latency.
 */
async function echoLatencies(screen: PtyScreen, samples: number): Promise<number[]> {
  const times: number[] = [];
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  let typed = '';
  for (let i = 0; i < samples; i++) {
    if (typed.length >= 40) {
      screen.write('\x15'); // ctrl+u: the line discipline erases the line
      await screen.whenParsed(() => screen.cursorLine() === '$', 5_000, 'the line to clear');
      typed = '';
    }
    await new Promise((r) => setTimeout(r, KEY_GAP_MS));
    const ch = alphabet[i % alphabet.length]!;
    typed += ch;
    const want = `$ ${typed}`;
    const start = performance.now();
    screen.write(ch);
    await screen.whenParsed(() => screen.cursorLine() === want, 5_000, `echo of ${ch}`);
    times.push(performance.now() - start);
  }
  screen.write('\x15');
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  console.log(`intern-tui bench · node ${process.version} · ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · ${load()}`);
  if (!hasTmux()) {
    fail('setup', 'tmux is not installed: the comparisons cannot be measured');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'intern-tui-bench-'));
  dirs.push(dir);
  const file = join(dir, 'flood.txt');
  const { bytes, lines, lastLine } = writeFlood(file, FLOOD_MB * 1024 * 1024);
  const mb = bytes / (1024 * 1024);
  console.log(`flood: ${mb.toFixed(1)} MB of mixed ANSI text, ${COLS}x${ROWS} screens, scrollback ${SCROLLBACK}`);

  const sb = await startSandboxProcess();
  cleanups.push(() => sb.stop());
  const shellEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: '$ ', ENV: '' };

  // tmux: a detached pane, the screen read with capture-pane once the shell says cat is done.
  tmux('new-session', '-d', '-s', 'bench', '-x', String(COLS), '-y', String(ROWS), 'env', 'PS1=$ ', '/bin/sh');
  cleanups.push(() => void tmux('kill-server'));
  stage = '1. throughput';
  const tmuxStart = performance.now();
  tmux('send-keys', '-t', 'bench', `cat ${file}; tmux -L intern-tui-bench-${process.pid} wait-for -S flood-done`, 'Enter');
  tmux('wait-for', 'flood-done');
  while (!tmux('capture-pane', '-p', '-t', 'bench').includes(lastLine)) await new Promise((r) => setTimeout(r, 5));
  const tmuxSecs = (performance.now() - tmuxStart) / 1000;

  // intern-tui: attached, the same cat, until its screen shows the last line.
  const t = await attached(sb);
  t.keepOutput = false;
  t.write(`cat ${file}\r`);
  const tuiStart = performance.now();
  await t.whenParsed(() => t.screen().includes(lastLine), 600_000, 'the last line of the flood');
  const tuiSecs = (performance.now() - tuiStart) / 1000;
  const rss = peakRssMb(t.pid);
  const tuiRate = mb / tuiSecs;
  const tmuxRate = mb / tmuxSecs;
  const ratio = tuiRate / tmuxRate;
  report({
    name: '1. throughput',
    figure: `intern-tui ${tuiRate.toFixed(1)} MB/s · tmux ${tmuxRate.toFixed(1)} MB/s · ×${ratio.toFixed(2)}`,
    budget: `at least tmux (×${BUDGETS.throughputRatio.toFixed(2)})`,
    over: ratio >= BUDGETS.throughputRatio ? undefined : `×${ratio.toFixed(2)} of tmux's rate < ×${BUDGETS.throughputRatio.toFixed(2)}`,
  });

  // Echo latency, on the same attached session, then through a tmux client in a pty.
  stage = '2. keystroke echo';
  await t.whenParsed(() => t.cursorLine().startsWith('$'), 10_000, 'the prompt after the flood');
  const tuiEcho = await echoLatencies(t, ECHO_SAMPLES);
  const client = new PtyScreen('tmux', ['-L', `intern-tui-bench-${process.pid}`, 'attach', '-t', 'bench'], { cols: COLS, rows: ROWS, cwd: dir, env: shellEnv });
  client.keepOutput = false;
  cleanups.push(() => client.close());
  tmux('send-keys', '-t', 'bench', 'clear', 'Enter');
  await client.whenParsed(() => client.cursorLine() === '$', 10_000, 'the tmux prompt');
  const tmuxEcho = await echoLatencies(client, ECHO_SAMPLES);
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(2);
  report({
    name: '2. keystroke echo',
    figure: `intern-tui p50 ${p(tuiEcho, 50)} ms p99 ${p(tuiEcho, 99)} ms · tmux p50 ${p(tmuxEcho, 50)} ms p99 ${p(tmuxEcho, 99)} ms`,
    budget: `p99 ≤ ${BUDGETS.echoP99Ms} ms (${ECHO_SAMPLES} samples, keys ${KEY_GAP_MS} ms apart)`,
    over: percentile(tuiEcho, 99) <= BUDGETS.echoP99Ms ? undefined : `intern-tui p99 ${p(tuiEcho, 99)} ms > ${BUDGETS.echoP99Ms} ms`,
  });

  report({
    name: '3. peak RSS during 1',
    figure: `${rss.toFixed(1)} MB`,
    budget: `≤ ${BUDGETS.peakRssMb} MB`,
    over: rss <= BUDGETS.peakRssMb ? undefined : `${rss.toFixed(1)} MB > ${BUDGETS.peakRssMb} MB`,
  });

  // Detach in the middle of the same flood: ctrl+] to the details screen, five times; the worst counts.
  stage = '4. ctrl+] during a flood';
  const detaches: number[] = [];
  const fraction = [0.2, 0.35, 0.5, 0.65, 0.8];
  for (const [i, at] of fraction.entries()) {
    if (i > 0) {
      // Back in, stop the paused cat, and start the next flood from a prompt.
      t.write('a');
      await t.whenParsed(() => t.screen().includes('ctrl+] detach'), 10_000, 'the attach screen');
      t.write('\x03');
      await t.whenParsed(() => t.cursorLine() === PROMPT_LINE, 30_000, `the prompt after ctrl+c stopped flood ${i}`);
    }
    // A clean screen first: the line numbers of the flood stopped by ctrl+c must not count for this one.
    t.write('clear\r');
    await t.whenParsed(() => !/L\d{7} /.test(t.screen()) && t.cursorLine() === PROMPT_LINE, 10_000, 'a cleared screen');
    t.write(`cat ${file}\r`);
    const line = Math.floor(lines * at);
    await t.whenParsed(() => Number(/L(\d{7}) /.exec(t.screen())?.[1] ?? 0) >= line, 600_000, `line ${line} of the flood`);
    const start = performance.now();
    t.write('\x1d');
    await t.whenParsed(() => /id {2,}[0-9a-f-]{36}/.test(t.screen()), 10_000, `the details screen after ctrl+] at ${Math.round(at * 100)}%`);
    detaches.push(performance.now() - start);
  }
  const worst = Math.max(...detaches);
  report({
    name: '4. ctrl+] during a flood',
    figure: `worst ${worst.toFixed(1)} ms of ${detaches.length} (${detaches.map((d) => d.toFixed(0)).join(', ')} ms) to the details screen`,
    budget: `≤ ${BUDGETS.detachMs} ms`,
    over: worst <= BUDGETS.detachMs ? undefined : `worst ${worst.toFixed(1)} ms > ${BUDGETS.detachMs} ms`,
  });
  stage = 'cleanup';
}

/** The 1-minute load average beside the number of cores: budgets assume a machine not busy with other work. */
function load(): string {
  return `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
}

/** The first line of an error: timeouts carry the whole screen after it, which goes to stderr. */
function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n', 1)[0]!;
}

// Anything thrown outside the awaited flow (a pty's socket error, a stray rejection) is charged to the stage it happened in.
process.on('uncaughtException', (e) => {
  fail(stage, `uncaught error: ${firstLine(e)}`);
  console.error(e);
});
process.on('unhandledRejection', (e) => {
  fail(stage, `unhandled rejection: ${firstLine(e)}`);
  console.error(e);
});

try {
  await main();
} catch (e) {
  fail(stage, `did not finish: ${firstLine(e)}`);
  console.error(e instanceof Error ? e.message : e);
} finally {
  stage = 'cleanup';
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch (e) {
      console.error(`cleanup: ${firstLine(e)}`); // best effort: not a measurement, not a failure
    }
  }
  for (const d of dirs) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch (e) {
      console.error(`cleanup: ${firstLine(e)}`);
    }
  }
}
console.log(failures.length === 0 ? 'all four within budget' : `${failures.length} failed: ${failures.join('; ')} (${load()} at the end)`);
