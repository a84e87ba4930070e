/**
 * The TUI's start, frame by frame: spawns the built CLI in a pty (against a sandbox process, or
 * on the embedded sandbox with `embedded`) and prints when each change of the screen was parsed,
 * until the intern list shows its selected row. With `--cpu-prof DIR` each run also writes a V8
 * CPU profile there (open it in Chrome's DevTools, Performance tab). Not a budget: `npm run bench`
 * measures those; this shows where the time between spawn and the list goes.
 *
 *   npm run build && node --import tsx bench/startup.ts [embedded] [--runs N] [--cpu-prof DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, PtyScreen, ROOT, startSandboxProcess } from '../test/e2e/harness.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '3' }, 'cpu-prof': { type: 'string' } } });
const embedded = positionals[0] === 'embedded';
const sb = embedded ? null : await startSandboxProcess();
const home = mkdtempSync(join(tmpdir(), 'intern-tui-startup-'));
const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), SHELL: '/bin/sh' };
if (sb) {
  const c = sb.manifest.credentials;
  Object.assign(env, { OPENROUTER_BASE_URL: sb.manifest.base_url, OPENROUTER_API_KEY: c.api_key!, OPENROUTER_MANAGEMENT_KEY: c.management_key!, OPENROUTER_OAUTH_TOKEN: c.oauth_token! });
}
const prof = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    console.log(`run ${run}${embedded ? ' (embedded sandbox)' : ''}`);
    const t0 = performance.now();
    const s = new PtyScreen(process.execPath, [...prof, CLI], { cols: 100, rows: 30, cwd: ROOT, env });
    let last: string[] = [];
    await s.whenParsed(() => {
      const lines = s.screen().split('\n');
      const changed = lines.filter((l, i) => l !== last[i] && l.trim() !== '');
      if (changed.length > 0) console.log(`${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${changed.slice(0, 2).map((l) => l.trim().slice(0, 45)).join(' | ')}`);
      last = lines;
      return /^›/m.test(s.screen());
    }, 30_000, 'the intern list');
    // q quits cleanly, so a CPU profile is written.
    s.write('q');
    await s.waitForExit(10_000);
    s.close();
  }
} finally {
  await sb?.stop();
  rmSync(home, { recursive: true, force: true });
}
