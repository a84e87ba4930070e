/**
 * ctrl+e lends the terminal to $EDITOR as ctrl+z lends it to the shell: vi leaves the alternate
 * screen and turns bracketed paste off, so on its return every mode the TUI set is set again and
 * Ink draws its whole frame (it left the screen blank and pastes split into submits before).
 */
import type * as ChildProcess from 'node:child_process';
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { GatedOutput, lendTerminal, screen } from '../../src/tui/output.js';
import { CLEAR_SCREEN, HIDE_CURSOR, TUI_ENTER, TUI_LEAVE } from '../../src/tui/terminal.js';
import { IDS } from './fakeApi.js';
import { renderApp } from './render.js';

/** What reached the terminal, and when the editor ran, in order. */
const events = vi.hoisted(() => [] as string[]);
/** What the editor writes. */
const written = vi.hoisted(() => ({ text: '' }));
const VI_TEXT = 'Edited in vi.\nSecond line.\n';

vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcess>();
  const { writeFileSync } = await import('node:fs');
  return {
    ...actual,
    // The editor: writes the file it was given, as vi would on :wq.
    spawnSync: vi.fn((_shell: string, args: string[]) => {
      events.push('editor');
      writeFileSync(args[args.length - 1]!, written.text);
      return { status: 0, pid: 1, output: [], stdout: null, stderr: null, signal: null };
    }),
  };
});

class FakeTerminal extends EventEmitter {
  columns = 100;
  rows = 30;
  /** What the terminal measures now. */
  measured: [number, number] = [100, 30];
  /** As Node's tty.WriteStream does on SIGWINCH: asks the terminal, and emits 'resize' on a change. */
  _refreshSize(): void {
    const [columns, rows] = this.measured;
    if (columns === this.columns && rows === this.rows) return;
    [this.columns, this.rows] = [columns, rows];
    this.emit('resize');
  }
  write(chunk: string): boolean {
    events.push(chunk);
    return true;
  }
}

/** What a lend writes and does, around what the borrower did. */
const LEND = (borrowed: string) => ['raw off', TUI_LEAVE, borrowed, TUI_ENTER + CLEAR_SCREEN + HIDE_CURSOR, 'raw on', 'resize', 'repaint'];

beforeEach(() => {
  events.length = 0;
  written.text = VI_TEXT;
  const gate = new GatedOutput(new FakeTerminal() as unknown as NodeJS.WriteStream);
  gate.on('resize', () => events.push('resize'));
  screen.gate = gate;
  screen.keys = { attached: null, setRawMode: (on: boolean) => events.push(on ? 'raw on' : 'raw off') };
  screen.repaint = () => events.push('repaint');
});

afterEach(() => {
  cleanup();
  screen.gate = null;
  screen.keys = null;
  screen.repaint = () => {};
});

describe('the terminal lent to a program', () => {
  it('is measured again when it comes back: a resize while the TUI was stopped signalled the shell, not it', () => {
    const real = new FakeTerminal();
    const gate = new GatedOutput(real as unknown as NodeJS.WriteStream);
    const seen: string[] = [];
    gate.on('resize', () => seen.push(`${gate.columns}x${gate.rows}`));
    screen.gate = gate;
    lendTerminal(() => {
      real.measured = [132, 43];
    });
    expect(seen).toEqual(['132x43']);
    expect([real.columns, real.rows]).toEqual([132, 43]);
    // Unchanged, the frame is still laid out again (what the lend always did).
    lendTerminal(() => undefined);
    expect(seen).toEqual(['132x43', '132x43']);
  });

  it('is taken back whole even when the program fails', () => {
    expect(() =>
      lendTerminal(() => {
        events.push('shell');
        throw new Error('gone');
      }),
    ).toThrow('gone');
    expect(events).toEqual(LEND('shell'));
  });

  it('to $EDITOR from a form: every mode set again and the frame drawn whole, then the text in the field', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    await app.press('tab', 'tab', 'tab');
    await app.waitFor(/› instructions/);
    events.length = 0;
    await app.press('\x05'); // ctrl+e
    await app.waitFor('Edited in vi.');
    expect(events.slice(0, LEND('').length)).toEqual(LEND('editor'));
    expect(app.frame()).toContain('Second line.');
  });

  it('hands back text as the field takes it: a one-line field stays one line, and no control character comes in', async () => {
    written.text = 'Keeps CI\r\ngreen,\tfast\x1b[31m and red.\x07\n';
    const app = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    await app.press('tab');
    await app.waitFor(/› description/);
    await app.press('\x05');
    const f = await app.waitFor('Keeps CI green, fast[31m and red.');
    expect(f).not.toContain('\x1b[31m');
    // The instructions keep their lines.
    written.text = 'First.\r\nSecond.\x1b\n';
    await app.press('tab', 'tab');
    await app.waitFor(/› instructions/);
    await app.press('\x05');
    // "First.\nSecond.": 14 characters, the escape gone.
    await app.waitFor(/2 lines, 14 chars[^]*│ First\. +│\n│ Second\. +│/);
  });

  it('puts the cursor at the end of the text $EDITOR gave back, where typing goes on', async () => {
    written.text = 'edited text\n';
    const app = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    await app.press('tab');
    await app.waitFor(/› description/);
    await app.press('\x01'); // the cursor at the start of the old description
    await app.press('\x05');
    await app.waitFor(/› description +edited text/);
    await app.type('!');
    await app.waitFor(/› description +edited text! /);
  });

  it("takes a secret's value as written: its line breaks may be its own", async () => {
    written.text = 'line1\r\nline2\n';
    const vault = renderApp({ initial: { name: 'vault' } });
    await vault.waitFor('No secrets here yet');
    await vault.press('a');
    await vault.waitFor(/› name/);
    await vault.press('tab');
    await vault.waitFor(/› value/);
    await vault.press('\x05');
    // "line1\r\nline2": 12 characters; made one line it would be 11.
    await vault.waitFor('12 chars, hidden');
  });

  it('only on a field $EDITOR edits: on any other, ^e names those it edits and runs nothing', async () => {
    const settings = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    await settings.waitFor(/› name/);
    events.length = 0;
    await settings.press('\x05');
    await settings.waitFor('$EDITOR edits the description and the instructions');
    expect(events).not.toContain('editor');
    cleanup();
    const vault = renderApp({ initial: { name: 'vault' } });
    await vault.waitFor('No secrets here yet');
    await vault.press('a');
    await vault.waitFor(/› name/);
    await vault.press('\x05');
    await vault.waitFor('$EDITOR edits the value');
    expect(events).not.toContain('editor');
    // On the value it edits, and the value stays hidden: only its length is drawn.
    await vault.press('tab');
    await vault.waitFor(/› value/);
    await vault.press('\x05');
    await vault.waitFor('26 chars, hidden');
    expect(events).toContain('editor');
    expect(vault.frames.some((f) => f.includes('Edited in vi.'))).toBe(false);
  });
});
