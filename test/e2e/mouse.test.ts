/**
 * The mouse in a real terminal: the built CLI asks for reports (the pty's emulator says which
 * mode it is in), a click selects a row, and the mode is off again whenever the terminal is the
 * shell's (after ctrl+z, after quitting) or was never asked for (--no-mouse).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, PtyScreen, ROOT, attachAndRun, openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

/** A click (press and release) at a cell counted from 0, as an xterm in SGR mode writes it. */
const click = (x: number, y: number) => `\x1b[<0;${x + 1};${y + 1}M\x1b[<0;${x + 1};${y + 1}m`;
const rowOf = (screen: string, re: RegExp) => screen.split('\n').findIndex((l) => re.test(l));

describe('the mouse', () => {
  it('is on while the TUI has the screen: a click on the second row selects it, and quitting turns it off', async () => {
    const t = open();
    await t.ready();
    const screen = await t.waitFor(/^›★ runner /m);
    expect(t.output).toContain('\x1b[?1000h\x1b[?1006h');
    expect(t.term.modes.mouseTrackingMode).toBe('vt200');
    const first = rowOf(screen, /^›/);
    const second = screen.split('\n')[first + 1]!;
    const name = /[\w-]{3,}/.exec(second.slice(2))![0];
    t.write(click(6, first + 1));
    const after = await t.waitFor((s) => s.split('\n')[first + 1]!.startsWith('›'));
    expect(after.split('\n')[first]!.startsWith('›')).toBe(false);
    expect(after.split('\n')[first + 1]).toContain(name);
    // Nothing of the report was typed: no filter opened.
    expect(after).not.toMatch(/\/ filter .*name, model/);
    await t.press('q');
    expect(await t.waitForExit(15_000)).toBe(0);
    expect(t.term.modes.mouseTrackingMode).toBe('none');
  });

  it('--no-mouse never asks for reports, and the terminal keeps its own selection', async () => {
    const t = open({ args: ['--no-mouse'] });
    await t.ready();
    await t.waitFor(/^›★ runner /m);
    expect(t.output).not.toContain('\x1b[?1000h');
    expect(t.term.modes.mouseTrackingMode).toBe('none');
    await t.press('j');
    await t.waitFor(/^›★ runner-jpeg/m);
  });
});

describe('the mouse while attached', () => {
  it('the wheel scrolls the history; a program that turned the mouse on gets the click, in its cells', async () => {
    const t = open();
    await openIntern(t, 'runner');
    await attachAndRun(t, 'seq 1 100; echo seq-$((4*5))', 'seq-20');
    t.write(`\x1b[<64;10;10M`);
    await t.waitFor('history: 3 lines up');
    t.write(`\x1b[<65;10;10M`);
    await t.waitForGone('history:');
    // A program asks for SGR reports, as vim and htop do; cat -v shows what it is sent.
    await t.type("printf '\\033[?1000h\\033[?1006h'; cat -v");
    await t.press('enter');
    // The status bar is the screen's first row: the screen's (5, 3) is the program's (5, 2).
    t.write(click(4, 2));
    await t.press('enter');
    await t.waitFor('^[[<0;5;2M^[[<0;5;2m');
    await t.press('ctrl+c');
  });
});

describe('the mouse and the shell', () => {
  it('is off while ctrl+z has given the terminal back to the shell, and on again after fg', async () => {
    const home = mkdtempSync(join(tmpdir(), 'e2e-mouse-suspend-'));
    const sh = new PtyScreen('bash', ['--norc', '--noprofile', '-i'], {
      cols: 100,
      rows: 30,
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: 'sh$ ', TMPDIR: tmpdir() },
    });
    try {
      await sh.whenParsed(() => sh.cursorLine().startsWith('sh$'), 10_000, 'the shell prompt');
      sh.write(`node ${CLI}\r`);
      await sh.whenParsed(() => /^›/m.test(sh.screen()) && sh.screen().includes('translator'), 30_000, 'the demo list');
      expect(sh.term.modes.mouseTrackingMode).toBe('vt200');
      sh.write('\x1a');
      await sh.whenParsed(() => sh.term.buffer.active.type === 'normal' && /Stopped/.test(sh.screen()), 10_000, 'the job stopped');
      expect(sh.term.modes.mouseTrackingMode).toBe('none');
      sh.write('fg\r');
      await sh.whenParsed(() => sh.term.buffer.active.type === 'alternate' && sh.screen().includes('translator'), 10_000, 'the TUI again');
      expect(sh.term.modes.mouseTrackingMode).toBe('vt200');
      sh.write('q');
      await sh.whenParsed(() => sh.term.buffer.active.type === 'normal' && sh.cursorLine().startsWith('sh$'), 15_000, 'the shell after quitting');
      expect(sh.term.modes.mouseTrackingMode).toBe('none');
    } finally {
      await sh.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
