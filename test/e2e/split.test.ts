/**
 * The split view end to end, in a real pty against the sandbox: the chat and the intern's live
 * terminal on one screen; a `run:` the chat allows is seen in the terminal pane (the sandbox's agent
 * types it into the intern's own daemon terminal); F6 gives the terminal the keys, and the daemon
 * is sized to the pane, side by side and stacked.
 */
import { describe, expect, it } from 'vitest';
import { openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

/** Whether a row of the screen shows `text` at or right of column `from` (0-based): in the terminal pane. */
const rightOf = (from: number, text: string | RegExp) => (screen: string) =>
  screen.split('\n').some((line) => (typeof text === 'string' ? line.indexOf(text, from) >= from : text.test(line.slice(from))));

describe('the split view', () => {
  it('shows a run: the chat allows happening in the terminal pane, and gives the terminal its keys and its size', async () => {
    // 140 columns: side by side, the chat's 70 on the left, a rule, the terminal's 69 on the right.
    const t = open({ cols: 140, rows: 40 });
    await openIntern(t, 'runner-jpeg');
    await t.press('w');
    await t.waitFor('Chat with runner-jpeg');
    await t.waitFor(rightOf(71, 'connected'), 20_000);
    await t.waitFor(/F6 other pane/);
    await t.type('run: echo SPLIT-$((40+2))');
    await t.press('enter');
    await t.waitFor('Permission: shell', 20_000);
    await t.press('1');
    // The agent typed the command into the daemon's terminal: its output is in the right-hand pane.
    await t.waitFor(rightOf(71, 'SPLIT-42'), 20_000);
    // Typed there by the agent, at the remote's prompt.
    expect(rightOf(71, 'echo SPLIT-$((40+2))')(t.screen())).toBe(true);

    // F6: the terminal has the keys; the remote is the pane's size (its rows less the status row).
    await t.press('f6');
    await t.type('stty size');
    await t.press('enter');
    await t.waitFor(rightOf(71, /^\d+ 69 *$/), 20_000);
    // Narrower than 120 columns the panes stack, and the daemon gets the whole width.
    t.resize(100, 40);
    await t.type('stty size');
    await t.press('enter');
    await t.waitFor(/^\d+ 100$/m, 20_000);
    // F6 again: the chat has the keys back (typed text is in its prompt, not the terminal's).
    await t.press('f6');
    await t.type('hello from the split');
    await t.waitFor(/^› ?hello from the split/m);
  });
});
