/**
 * Two or more builds' starts, in turns: each DIR holds a build's `bin/` and `dist/` (copy them
 * under node_modules/.cache/, so that their external packages resolve), and each gets a home of
 * its own, so its code cache is its own. Per build, the medians of the wall time from spawn to the
 * list's selected row, to the first frame, and the CPU time (user+sys) of the TUI's main thread and
 * of its whole process at the moment the list is there: on a busy machine CPU time moves much less
 * than the wall clock. Rows c (a sandbox process) and d (the embedded sandbox, `--embedded`), or
 * both (`--both`). Not a budget: `npm run bench` judges those.
 *
 *   node --import tsx bench/start-ab.ts DIR_A DIR_B [--runs N] [--embedded | --both]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PtyScreen, ROOT, startSandboxProcess } from '../test/e2e/harness.js';

const { values, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '10' }, embedded: { type: 'boolean', default: false }, both: { type: 'boolean', default: false } },
});
if (dirs.length === 0) throw new Error('usage: bench/start-ab.ts DIR... [--runs N] [--embedded | --both]');
const modes = values.both ? [false, true] : [values.embedded];
const sb = modes.includes(false) ? await startSandboxProcess() : null;
const homes = dirs.map(() => mkdtempSync(join(tmpdir(), 'start-ab-')));

/** Milliseconds of CPU: the main thread's (schedstat, ns) and the whole process's (stat, clock ticks, dead threads included). */
function cpu(pid: number): { main: number; process: number } {
  const main = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, in the kernel's USER_HZ (100 on Linux).
  return { main, process: (Number(fields[11]) + Number(fields[12])) * 10 };
}

function envFor(i: number, embedded: boolean): Record<string, string> {
  const home = homes[i]!;
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), SHELL: '/bin/sh' };
  if (!embedded && sb) {
    const c = sb.manifest.credentials;
    Object.assign(env, { OPENROUTER_BASE_URL: sb.manifest.base_url, OPENROUTER_API_KEY: c.api_key!, OPENROUTER_MANAGEMENT_KEY: c.management_key!, OPENROUTER_OAUTH_TOKEN: c.oauth_token! });
  }
  return env;
}

interface Start {
  wall: number;
  first: number;
  main: number;
  process: number;
}

async function start(i: number, embedded: boolean): Promise<Start> {
  const t0 = performance.now();
  const s = new PtyScreen(process.execPath, [join(resolve(dirs[i]!), 'bin', 'intern-tui.js')], { cols: 100, rows: 30, cwd: ROOT, env: envFor(i, embedded) });
  let first = 0;
  await s.whenParsed(
    () => {
      const screen = s.screen();
      if (first === 0 && screen.trim() !== '') first = performance.now() - t0;
      return /^›/m.test(screen);
    },
    60_000,
    'the intern list',
  );
  const wall = performance.now() - t0;
  const used = cpu(s.pid);
  s.write('q');
  await s.waitForExit(15_000);
  s.close();
  return { wall, first, ...used };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const results = new Map<string, Start[]>();
try {
  // One start of each first, not counted: it writes each build's code cache.
  for (const embedded of modes) for (let i = 0; i < dirs.length; i++) await start(i, embedded);
  for (let run = 0; run < Number(values.runs); run++) {
    for (const embedded of modes) {
      for (let i = 0; i < dirs.length; i++) {
        const key = `${embedded ? 'd' : 'c'} ${dirs[i]}`;
        results.set(key, [...(results.get(key) ?? []), await start(i, embedded)]);
      }
    }
  }
  for (const [key, starts] of results) {
    const m = (k: keyof Start) => median(starts.map((s) => s[k])).toFixed(0);
    console.log(`${key.padEnd(44)} list ${m('wall')} ms  first frame ${m('first')} ms  CPU main ${m('main')} ms, process ${m('process')} ms  (${starts.length} starts)`);
  }
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${readdirSync('/sys/devices/system/cpu').filter((f) => /^cpu\d+$/.test(f)).length} cores`);
} finally {
  await sb?.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
}
