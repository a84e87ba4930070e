/**
 * The `npm start` path: nothing configured, so the TUI opens on the embedded sandbox (in a worker
 * thread) with demo data. Attach reaches a real terminal behind it, and quitting leaves nothing
 * running: the worker closes its database, server and terminals.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, PtyScreen, ROOT, Tui, attachAndRun, openIntern, poll } from './harness.js';

let t: Tui | undefined;
/** The list drawn whole: its selected row and a demo intern further down (a frame can arrive in pieces). */
const demoList = (s: string) => /^›/m.test(s) && s.includes('translator');
afterEach(async () => {
  await t?.close();
});

describe('the embedded sandbox', () => {
  it('opens on demo data, attaches to a demo terminal, and exits cleanly', async () => {
    t = new Tui();
    const list = await t.waitFor(demoList, 30_000);
    expect(list).toMatch(/SANDBOX +127\.0\.0\.1/);
    for (const name of ['translator', 'researcher', 'reviewer']) expect(list).toContain(name);
    await openIntern(t, 'release-captain');
    await attachAndRun(t, 'echo embedded-$((6*7))', 'embedded-42');
    await t.press('ctrl+]');
    await t.waitFor(/id {2,}[0-9a-f-]{36}/);
    await t.press('ctrl+c');
    expect(await t.waitForExit(15_000)).toBe(0);
    // Nothing but the TUI on the terminal: Node's ExperimentalWarning for the code cache's loader
    // (the keyring, node-pty imported from a cached file) once came out over the screen.
    expect(t.output).not.toMatch(/\(node:\d+\)|Warning:/);
  });

  it('draws the SANDBOX badge in inverse under --no-color, with no colour escape', async () => {
    t = new Tui({ args: ['--no-color'] });
    await t.waitFor(demoList, 30_000);
    // The styles before the badge, as the terminal got them: bold and inverse, no black text.
    const before = /((?:\x1b\[[0-9;]*m)+) SANDBOX /.exec(t.output)?.[1] ?? '';
    const params = [...before.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap((m) => m[1]!.split(';'));
    expect(params).toContain('7');
    expect(params.filter((p) => /^(3\d|4\d|9\d|10\d)$/.test(p))).toEqual([]);
  });

  it("keeps warnings, its own and its sandbox worker's, off the screen until it has given the terminal back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warn-'));
    const log = join(dir, 'warnings.log');
    writeFileSync(log, '');
    t = new Tui({ env: { NODE_OPTIONS: `--import=${join(ROOT, 'test/support/warnOnSignal.mjs')}`, WARN_LOG: log } });
    await t.waitFor(demoList, 30_000);
    process.kill(t.pid, 'SIGUSR2');
    await poll(
      () => readFileSync(log, 'utf8').split('\n').filter(Boolean).sort().join(' '),
      (seen) => seen === 'e2e-main-thread-warning e2e-worker-thread-warning',
      10_000,
      () => `both warnings emitted (so far: ${readFileSync(log, 'utf8').trim() || 'none'})`,
    );
    // A key's frame after them: anything printed meanwhile would be in the output by now.
    await t.press('j');
    await t.waitFor(/^›.*runner-jpeg/m);
    expect(t.output).not.toContain('e2e-');
    await t.press('q');
    expect(await t.waitForExit(15_000)).toBe(0);
    const after = t.output.slice(t.output.lastIndexOf('\x1b[?1049l'));
    expect(after).toContain('e2e-main-thread-warning');
    expect(after).toContain('e2e-worker-thread-warning');
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the worker's and the TUI's compiled code in the cache directory, 0600, and damaged caches are rewritten", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'e2e-code-cache-'));
    const dir = join(cache, 'intern-tui', 'code-cache');
    const files = () => {
      try {
        return readdirSync(dir).filter((f) => f.endsWith('.v8')).sort();
      } catch {
        return [];
      }
    };
    const named = (prefix: string) => files().find((f) => f.startsWith(prefix));
    try {
      // The worker writes its cache once the sandbox has served its start (a second after it is up,
      // or as it closes if that comes first: here, quitting as soon as the list shows); the TUI its
      // own as it exits.
      t = new Tui({ env: { XDG_CACHE_HOME: cache } });
      await t.waitFor(demoList, 30_000);
      expect(named('tui-')).toBeUndefined();
      await t.press('q');
      expect(await t.waitForExit(15_000)).toBe(0);
      const worker = named('sandbox-');
      const tui = named('tui-');
      expect(worker).toBeDefined();
      expect(tui).toBeDefined();
      for (const f of [worker!, tui!]) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      await t.close();
      // Damaged (or from another V8): V8 refuses them, both compile as usual and write good ones.
      for (const f of [worker!, tui!]) writeFileSync(join(dir, f), 'not a code cache');
      t = new Tui({ env: { XDG_CACHE_HOME: cache } });
      await t.waitFor(demoList, 30_000);
      await poll(() => readFileSync(join(dir, worker!)).length, (n) => n > 1000, 20_000, () => "the worker's damaged cache to be rewritten");
      await t.press('q');
      expect(await t.waitForExit(15_000)).toBe(0);
      expect(readFileSync(join(dir, tui!)).length).toBeGreaterThan(1000);
      expect(files()).toEqual([worker, tui].sort());
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it.each([
    ['the TUI', [], /^›/m, 'hang up'],
    ['the TUI', [], /^›/m, 'SIGTERM'],
    ['attach runner', ['attach', 'runner'], /[#$] ?$/m, 'hang up'],
    ['chat runner', ['chat', 'runner'], /prompt>/, 'hang up'],
    ['chat runner', ['chat', 'runner'], /prompt>/, 'SIGTERM'],
  ] as const)('%s ends cleanly (%#: %s): no crash, the sandbox\'s folders removed', async (what, args, ready, how) => {
    const scratch = mkdtempSync(join(tmpdir(), 'e2e-ending-'));
    const cache = mkdtempSync(join(tmpdir(), 'e2e-ending-cache-'));
    try {
      t = new Tui({ args: [...args], env: { TMPDIR: scratch, XDG_CACHE_HOME: cache } });
      await t.waitFor(ready);
      expect(readdirSync(scratch).filter((f) => f.startsWith('intern-sandbox-'))).toHaveLength(1);
      // Hung up: the pty closed under it (writes and reads fail with EIO) and SIGHUP.
      if (how === 'hang up') await t.hangUp();
      else {
        t.signal('SIGTERM');
        await t.waitForEnd();
      }
      expect(readdirSync(scratch)).toEqual([]);
      // What runs on exit ran before the signal ended it: the TUI saved its compiled code.
      if (what === 'the TUI') expect(readdirSync(join(cache, 'intern-tui', 'code-cache')).some((f) => f.startsWith('tui-'))).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  });

  // Node 20 drops a vm.Script's dynamic import from a code cache: every import() in the cached
  // files failed from the second session on (src/importExternal.ts).
  it('a session on the code caches an earlier one wrote still imports what it loads: node-pty in the worker, https in the client', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'e2e-cached-imports-'));
    const https = { XDG_CACHE_HOME: cache, OPENROUTER_BASE_URL: 'https://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: 'sk-or-v1-not-used-here' };
    try {
      for (const session of [1, 2]) {
        t = new Tui({ env: { XDG_CACHE_HOME: cache } });
        await t.waitFor(demoList, 30_000);
        await openIntern(t, 'runner');
        await attachAndRun(t, `echo cached-${session}-$((6*7))`, `cached-${session}-42`);
        await t.press('ctrl+]');
        await t.waitFor(/id {2,}[0-9a-f-]{36}/);
        await t.press('ctrl+c');
        expect(await t.waitForExit(15_000)).toBe(0);
        await t.close();
      }
      for (let session = 0; session < 2; session++) {
        t = new Tui({ env: https });
        await t.waitFor(/127\.0\.0\.1:9: ECONNREFUSED \(nothing is listening there\)/, 30_000);
        await t.press('ctrl+c');
        expect(await t.waitForExit(15_000)).toBe(0);
        await t.close();
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('ctrl+z suspends it to the shell that started it, and fg brings it back as it was', async () => {
    const home = mkdtempSync(join(tmpdir(), 'e2e-suspend-'));
    // An interactive shell with job control, as the user's: the TUI is a job of it.
    const sh = new PtyScreen('bash', ['--norc', '--noprofile', '-i'], {
      cols: 100,
      rows: 30,
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: 'sh$ ', TMPDIR: tmpdir() },
    });
    try {
      await sh.whenParsed(() => sh.cursorLine().startsWith('sh$'), 10_000, 'the shell prompt');
      sh.write(`node ${CLI}\r`);
      await sh.whenParsed(() => demoList(sh.screen()), 30_000, 'the demo list');
      sh.write('j');
      await sh.whenParsed(() => /^›★ runner-jpeg/m.test(sh.screen()), 10_000, 'the second row selected');
      sh.write('\x1a');
      // The shell's own screen, with the job stopped and its prompt.
      await sh.whenParsed(() => sh.term.buffer.active.type === 'normal' && /Stopped/.test(sh.screen()) && sh.cursorLine().startsWith('sh$'), 10_000, 'the job stopped');
      sh.write('fg\r');
      // Back on its screen, drawn whole, on the row it was on, and taking keys.
      await sh.whenParsed(() => sh.term.buffer.active.type === 'alternate' && /^›★ runner-jpeg/m.test(sh.screen()) && sh.screen().includes('translator'), 10_000, 'the TUI again');
      sh.write('j');
      await sh.whenParsed(() => /^›★ plain/m.test(sh.screen()), 10_000, 'the next row selected');
      sh.write('q');
      await sh.whenParsed(() => sh.term.buffer.active.type === 'normal' && sh.cursorLine().startsWith('sh$'), 15_000, 'the shell after quitting');
    } finally {
      await sh.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('ctrl+z with no shell to return to (started directly, a session of its own) says so and stays', async () => {
    t = new Tui();
    await t.waitFor(demoList, 30_000);
    await t.press('\x1a');
    const f = await t.waitFor('no shell to return to');
    expect(t.term.buffer.active.type).toBe('alternate');
    expect(f).toContain('translator');
  });

  it('--sandbox uses the embedded sandbox even when a service is configured', async () => {
    t = new Tui({ args: ['--sandbox'], env: { OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1', OPENROUTER_API_KEY: 'sk-or-v1-not-used-here' } });
    const list = await t.waitFor(demoList, 30_000);
    expect(list).toMatch(/SANDBOX +127\.0\.0\.1 /);
    expect(list).toContain('translator');
  });
});
