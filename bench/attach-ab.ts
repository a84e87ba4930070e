/**
 * Two or more builds' `attach NAME` (row 5), or with `--tui` their TUI's attach screen (row 1), in turns, on one sandbox: each DIR holds a build's
 * `bin/` and `dist/` (copied under node_modules/.cache/, so that their external packages
 * resolve). One untimed flood per build first, then rounds in which the builds take turns (the
 * order reversed every other round), each a fresh process flooding 50 MB from a clear screen,
 * timed as row 5 is (until the last line's bytes leave it) or, with `--tui`, as row 1 is (a fresh TUI
 * with `--scrollback 10000`, from the intern's details to the attach screen, timed until its parsed
 * screen shows the last line). Per build, the medians of the rate and
 * of the process's CPU time (user+sys, all its threads) over the flood: on a busy machine the
 * CPU time moves much less than the wall clock. `--node-args` passes flags to each attach's node
 * (`--cpu-prof --cpu-prof-dir=DIR`: it detaches with ctrl+], so the profile is written). Not a
 * budget: `npm run bench` judges those.
 *
 *   node --import tsx bench/attach-ab.ts DIR_A DIR_B [--rounds N] [--tui] [--node-args="FLAGS"]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PtyScreen, ROOT, openIntern, startSandboxProcess } from '../test/e2e/harness.js';
import { writeFlood } from './flood.js';

const { values, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '6' }, tui: { type: 'boolean', default: false }, 'node-args': { type: 'string', default: '' } },
});
if (dirs.length === 0) throw new Error('usage: bench/attach-ab.ts DIR... [--rounds N] [--tui] [--node-args="FLAGS"]');
const nodeArgs = values['node-args'].split(' ').filter(Boolean);

/** Seconds of CPU of the whole process (utime and stime, in USER_HZ: 100 on Linux). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const dir = mkdtempSync(join(tmpdir(), 'attach-ab-'));
const sb = await startSandboxProcess();
const file = join(dir, 'flood.txt');
const { bytes, lastLine } = writeFlood(file, 50 * 1024 * 1024);
const mb = bytes / 2 ** 20;
const shellEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: '$ ', ENV: '' };

/** One fresh `attach runner` of the build in `build`, one flood: its rate (MB/s) and CPU (s). */
async function flood(build: string): Promise<{ rate: number; cpu: number }> {
  const m = sb.manifest;
  const home = mkdtempSync(join(dir, 'home-'));
  const env = { ...shellEnv, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), OPENROUTER_BASE_URL: m.base_url, OPENROUTER_API_KEY: m.credentials.api_key!, OPENROUTER_OAUTH_TOKEN: m.credentials.oauth_token! };
  const cli = join(resolve(build), 'bin', 'intern-tui.js');
  const a = values.tui
    ? new PtyScreen(process.execPath, [...nodeArgs, cli, '--scrollback', '10000'], { cols: 100, rows: 30, cwd: ROOT, env: { ...env, XDG_CACHE_HOME: join(home, 'cache'), SHELL: '/bin/sh' } })
    : new PtyScreen(process.execPath, [...nodeArgs, cli, 'attach', 'runner'], { cols: 100, rows: 30, cwd: ROOT, env });
  a.keepOutput = false;
  if (values.tui) {
    // As row 1 (bench/run.ts's `attached`): the intern's details, then its terminal.
    await openIntern(a, 'runner');
    await a.press('a');
    await a.whenParsed(() => a.screen().includes('│ connected │') && /^[$#]/.test(a.cursorLine()), 30_000, 'the connection and the prompt');
  } else {
    await a.whenParsed(() => a.term.buffer.active.type === 'alternate', 30_000, 'attach NAME to take the terminal');
    // The sandbox's shell prompts with `$ ` or, as root, `# `.
    await a.whenParsed(() => /^[$#]/.test(a.cursorLine()), 30_000, 'the prompt');
  }
  a.write('clear\r');
  await a.whenParsed(() => !a.screen().includes(lastLine) && /^[$#]$/.test(a.cursorLine()), 30_000, 'a clear screen');
  // As row 5: the raw bytes are watched for the last line, not parsed here. As row 1: the TUI's
  // screen is parsed until it shows the last line.
  const seen = values.tui
    ? a.whenParsed(() => a.screen().includes(lastLine), 600_000, 'the last line of the flood')
    : new Promise<void>((done) => {
        let tail = '';
        a.onRaw = (d) => {
          const text = tail + d;
          if (!text.includes(lastLine)) return void (tail = text.slice(-lastLine.length));
          a.onRaw = undefined;
          done();
        };
      });
  if (!values.tui) a.parse = false;
  const cpu0 = cpuSeconds(a.pid);
  a.write(`cat ${file}\r`);
  const start = performance.now();
  await seen;
  const rate = mb / ((performance.now() - start) / 1000);
  const cpu = cpuSeconds(a.pid) - cpu0;
  a.write('\x1d');
  if (values.tui) {
    // From the details, q and q: the TUI exits and writes its profile, if asked for one.
    await a.waitFor(/id {2,}[0-9a-f-]{36}/);
    await a.press('q');
    await a.ready();
    await a.press('q');
  }
  await a.waitForExit(30_000);
  await a.close();
  return { rate, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results = dirs.map(() => ({ rate: [] as number[], cpu: [] as number[] }));
try {
  for (const build of dirs) await flood(build);
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = dirs.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const { rate, cpu } = await flood(dirs[i]!);
      results[i]!.rate.push(rate);
      results[i]!.cpu.push(cpu);
      console.log(`${dirs[i]}: ${rate.toFixed(1)} MB/s, CPU ${cpu.toFixed(2)} s (load ${loadavg()[0]!.toFixed(1)})`);
    }
  }
  for (const [i, build] of dirs.entries()) console.log(`${build}: median ${median(results[i]!.rate).toFixed(1)} MB/s, CPU ${median(results[i]!.cpu).toFixed(2)} s per ${mb.toFixed(0)} MB flood`);
} finally {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
}
