/**
 * Rows 6 and 7: recording must not slow attach. `attach NAME` (the command that takes
 * `--record`) floods and echoes with the recorder on and off, in rounds that alternate the two
 * so both see the same machine; the medians are compared. The recorder writes to the bench's
 * temporary folder. Self-contained: run.ts hands in what it set up and prints the lines.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CLI, PtyScreen, ROOT, type SandboxProcess } from '../test/e2e/harness.js';
import { PROMPT_LINE, promptOnClearScreen } from './prompt.js';
import { interleavedEchoes, screenTypist } from './echo.js';

/** Recording on, against off: at least this share of the throughput, at most this much more echo time. */
export const RECORDING_BUDGET = { throughputShare: 0.9, echoRatio: 1.1, echoNoiseMs: 0.1 };

export interface RecordingSetup {
  sb: SandboxProcess;
  dir: string;
  shellEnv: Record<string, string>;
  /** The flood file, its size, and its last line. */
  file: string;
  mb: number;
  lastLine: string;
  rounds: number;
  echoSamples: number;
  keyGapMs: number;
  cols: number;
  rows: number;
}

export interface RecordingLine {
  name: string;
  figure: string;
  budget: string;
  ok: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');

/**
 * A fresh `attach NAME` (`runner` unless told; recording to a new file when `record`), at its
 * prompt on a clear screen.
 */
async function attachName(s: RecordingSetup, record: boolean, intern = 'runner'): Promise<{ a: PtyScreen; cast: string | undefined; home: string }> {
  const m = s.sb.manifest;
  const home = mkdtempSync(join(s.dir, 'record-home-'));
  const cast = record ? join(home, 'bench.cast') : undefined;
  const a = new PtyScreen(process.execPath, [CLI, 'attach', intern, ...(cast ? ['--record', cast] : [])], {
    cols: s.cols,
    rows: s.rows,
    cwd: ROOT,
    env: { ...s.shellEnv, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), OPENROUTER_BASE_URL: m.base_url, OPENROUTER_API_KEY: m.credentials.api_key!, OPENROUTER_OAUTH_TOKEN: m.credentials.oauth_token! },
  });
  a.keepOutput = false;
  await a.whenParsed(() => a.term.buffer.active.type === 'alternate', 30_000, 'attach NAME to take the terminal');
  // A prompt (a fresh shell's, or the last row's); else something still runs there: ctrl+c. Not
  // at once: one that reached a shell still starting ended it, and text typed just after one is
  // thrown away by the line discipline.
  const atPrompt = () => /^[$#]/.test(a.cursorLine());
  const prompt = await a.whenParsed(atPrompt, 5_000, 'a prompt').then(() => true, () => false);
  if (!prompt) {
    a.write('\x03');
    await a.whenParsed(atPrompt, 30_000, 'the prompt in attach NAME after ctrl+c');
  }
  // The bench's prompt, on a screen without the flood's last line (prompt.ts).
  await promptOnClearScreen(a, s.lastLine);
  return { a, cast, home };
}

/** Ends the attach with ctrl+] and waits for it to exit (the recorder's last batch written); the recording's size in MB. */
async function detach(a: PtyScreen, home: string, cast?: string): Promise<number> {
  a.write('\x1d');
  await a.waitForExit(30_000);
  await a.close();
  const size = cast ? sizeMb(cast) : 0;
  rmSync(home, { recursive: true, force: true });
  return size;
}

/** One flood through attach NAME, watched in the raw bytes as row 5 does; MB/s, and the recording's size. */
async function flood(s: RecordingSetup, record: boolean): Promise<{ rate: number; castMb: number }> {
  const { a, cast, home } = await attachName(s, record);
  const seen = new Promise<void>((resolve) => {
    let tail = '';
    a.onRaw = (d) => {
      const text = tail + d;
      if (!text.includes(s.lastLine)) return void (tail = text.slice(-s.lastLine.length));
      a.onRaw = undefined;
      resolve();
    };
  });
  a.parse = false;
  a.write(`cat ${s.file}\r`);
  const start = performance.now();
  await seen;
  const rate = s.mb / ((performance.now() - start) / 1000);
  a.parse = true;
  const castMb = await detach(a, home, cast);
  return { rate, castMb };
}

function sizeMb(path: string): number {
  try {
    return statSync(path).size / (1024 * 1024);
  } catch {
    return 0;
  }
}

/**
 * Echo times through attach NAME with the recorder off and on, sorted: the two processes attached
 * at once, each to a terminal of its own (off to `runner-jpeg`, on to `runner`, so that neither
 * sees the other's echoes and the recorder has nothing to do while the other types), taking turns
 * a line at a time (bench/echo.ts).
 */
async function echoes(s: RecordingSetup): Promise<{ off: number[]; on: number[] }> {
  const off = await attachName(s, false, 'runner-jpeg');
  const on = await attachName(s, true);
  const [offTimes, onTimes] = await interleavedEchoes([screenTypist(off.a, PROMPT_LINE), screenTypist(on.a, PROMPT_LINE)], s.echoSamples, s.keyGapMs);
  await detach(off.a, off.home);
  await detach(on.a, on.home);
  return { off: offTimes, on: onTimes };
}

/** Measures rows 6 and 7, handing each line to `report` as soon as it is measured. */
export async function recordingRows(s: RecordingSetup, report: (line: RecordingLine) => void): Promise<void> {
  const off: number[] = [];
  const on: number[] = [];
  const castSizes: number[] = [];
  for (let round = 0; round < s.rounds; round++) {
    off.push((await flood(s, false)).rate);
    const r = await flood(s, true);
    on.push(r.rate);
    castSizes.push(r.castMb);
  }
  const [offRate, onRate] = [median(off), median(on)];
  const throughput: RecordingLine = {
    name: '6. throughput, recording',
    figure: `attach NAME --record ${onRate.toFixed(1)} MB/s · without ${offRate.toFixed(1)} MB/s · ×${(onRate / offRate).toFixed(2)} (medians of ${s.rounds} rounds: on ${list(on)}; off ${list(off)}; recordings ${list(castSizes)} MB)`,
    budget: `≥ ×${RECORDING_BUDGET.throughputShare} of recording off`,
    ok: onRate >= offRate * RECORDING_BUDGET.throughputShare,
  };
  report(throughput);
  const { off: echoOff, on: echoOn } = await echoes(s);
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(2);
  const within = (q: number) => percentile(echoOn, q) <= Math.max(percentile(echoOff, q) * RECORDING_BUDGET.echoRatio, percentile(echoOff, q) + RECORDING_BUDGET.echoNoiseMs);
  const echo: RecordingLine = {
    name: '7. keystroke echo, recording',
    figure: `attach NAME --record p50 ${p(echoOn, 50)} ms p99 ${p(echoOn, 99)} ms · without p50 ${p(echoOff, 50)} ms p99 ${p(echoOff, 99)} ms`,
    budget: `p50 and p99 ≤ ×${RECORDING_BUDGET.echoRatio} of recording off, or + ${RECORDING_BUDGET.echoNoiseMs} ms (${s.echoSamples} samples each, the two taking turns a line at a time)`,
    ok: within(50) && within(99),
  };
  report(echo);
}
