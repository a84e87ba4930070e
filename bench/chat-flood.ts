/**
 * Issue 43's figure: `intern-tui chat` against a service that streams without end
 * (test/support/hostileChat.ts), its stdout a pipe nobody reads for STALL seconds, then read and
 * thrown away for up to READ seconds. Prints what the service could send and the CLI's peak
 * resident set (VmHWM, sampled every 100 ms) after each phase, and how the command ended.
 *
 *   npm run build && node --import tsx bench/chat-flood.ts [ROOT] [STALL] [READ]
 *
 * ROOT is the checkout whose bin/intern-tui.js runs (this one by default): a build of main in a
 * worktree of its own gives the figure before. Not part of `npm run bench`: it has no reference
 * to set a ratio against, only a budget (150 MB), which test/e2e/chat-hostile.test.ts checks.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_API_KEY, HOSTILE_INTERN_ID, startHostileChat } from '../test/support/hostileChat.js';
import { ROOT } from '../test/e2e/harness.js';

const root = process.argv[2] ?? ROOT;
const stallS = Number(process.argv[3] ?? 20);
const readS = Number(process.argv[4] ?? 30);
const home = mkdtempSync(join(tmpdir(), 'bench-chat-flood-'));
const server = await startHostileChat({ kind: 'endless' });
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), OPENROUTER_BASE_URL: server.baseUrl, OPENROUTER_API_KEY: HOSTILE_API_KEY };
const child = spawn(process.execPath, [join(root, 'bin', 'intern-tui.js'), 'chat', HOSTILE_INTERN_ID, 'hi'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
let peakKb = 0;
const sampler = setInterval(() => {
  try {
    peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
  } catch {
    // Gone: the last sample stands.
  }
}, 100);
const started = performance.now();
let ended: string | null = null;
const closed = new Promise<void>((resolve) =>
  child.on('close', (code, signal) => {
    ended = `exit ${code ?? signal} after ${((performance.now() - started) / 1000).toFixed(1)} s`;
    resolve();
  }),
);
const mib = (n: number) => (n / 2 ** 20).toFixed(1);

await Promise.race([closed, new Promise((r) => setTimeout(r, stallS * 1000))]);
console.log(`stalled reader, ${stallS} s: the service sent ${mib(server.sent())} MiB; peak ${(peakKb / 1024).toFixed(0)} MB; ${ended ?? 'running'}`);
child.stdout.resume();
const reading = performance.now();
const before = server.sent();
await Promise.race([closed, new Promise((r) => setTimeout(r, readS * 1000))]);
const took = (performance.now() - reading) / 1000;
console.log(`reader keeping up: ${mib(server.sent() - before)} MiB more in ${took.toFixed(1)} s; peak ${(peakKb / 1024).toFixed(0)} MB; ${ended ?? 'running'}`);
if (stderr.trim()) console.log(`stderr: ${stderr.trim().split('\n').at(-1)}`);
clearInterval(sampler);
child.kill('SIGKILL');
await server.close();
rmSync(home, { recursive: true, force: true });
