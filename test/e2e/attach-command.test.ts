/** `intern-tui attach NAME` end to end: the CLI in a real pty, full screen, bytes straight through. */
import { describe, expect, it, vi } from 'vitest';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

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

  it('refuses without an OAuth token (exit 4) and names the variable', async () => {
    const t = open({ args: ['attach', 'runner'], credentials: ['api_key'] });
    await exited(t);
    expect(t.exitCode).toBe(4);
    expect(t.output).toContain('OPENROUTER_OAUTH_TOKEN');
  });

  it('says when the intern is not running (exit 1)', async () => {
    const t = open({ args: ['attach', 'broken'] });
    await exited(t);
    expect(t.exitCode).toBe(1);
    expect(t.output).toContain('is not running');
  });
});
