/**
 * `npm run bench`: every row of issue 12, each against a reference measured in
 * the same run (plain Node start, a bundled Ink hello, tmux, the emulator
 * alone), with its budget as a ratio. Each line prints the figure and its
 * budget. A measurement over its budget, or one that could not finish, prints
 * `FAILED <measurement>: <why>` and the run exits 1: a status of 1 always
 * comes with such a line.
 *
 * Setup: a sandbox process (the built CLI, empty seed, /bin/sh behind the
 * daemon), the built TUI in a real pseudo-terminal whose screen is read by
 * @xterm/headless, and a tmux server of its own (`-L`), so nothing here
 * touches the user's tmux. Before the attach rows, six floods through another
 * intern's terminal bring the sandbox (the service) to its steady state
 * (see warmService); every intern-tui process measured is started cold. The
 * throughput rows are medians of rounds that alternate tmux (detached, then
 * with a client attached whose screen is read as intern-tui's is), the
 * service to a bare client that only acknowledges (the references judged:
 * the service's rate and tmux attached) and a fresh intern-tui process; the
 * pty's own ceiling (`script`) is printed beside. Row 2 is judged against the
 * service alone's echo (the same bare client).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FLOW } from '../src/attach/protocol.js';
import { WebSocketTransport } from '../src/attach/transport.js';
import { createClient } from '../src/client/index.js';
import { CLI, PtyScreen, ROOT, type SandboxProcess, Tui, openIntern, poll, startSandboxProcess } from '../test/e2e/harness.js';
import { CHAT_KEYS, type ChatRow } from './chat.js';
import { writeFlood } from './flood.js';
import { common, production, requireBanner, tui } from '../scripts/bundling.mjs';
import { bulkRows } from './bulk.js';
import { recordingRows } from './recording.js';
import { PROMPT_LINE, promptOnClearScreen, setPromptCommand } from './prompt.js';
import { interleavedEchoes, screenTypist, type Typist } from './echo.js';

const COLS = 100;
const ROWS = 30;
const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 50);
const ECHO_SAMPLES = Number(process.env.BENCH_ECHO_SAMPLES ?? 1000);
const SCROLLBACK = 10_000;
const KEY_GAP_MS = 25;
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
/** Rows 1 and 5: rounds of a tmux flood then a fresh intern-tui process's, the medians compared. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `start`: only the start-up rows (a-d); `record`: only the recording rows; `chat`: only the chat row; `bulk`: only the bulk actions (bench/bulk.ts); for quick runs while working on them. */
const ONLY = process.env.BENCH_ONLY;

/** Issues 12's and 44's goals, each against its reference in the same run. */
export const BUDGETS = {
  versionRatio: 1.5, // --version and --help ÷ plain node start, at most
  listRatio: 1.5, // TUI to the list (running service) ÷ bundled Ink hello, at most
  sandboxListRatio: 2, // TUI to the list on the embedded sandbox ÷ Ink hello, at most
  throughputVsService: 0.9, // ÷ the service's own rate to a bare client in the same rounds, at least
  throughputVsTmux: 1, // ÷ tmux attached, at least
  echoP50Ms: 2, // at most
  echoP99OverServiceMs: 1.5, // at most the service alone's p99 (the bare client's) + this
  rssOverEmulatorMb: 30, // at most the emulator alone + this
  detachMs: 50, // at most
  chatLongRatio: 2, // chat keystroke with a 100,000-line transcript ÷ an empty chat, median and p99, at most
};

interface Line {
  name: string;
  figure: string;
  budget: string;
  /** Why the figure misses its budget (a sentence), or undefined when it is within; a line gives this or `ok`. */
  over?: string;
  /** Whether the figure met its budget (a miss then quotes the figure and the budget). */
  ok?: boolean;
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
  const missed = line.over !== undefined || line.ok === false;
  console.log(`${line.name.padEnd(26)} ${line.figure.padEnd(48)} budget: ${line.budget}${missed ? ' · over budget' : ''}`);
  if (line.over !== undefined) fail(line.name, `over budget: ${line.over}`);
  else if (line.ok === false) fail(line.name, `over budget: ${line.figure} (budget ${line.budget})`);
}

const dirs: string[] = [];
const cleanups: (() => void | Promise<void>)[] = [];

/** The bench's own tmux server (`-L`): the user's is never touched. */
const TMUX_SERVER = `intern-tui-bench-${process.pid}`;
function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', TMUX_SERVER, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * One flood in the tmux pane, from a cleared screen: seconds until `capture-pane` shows the last
 * line, once the shell has said `cat` is done.
 */
async function tmuxFlood(file: string, lastLine: string): Promise<number> {
  // ctrl+u first: whatever is typed on the line goes (the line discipline erases it).
  tmux('send-keys', '-t', 'bench', 'C-u', 'clear', 'Enter');
  // Cleared once the pane shows the prompt alone: `clear` has run, and none of its time is counted.
  await tmuxPane((pane) => pane.trim() === '$', 'the tmux pane to clear');
  const start = performance.now();
  tmux('send-keys', '-t', 'bench', `cat ${file}; tmux -L ${TMUX_SERVER} wait-for -S flood-done`, 'Enter');
  tmux('wait-for', 'flood-done');
  await tmuxPane((pane) => pane.includes(lastLine), 'the last line of the flood in tmux');
  return (performance.now() - start) / 1000;
}

/**
 * One flood in the tmux pane with a client attached in a pty whose screen is parsed here, as
 * intern-tui's is: seconds until that screen shows the last line. This is tmux doing the job rows 1
 * and 5 time intern-tui at, putting the pane on a terminal; detached (tmuxFlood), its server keeps
 * the pane's grid and draws it nowhere. The client has a status line, as intern-tui's attach
 * screen has, so the pane is a row shorter than the terminal, as intern-tui's remote is.
 */
async function tmuxAttachedFlood(file: string, lastLine: string, dir: string, env: Record<string, string>): Promise<number> {
  const client = tmuxClient(dir, env);
  try {
    tmux('send-keys', '-t', 'bench', 'C-u', 'clear', 'Enter');
    await client.whenParsed(() => client.cursorLine() === '$' && !client.screen().includes(lastLine), 10_000, 'the tmux client to show the pane cleared');
    const start = performance.now();
    tmux('send-keys', '-t', 'bench', `cat ${file}`, 'Enter');
    await client.whenParsed(() => client.screen().includes(lastLine), 600_000, 'the last line of the flood in the tmux client');
    return (performance.now() - start) / 1000;
  } finally {
    await client.close();
  }
}

/** A tmux client attached to the bench's pane, in a pty of the bench's size, its output not kept. */
function tmuxClient(dir: string, env: Record<string, string>): PtyScreen {
  const client = new PtyScreen('tmux', ['-L', TMUX_SERVER, 'attach', '-t', 'bench'], { cols: COLS, rows: ROWS, cwd: dir, env });
  client.keepOutput = false;
  return client;
}

/** Polls tmux's pane until `ok`, every 5 ms (its figure is timed by it); after 60 s, fails with what the pane shows. */
async function tmuxPane(ok: (pane: string) => boolean, what: string): Promise<void> {
  const pane = () => tmux('capture-pane', '-p', '-t', 'bench');
  await poll(pane, ok, 60_000, () => `${what}:\n${pane()}`, 5);
}

/**
 * The pseudo-terminal's own ceiling: util-linux `script` (C, no emulator, output to /dev/null)
 * draining the flood through a pty of its own; the median of PTY_FLOOR_RUNS, in MB/s, or
 * undefined where `script` is missing. Not a row: what no path through a pty can pass on this
 * machine, printed beside tmux so a budget set as a ratio to tmux can be read against it.
 */
const PTY_FLOOR_RUNS = 3;
function ptyFloor(file: string, mb: number): number | undefined {
  const rates: number[] = [];
  for (let i = 0; i < PTY_FLOOR_RUNS; i++) {
    const start = performance.now();
    try {
      execFileSync('script', ['-q', '-c', `cat '${file}'`, '/dev/null'], { stdio: 'ignore' });
    } catch {
      return undefined;
    }
    rates.push(mb / ((performance.now() - start) / 1000));
  }
  return median(rates);
}

/**
 * Starts a process's peak resident set (VmHWM) over from what it holds now (Linux's clear_refs),
 * so that the peak read after a flood is the flood's, not the attach's before it. Where it cannot,
 * the peak stays the process's.
 */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the process's peak.
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

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

/** Milliseconds from spawning `args` in a pty until its screen satisfies `ok`. */
async function startTime(file: string, args: string[], ok: (s: PtyScreen) => boolean, env: Record<string, string> = {}): Promise<number> {
  const start = performance.now();
  const s = new PtyScreen(file, args, { cols: COLS, rows: ROWS, cwd: ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env } });
  try {
    await s.whenParsed(() => ok(s), 30_000, `${args.join(' ')} on screen`);
    return performance.now() - start;
  } finally {
    // Its exit (the TUI closes its sandbox, terminals and files) must not overlap the next start.
    await s.close();
    await s.waitForExit(10_000);
  }
}

/**
 * The medians of STARTS starts of each program, taken in turns (one of each, then again), so a
 * figure and its reference see the same machine: this shared machine's speed drifts over minutes.
 */
async function startTimes<K extends string>(programs: Record<K, () => Promise<number>>, starts = STARTS): Promise<Record<K, number>> {
  const times = Object.fromEntries(Object.keys(programs).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < starts; i++) for (const k of Object.keys(programs) as K[]) times[k].push(await programs[k]());
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs as number[])])) as Record<K, number>;
}

/** The TUI (built) until its intern list shows a selected row. */
async function tuiStartTime(home: string, env: Record<string, string>): Promise<number> {
  const base = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), SHELL: '/bin/sh' };
  return startTime(process.execPath, [CLI], (s) => /^›/m.test(s.screen()), { ...base, ...env });
}

/** Bundles bench/ink-hello.mjs the way scripts/build.mjs bundles the CLI. */
async function inkHello(dir: string): Promise<string> {
  const outfile = join(dir, 'ink-hello.js');
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['bench/ink-hello.mjs'],
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // React's production builds, as the TUI's bundle has them.
    define: production,
    alias: { 'react-devtools-core': './scripts/react-devtools-stub.mjs' },
    banner: requireBanner,
    logLevel: 'warning',
  });
  return outfile;
}

const ratio = (a: number, b: number) => `×${(a / b).toFixed(2)}`;

async function startups(dir: string, sb: SandboxProcess): Promise<void> {
  const helloFile = await inkHello(dir);
  const home = mkdtempSync(join(dir, 'home-'));
  const m = sb.manifest;
  const service = {
    OPENROUTER_BASE_URL: m.base_url,
    OPENROUTER_API_KEY: m.credentials.api_key!,
    OPENROUTER_MANAGEMENT_KEY: m.credentials.management_key!,
    OPENROUTER_OAUTH_TOKEN: m.credentials.oauth_token!,
  };
  // The three quick ones (about 50 ms each, where a few ms of jitter move the ratio by 0.1) three times as often.
  const { node, version, help } = await startTimes(
    {
      node: () => startTime(process.execPath, ['-e', "process.stdout.write('intern-tui 0.0.0\\n')"], (s) => s.screen().includes('intern-tui 0.0.0')),
      version: () => startTime(process.execPath, [CLI, '--version'], (s) => /intern-tui \d/.test(s.screen())),
      help: () => startTime(process.execPath, [CLI, '--help'], (s) => s.screen().includes('130  interrupted')),
    },
    STARTS * 3,
  );
  const { hello, list, embedded } = await startTimes({
    hello: () => startTime(process.execPath, [helloFile], (s) => s.screen().includes('hello from ink')),
    list: () => tuiStartTime(home, service),
    embedded: () => tuiStartTime(home, {}),
  });
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  report({
    name: 'a. --version',
    figure: `${ms(version)} · node -e write ${ms(node)} · ${ratio(version, node)}`,
    budget: `≤ ×${BUDGETS.versionRatio} of node (median of ${STARTS * 3}; the TUI rows of ${STARTS})`,
    ok: version / node <= BUDGETS.versionRatio,
  });
  report({
    name: 'b. --help',
    figure: `${ms(help)} · node -e write ${ms(node)} · ${ratio(help, node)}`,
    budget: `≤ ×${BUDGETS.versionRatio} of node`,
    ok: help / node <= BUDGETS.versionRatio,
  });
  report({
    name: 'c. TUI to the list',
    figure: `${ms(list)} · Ink hello ${ms(hello)} · ${ratio(list, hello)}`,
    budget: `≤ ×${BUDGETS.listRatio} of Ink hello (service running)`,
    ok: list / hello <= BUDGETS.listRatio,
  });
  report({
    name: 'd. TUI to the list, sandbox',
    figure: `${ms(embedded)} · Ink hello ${ms(hello)} · ${ratio(embedded, hello)}`,
    budget: `≤ ×${BUDGETS.sandboxListRatio} of Ink hello (embedded sandbox)`,
    ok: embedded / hello <= BUDGETS.sandboxListRatio,
  });
}

/** @xterm/headless alone on the flood file, in a process of its own. */
function emulatorAlone(file: string): { mbps: number; rssMb: number } {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'emulator.mjs'), file, String(COLS), String(ROWS - 1), String(SCROLLBACK)], { encoding: 'utf8', cwd: ROOT });
  return JSON.parse(out) as { mbps: number; rssMb: number };
}

/** Floods through the service before row 1 (see warmService). */
const WARM_FLOODS = Number(process.env.BENCH_WARM_FLOODS ?? 6);
if (!Number.isInteger(WARM_FLOODS) || WARM_FLOODS < 0) throw new Error('BENCH_WARM_FLOODS must be a whole number, 0 or more');

/**
 * The bare client, kept after the warm-up: `flood()` times one more flood through it (from a
 * cleared line), the service's own rate in a round of rows 1 and 5, their reference; `typist`
 * types at `plain`'s prompt and hears each echo come back, the service's own echo, row 2's
 * reference (issue 44). Row 2's path is this and intern-tui's own hop (the user's pty in and out,
 * the parse and the draw); tmux's has no service in it.
 */
interface BareClient {
  rates: number[];
  flood: () => Promise<number>;
  typist: Typist;
}

/**
 * The service in its steady state before row 1, as a real one (long running) is: the sandbox
 * process was started for this run, and its first floods run its daemon's code before V8 has
 * optimized it. WARM_FLOODS floods go through the terminal of another intern (`plain`), with a
 * client that acknowledges as intern-tui does (every FLOW.ackEveryBytes) but has no emulator and
 * no screen. A do-nothing client's rate rose over five or six floods (47.7, 50.9, 55.5, 56.5,
 * 63.1, 57.1 MB/s), and intern-tui's own with it (bench/README.md, eleventh pass): with one flood
 * of warm-up, row 1 timed the fixture still warming. Each rate is printed beside the rows, the
 * first as the fixture's ceiling cold and the last as its ceiling warm; neither is a row. The TUI
 * measured after them is still a fresh process, cold; `runner`'s terminal and replay buffer are
 * untouched.
 */
async function warmService(sb: SandboxProcess, file: string, mb: number, lastLine: string): Promise<BareClient> {
  const m = sb.manifest;
  const api = createClient({ baseUrl: m.base_url, credentials: { api_key: m.credentials.api_key, oauth_token: m.credentials.oauth_token } });
  const plain = (await api.listInterns({ limit: 100 })).data.find((i) => i.name === 'plain');
  if (!plain) throw new Error('the sandbox has no `plain` intern to warm its daemon with');
  let tail = '';
  let received = 0;
  let acked = 0;
  let seen: (() => void) | undefined;
  /** Called with the output's last bytes, each time output comes. */
  let heard: ((text: string) => void) | undefined;
  const transport: WebSocketTransport = new WebSocketTransport({
    access: () => api.getDaemonAccess(plain.id),
    cols: COLS,
    rows: ROWS - 1,
    handlers: {
      output: (data, offset) => {
        received = offset + data.length;
        if (received - acked >= FLOW.ackEveryBytes) transport.ack((acked = received));
        const text = tail + data.toString('latin1');
        if (seen && text.includes(`${lastLine}\r`)) seen();
        tail = text.slice(-lastLine.length - 1);
        heard?.(text);
      },
      state: (state) => {
        if (state === 'open') opened?.();
      },
      gap: () => {},
      exit: () => {},
    },
  });
  let opened: (() => void) | undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  cleanups.push(() => transport.close());
  transport.connect();
  await open;
  /** One flood through the bare client: its rate in MB/s. */
  const flood = async (): Promise<number> => {
    // Only output after this flood's command counts: the last flood's last line is still the tail.
    tail = '';
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out after 600000 ms waiting for a warm-up flood')), 600_000);
      seen = () => {
        seen = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
    // ctrl+u first: the echo samples may have left letters on the line.
    transport.send(`\x15cat ${file}\n`);
    const start = performance.now();
    await done;
    const rate = mb / ((performance.now() - start) / 1000);
    transport.ack((acked = received));
    return rate;
  };
  const rates: number[] = [];
  while (rates.length < WARM_FLOODS) rates.push(await flood());
  /** Resolves once the output's end passes `ok`. */
  const hear = (ok: (text: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after 5000 ms waiting for ${what} from the bare client`)), 5_000);
      heard = (text) => {
        if (!ok(text)) return;
        heard = undefined;
        clearTimeout(timer);
        resolve();
      };
      heard(tail);
    });
  const typist: Typist = {
    // The prompt after the last flood (the shell's own: `$ `, or `# ` as root), an empty line.
    ready: () => hear((text) => /[$#] $/.test(text), 'the prompt after the floods'),
    key: (ch) => {
      tail = '';
      const back = hear((text) => text.endsWith(ch), `the echo of ${ch}`);
      transport.send(ch);
      return back;
    },
    clear: () => {
      tail = '';
      transport.send('\x15'); // ctrl+u: the line discipline erases the line (echoing BS SP BS a character)
      return hear((text) => text.endsWith('\b \b') || text.endsWith('\n'), 'the line to clear');
    },
  };
  // Open until the run ends (cleanups): rows 1 and 5 flood through it once a round, row 2 types through it.
  return { rates, flood, typist };
}

/**
 * bench/echoClient.ts on `runner-jpeg`, in a pty of its own, at the bench's prompt on a clear
 * screen: row 2's paths through a client that does nothing with what it passes on (printed
 * beside, not judged).
 */
async function doNothingClient(sb: SandboxProcess, dir: string, shellEnv: Record<string, string>): Promise<PtyScreen> {
  const m = sb.manifest;
  const c = new PtyScreen(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'echoClient.ts'), 'runner-jpeg'], {
    cols: COLS,
    rows: ROWS,
    cwd: ROOT,
    env: { ...shellEnv, OPENROUTER_BASE_URL: m.base_url, OPENROUTER_API_KEY: m.credentials.api_key!, OPENROUTER_OAUTH_TOKEN: m.credentials.oauth_token! },
  });
  c.keepOutput = false;
  cleanups.push(() => c.close());
  await c.whenParsed(() => /^[$#]/.test(c.cursorLine()), 30_000, "the do-nothing client's shell prompt");
  await promptOnClearScreen(c);
  return c;
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

/** Row 5: a fresh `attach NAME` on `runner`, one flood from a clear screen; its rate in MB/s. */
async function attachNameFlood(sb: SandboxProcess, dir: string, shellEnv: Record<string, string>, file: string, mb: number, lastLine: string): Promise<number> {
  const m = sb.manifest;
  const home = mkdtempSync(join(dir, 'attach-home-'));
  const a = new PtyScreen(process.execPath, [CLI, 'attach', 'runner'], {
    cols: COLS,
    rows: ROWS,
    cwd: ROOT,
    env: {
      ...shellEnv,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      OPENROUTER_BASE_URL: m.base_url,
      OPENROUTER_API_KEY: m.credentials.api_key!,
      OPENROUTER_OAUTH_TOKEN: m.credentials.oauth_token!,
    },
  });
  a.keepOutput = false;
  cleanups.push(() => a.close());
  // Only once it has entered the alternate screen is the terminal in raw mode: a ctrl+c sent
  // before that is the pty's SIGINT to attach NAME itself, which then dies with "^C" on screen.
  await a.whenParsed(() => a.term.buffer.active.type === 'alternate', 30_000, 'attach NAME to take the terminal');
  a.write('\x03');
  await a.whenParsed(() => a.cursorLine().startsWith('$'), 30_000, 'the prompt in attach NAME');
  // The replayed history may end with the last flood line: clear it off first.
  a.write('clear\r');
  await a.whenParsed(() => !a.screen().includes(lastLine) && a.cursorLine() === '$', 30_000, 'a clear screen in attach NAME');
  // The bytes go straight to the terminal, whose parsing is the user's terminal's work, not
  // intern-tui's (tmux is read with capture-pane, which parses nothing here): watch the raw bytes
  // for the last line instead of parsing 50 MB in this process, which would time this reader.
  const seen = new Promise<void>((resolve, reject) => {
    let tail = '';
    const timer = setTimeout(() => reject(new Error('timed out after 600000 ms waiting for the last line through attach NAME')), 600_000);
    a.onRaw = (d) => {
      const text = tail + d;
      if (text.includes(lastLine)) {
        clearTimeout(timer);
        a.onRaw = undefined;
        resolve();
      } else tail = text.slice(-lastLine.length);
    };
  });
  a.parse = false;
  a.write(`cat ${file}\r`);
  const start = performance.now();
  await seen;
  const rate = mb / ((performance.now() - start) / 1000);
  await a.close();
  return rate;
}

/** Rows 1 and 5's references, a rate in MB/s per round. */
interface TmuxRates {
  /** The service to the bare client (no emulator, no screen): judged against, as is `attached`. */
  service: number[];
  /** A client attached, its screen parsed here: judged against (at least its rate). */
  attached: number[];
  /** The server alone, read with capture-pane: printed beside, not judged. */
  detached: number[];
}

/** A round's references: tmux detached, then attached, then the service to the bare client. */
async function tmuxRound(into: TmuxRates, bare: BareClient, file: string, mb: number, lastLine: string, dir: string, env: Record<string, string>): Promise<void> {
  into.detached.push(mb / (await tmuxFlood(file, lastLine)));
  into.attached.push(mb / (await tmuxAttachedFlood(file, lastLine, dir, env)));
  into.service.push(await bare.flood());
}

const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');

/**
 * Rows 1 and 5: the medians of the rounds, judged against the service's own rate to the bare
 * client in the same rounds (what no client of this service can beat) and against tmux attached,
 * the job intern-tui does (its screen on a terminal, read the same way). tmux detached and the
 * emulator alone are printed beside, not judged (issue 44: a ratio to tmux measured the machine's
 * ptys, not the client).
 */
function throughputLine(name: string, who: string, rates: number[], refs: TmuxRates, emulator: number): Line {
  const rate = median(rates);
  const service = median(refs.service);
  const attached = median(refs.attached);
  const detached = median(refs.detached);
  return {
    name,
    figure: `${who} ${rate.toFixed(1)} MB/s · the service to a bare client ${service.toFixed(1)} MB/s ${ratio(rate, service)} · tmux attached ${attached.toFixed(1)} MB/s ${ratio(rate, attached)} · emulator ${emulator.toFixed(1)} MB/s ${ratio(rate, emulator)} · tmux detached ${detached.toFixed(1)} MB/s ${ratio(rate, detached)} (medians of ${rates.length} rounds: ${who} ${list(rates)}; the service ${list(refs.service)}; tmux attached ${list(refs.attached)}, detached ${list(refs.detached)})`,
    budget: `≥ ×${BUDGETS.throughputVsService} of the service to a bare client and ≥ ×${BUDGETS.throughputVsTmux} of tmux attached`,
    ok: rate / service >= BUDGETS.throughputVsService && rate / attached >= BUDGETS.throughputVsTmux,
  };
}

async function main(): Promise<void> {
  console.log(`intern-tui bench · node ${process.version} · ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · ${load()}`);
  if (ONLY === 'chat') return chatRow();
  if (ONLY === 'bulk') {
    // Issue 41: bulk actions on 200 interns (bench/bulk.ts): every row done, no 5xx.
    if (!(await bulkRows())) fail('bulk', 'a row failed or a 5xx came (see the lines above)');
    return;
  }
  if (!hasTmux()) {
    fail('setup', 'tmux is not installed: the comparisons cannot be measured');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'intern-tui-bench-'));
  dirs.push(dir);
  const sb = await startSandboxProcess();
  cleanups.push(() => sb.stop());
  if (ONLY !== 'attach' && ONLY !== 'record') await startups(dir, sb);
  if (ONLY === 'start') return;
  if (ONLY !== 'attach' && ONLY !== 'record') await chatRow();

  const file = join(dir, 'flood.txt');
  const { bytes, lines, lastLine } = writeFlood(file, FLOOD_MB * 1024 * 1024);
  const mb = bytes / (1024 * 1024);
  console.log(`flood: ${mb.toFixed(1)} MB of mixed ANSI text, ${COLS}x${ROWS} screens, scrollback ${SCROLLBACK}`);
  const shellEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: '$ ', ENV: '' };
  // Rows 6 and 7 (bench/recording.ts): attach NAME with the recorder on against off.
  const recording = async () => {
    stage = '6-7. recording';
    await recordingRows({ sb, dir, shellEnv, file, mb, lastLine, rounds: ROUNDS, echoSamples: ECHO_SAMPLES, keyGapMs: KEY_GAP_MS, cols: COLS, rows: ROWS }, report);
  };
  if (ONLY === 'record') return recording();
  const emu = emulatorAlone(file);

  // tmux: a pane of its own server, flooded detached (the pane read with capture-pane once the
  // shell says cat is done) and attached (a client's screen parsed here, as intern-tui's is).
  tmux('new-session', '-d', '-s', 'bench', '-x', String(COLS), '-y', String(ROWS), 'env', 'PS1=$ ', '/bin/sh');
  cleanups.push(() => void tmux('kill-server'));
  stage = '1. throughput';
  // The first tmux flood is not timed: tmux's grid and history, like intern-tui's sandbox, are
  // then in the state every later flood finds them in.
  await tmuxFlood(file, lastLine);
  const floor = ptyFloor(file, mb);
  const bare = await warmService(sb, file, mb, lastLine);
  const warmUp = bare.rates;
  console.log(`service warm-up: ${warmUp.length} floods through a client that only acknowledges: ${warmUp.map((r) => r.toFixed(1)).join(', ')} MB/s (the rows below run on it warm)`);

  // Rounds: tmux detached and attached, then a fresh intern-tui attached, the same cat, until its
  // screen shows the last line. The last round's TUI stays for rows 2 and 4.
  const tmuxRates: TmuxRates = { service: [], attached: [], detached: [] };
  const tuiRates: number[] = [];
  const rssPeaks: number[] = [];
  let current: Tui | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    await tmuxRound(tmuxRates, bare, file, mb, lastLine, dir, shellEnv);
    await current?.close();
    const tui = await attached(sb);
    current = tui;
    tui.keepOutput = false;
    // A fresh attach replays the end of the last round's flood: a clean screen first.
    tui.write('clear\r');
    await tui.whenParsed(() => !tui.screen().includes(lastLine) && tui.cursorLine() === PROMPT_LINE, 10_000, 'a cleared screen');
    // The peak from the flood's start (the attach before it is not the flood's); where it cannot be
    // started over, the process's peak, which for the first round is the flood's all the same.
    resetPeakRss(tui.pid);
    tui.write(`cat ${file}\r`);
    const tuiStart = performance.now();
    await tui.whenParsed(() => tui.screen().includes(lastLine), 600_000, 'the last line of the flood');
    tuiRates.push(mb / ((performance.now() - tuiStart) / 1000));
    rssPeaks.push(peakRssMb(tui.pid));
  }
  if (!current) throw new Error('BENCH_ROUNDS must be at least 1');
  const t = current;
  // Row 3 is the first round's: later rounds' TUIs attach to a terminal whose replay holds the last
  // flood's end, and start their floods holding what parsing it left (printed beside, not judged).
  const rss = rssPeaks[0]!;
  const [tmuxAttached, tmuxDetached] = [median(tmuxRates.attached), median(tmuxRates.detached)];
  console.log(floor === undefined ? 'pty floor: not measured (util-linux `script` is not installed)' : `pty floor: \`script\` draining the same flood through a pty, no emulator: ${floor.toFixed(1)} MB/s, ${ratio(floor, tmuxAttached)} of tmux attached, ${ratio(floor, tmuxDetached)} detached`);
  report(throughputLine('1. throughput', 'intern-tui', tuiRates, tmuxRates, emu.mbps));

  // Echo latency: the same attached session, the service alone (the bare client, at `plain`'s
  // prompt), a client that does nothing in a pty of its own (at `runner-jpeg`'s) and a tmux client
  // in a pty, taking turns a line at a time (bench/echo.ts).
  stage = '2. keystroke echo';
  await t.whenParsed(() => t.cursorLine().startsWith('$'), 10_000, 'the prompt after the flood');
  const idle = await doNothingClient(sb, dir, shellEnv);
  const client = tmuxClient(dir, shellEnv);
  cleanups.push(() => client.close());
  tmux('send-keys', '-t', 'bench', 'clear', 'Enter');
  await client.whenParsed(() => client.cursorLine() === '$', 10_000, 'the tmux prompt');
  const [tuiEcho, serviceEcho, idleEcho, tmuxEcho] = await interleavedEchoes([screenTypist(t, PROMPT_LINE), bare.typist, screenTypist(idle, PROMPT_LINE), screenTypist(client, '$')], ECHO_SAMPLES, KEY_GAP_MS);
  // Detached again: row 5's rounds attach a client of their own to each attached flood.
  await client.close();
  await idle.close();
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(2);
  report({
    name: '2. keystroke echo',
    figure: `intern-tui p50 ${p(tuiEcho, 50)} ms p99 ${p(tuiEcho, 99)} ms · tmux p50 ${p(tmuxEcho, 50)} ms p99 ${p(tmuxEcho, 99)} ms · the service alone (a bare client, no TUI) p50 ${p(serviceEcho, 50)} ms p99 ${p(serviceEcho, 99)} ms · a client that does nothing, in a pty p50 ${p(idleEcho, 50)} ms p99 ${p(idleEcho, 99)} ms`,
    budget: `p50 ≤ ${BUDGETS.echoP50Ms} ms, p99 ≤ the service alone's p99 + ${BUDGETS.echoP99OverServiceMs} ms (${ECHO_SAMPLES} samples each, keys ${KEY_GAP_MS} ms apart, the four taking turns a line at a time)`,
    ok: percentile(tuiEcho, 50) <= BUDGETS.echoP50Ms && percentile(tuiEcho, 99) <= percentile(serviceEcho, 99) + BUDGETS.echoP99OverServiceMs,
  });

  report({
    name: '3. peak RSS during 1',
    figure: `${rss.toFixed(1)} MB · emulator alone ${emu.rssMb.toFixed(1)} MB · +${(rss - emu.rssMb).toFixed(1)} MB${rssPeaks.length > 1 ? ` (later rounds, after the last flood's replay: ${list(rssPeaks.slice(1))} MB)` : ''}`,
    budget: `≤ emulator + ${BUDGETS.rssOverEmulatorMb} MB`,
    ok: rss <= emu.rssMb + BUDGETS.rssOverEmulatorMb,
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
  stage = '5. throughput, attach NAME';
  // 5. The same flood through `attach NAME` (passthrough, as tmux does), with the TUI closed first;
  // rounds as in row 1, each a fresh process.
  await t.close();
  const tmuxRates5: TmuxRates = { service: [], attached: [], detached: [] };
  const attachRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await tmuxRound(tmuxRates5, bare, file, mb, lastLine, dir, shellEnv);
    attachRates.push(await attachNameFlood(sb, dir, shellEnv, file, mb, lastLine));
  }
  report(throughputLine('5. throughput, attach NAME', 'attach NAME', attachRates, tmuxRates5, emu.mbps));
  await recording();
  stage = 'cleanup';
}

/**
 * 8. A key in the chat prompt with a long transcript against an empty chat (issue 39): the cost of
 * a key must follow the screen, not the transcript. bench/chat.ts, in a process of its own, from a
 * bundle made as the TUI's is (chatBundle), before the attach rows, so their sandbox and floods
 * are not running meanwhile.
 */
async function chatRow(): Promise<void> {
  stage = '8. chat keystroke';
  const bundle = await chatBundle();
  const row = JSON.parse(execFileSync(process.execPath, [bundle], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })) as ChatRow;
  const p = (xs: number[], q: number) => percentile(xs, q);
  const [e50, e99, l50, l99] = [p(row.empty, 50), p(row.empty, 99), p(row.long, 50), p(row.long, 99)];
  report({
    name: '8. chat keystroke',
    figure: `${row.lines.toLocaleString('en')} lines p50 ${l50.toFixed(2)} ms p99 ${l99.toFixed(2)} ms · empty p50 ${e50.toFixed(2)} ms p99 ${e99.toFixed(2)} ms (${ratio(l50, e50)}, ${ratio(l99, e99)}) · one screenful p50 ${p(row.screenful, 50).toFixed(2)} ms p99 ${p(row.screenful, 99).toFixed(2)} ms · transcript heap +${row.heapMb.toFixed(1)} MB, RSS ${row.rssMb.toFixed(0)} MB`,
    budget: `≤ ×${BUDGETS.chatLongRatio} of the empty chat, p50 and p99 (${CHAT_KEYS} keys each, the three chats taking turns)`,
    ok: l50 <= e50 * BUDGETS.chatLongRatio && l99 <= e99 * BUDGETS.chatLongRatio,
  });
}

/**
 * bench/chatMain.ts bundled with the TUI's options and plugins (scripts/bundling.mjs), so row 8
 * times the Ink users run (its text caches, string widths and tokenizer as the bundle replaces
 * them) and React's production build. Under node_modules/.cache, so that what it leaves external resolves.
 */
async function chatBundle(): Promise<string> {
  const outfile = join(ROOT, 'node_modules', '.cache', 'intern-tui-bench', 'chat.js');
  await build({
    ...common,
    ...tui,
    entryPoints: ['bench/chatMain.ts'],
    outfile,
    format: 'esm',
    metafile: false,
    sourcemap: false,
    define: production,
    banner: requireBanner,
  });
  return outfile;
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
console.log(failures.length === 0 ? 'every row within budget' : `${failures.length} failed: ${failures.join('; ')} (${load()} at the end)`);
