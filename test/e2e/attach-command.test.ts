/** `intern-tui attach NAME` end to end: the CLI in a real pty, full screen, bytes straight through. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ROOT, poll } from './harness.js';
import { e2eSuite } from './suite.js';

const { open, sandbox } = e2eSuite();

/** The remote shell's prompt: the session is connected. */
const PROMPT = /[#$] ?$/m;
const exited = (t: { exitCode: number | null }) => vi.waitFor(() => expect(t.exitCode).not.toBeNull(), { timeout: 15_000, interval: 20 });

describe('attach NAME', () => {
  it('shows the terminal full screen, echoes, resizes the remote to every row, and detaches with ctrl+]', async () => {
    const t = open({ args: ['attach', 'runner'] });
    await t.waitFor(PROMPT);
    await t.type('echo cmd-$((6*7))-mark');
    await t.press('enter');
    await t.waitFor('cmd-42-mark');
    // No TUI chrome: no status bar, no key hints.
    expect(t.screen()).not.toContain('ctrl+] detach');
    t.resize(110, 33);
    await t.type('stty size');
    await t.press('enter');
    await t.waitFor('33 110');
    await t.press('ctrl+]');
    await exited(t);
    expect(t.exitCode).toBe(0);
    expect(t.output).toContain('[detached from runner]');
    // The alternate screen was left, so the user's own screen comes back.
    expect(t.output.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(t.output.lastIndexOf('\x1b[?1049h'));
  });

  it('keeps warnings off the screen until it has left it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warn-'));
    const log = join(dir, 'warnings.log');
    writeFileSync(log, '');
    const t = open({ args: ['attach', 'runner'], env: { NODE_OPTIONS: `--import=${join(ROOT, 'test/support/warnOnSignal.mjs')}`, WARN_LOG: log } });
    await t.waitFor(PROMPT);
    process.kill(t.pid, 'SIGUSR2');
    await poll(() => readFileSync(log, 'utf8'), (seen) => seen.includes('e2e-main-thread-warning'), 10_000, () => 'the warning emitted');
    // An echo after it: anything printed meanwhile would be in the output by now.
    await t.type('echo warned-$((6*7))');
    await t.press('enter');
    await t.waitFor('warned-42');
    expect(t.output).not.toContain('e2e-');
    await t.press('ctrl+]');
    await exited(t);
    expect(t.output.slice(t.output.lastIndexOf('\x1b[?1049l'))).toContain('e2e-main-thread-warning');
    rmSync(dir, { recursive: true, force: true });
  });

  it('redraws from the emulator after a resize while the remote is quiet', async () => {
    const t = open({ args: ['attach', 'runner'], cols: 80, rows: 20 });
    await t.waitFor(PROMPT);
    await t.type('echo repaint-$((2+3))');
    await t.press('enter');
    await t.waitFor('repaint-5');
    t.term.clear();
    t.term.write('\x1b[2J\x1b[H');
    t.resize(90, 22);
    await t.waitFor('repaint-5');
    await t.press('ctrl+]');
    await exited(t);
  });

  it('shows a flood\'s last screen exactly, without writing every line of it to the terminal', async () => {
    const t = open({ args: ['attach', 'runner'], cols: 80, rows: 20 });
    await t.waitFor(PROMPT);
    const before = t.output.length;
    // 300,000 numbered lines (about 2 MB) in red: their colour is set once, before all of them.
    await t.type("printf '\\033[31m'; seq 1 300000; printf 'flood-%s\\n' end");
    await t.press('enter');
    await t.waitFor('flood-end');
    // The screen holds the last lines in order, red, as a terminal given every byte would.
    const rows = t.screen().split('\n');
    const end = rows.findIndex((r) => r.startsWith('flood-end'));
    expect(rows.slice(end - 5, end)).toEqual(['299996', '299997', '299998', '299999', '300000']);
    const b = t.term.buffer.active;
    expect(b.getLine(b.viewportY + end - 1)!.getCell(0)!.getFgColor()).toBe(1);
    // Lines that scrolled off before they could be seen were left out: far less than the flood reached the terminal.
    expect(t.output.length - before).toBeLessThan(2_000_000 / 4);
    await t.press('ctrl+]');
    await exited(t);
  });

  it('keeps the terminal on its alternate screen when a remote program leaves one, showing the remote\'s screen', async () => {
    const t = open({ args: ['attach', 'runner'], cols: 80, rows: 20 });
    await t.waitFor(PROMPT);
    await t.type('echo before-$((1+1))');
    await t.press('enter');
    await t.waitFor('before-2');
    // A full-screen program: into the alternate screen, draw, out again.
    await t.type("printf '\\033[?1049h\\033[Hin-%s-vim\\n' $((3+3)); sleep 0.3; printf '\\033[?1049l'; echo after-$((2+2))");
    await t.press('enter');
    await t.waitFor('in-6-vim');
    // What follows the switch reaches the terminal as it is parsed; the repaint from the emulator
    // follows once the emulator has parsed it too: wait for that screen, not for the first bytes.
    await t.waitFor((s) => s.includes('after-4') && s.includes('before-2'));
    // The remote's screen came back, on the alternate screen attach took: the user's own screen was never shown.
    expect(t.term.buffer.active.type).toBe('alternate');
    expect(t.screen()).toContain('before-2');
    expect(t.screen()).not.toContain('in-6-vim');
    await t.press('ctrl+]');
    await exited(t);
    expect(t.term.buffer.active.type).toBe('normal');
  });

  it('ends with exit 1 and the service\'s reason when the service ends the terminal (the intern suspended)', async () => {
    const t = open({ args: ['attach', 'plain'] });
    await t.waitFor(PROMPT);
    const { manifest } = sandbox();
    const res = await fetch(`${manifest.base_url}/interns/${manifest.interns.no_icon}/suspend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manifest.credentials.api_key}` },
    });
    expect(res.status).toBeLessThan(300);
    await exited(t);
    expect(t.exitCode).toBe(1);
    expect(t.output.slice(t.output.lastIndexOf('\x1b[?1049l'))).toMatch(/\[plain: [^\]\x1b]+\]/);
  });

  it('refuses without an OAuth token (exit 4) and names the variable', async () => {
    const t = open({ args: ['attach', 'runner'], credentials: ['api_key'] });
    await exited(t);
    expect(t.exitCode).toBe(4);
    expect(t.output).toContain('OPENROUTER_OAUTH_TOKEN');
  });

  it('says when the intern is not running (exit 1), and what to run instead', async () => {
    const t = open({ args: ['attach', 'broken'] });
    await exited(t);
    expect(t.exitCode).toBe(1);
    expect(t.output).toContain('broken is not running (failed): provision it first, with `intern-tui interns provision broken --wait`');
    const starting = open({ args: ['attach', 'builder'] });
    await exited(starting);
    expect(starting.exitCode).toBe(1);
    expect(starting.output).toContain('builder is not running yet (provisioning): `intern-tui interns wait builder` returns once it is');
  });
});
