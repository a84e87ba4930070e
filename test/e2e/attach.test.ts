/** Attach end to end: a real pty around the TUI, a real pty behind the daemon. */
import { describe, expect, it } from 'vitest';
import { attachAndRun, openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();

describe('attach', () => {
  it('attaches, echoes, resizes, detaches with ctrl+], and shows the history on the next attach', async () => {
    const t = open();
    await openIntern(t, 'runner');
    await attachAndRun(t, 'echo e2e-$((6*7))-mark', 'e2e-42-mark');
    t.resize(110, 33);
    await t.type('stty size');
    await t.press('enter');
    await t.waitFor('32 110');
    await t.press('ctrl+]');
    await t.waitFor(/id {2,}[0-9a-f-]{36}/);
    expect(t.screen()).not.toContain('ctrl+] detach');
    await t.press('a');
    await t.waitFor('connected');
    await t.waitFor('e2e-42-mark');
  });

  it('shows every line of a flood when scrolled back, in order, across the history it held unparsed', async () => {
    // A scrollback of 3,000 lines, every one of them read below, across several held releases.
    const t = open({ args: ['--scrollback', '3000'] });
    await openIntern(t, 'runner');
    await attachAndRun(t, 'echo flood-$((5*5))', 'flood-25');
    // 1.3 MB: held past its first 256 KiB, most of its history set aside as bytes (lazy history).
    await t.type('seq 1 200000; echo done-$((7*7))');
    await t.press('enter');
    await t.waitFor('done-49');
    const page = t.term.rows - 2;
    const numbers = () =>
      t
        .screen()
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^\d+$/.test(l))
        .map(Number);
    const pages = Math.floor(3000 / page);
    for (let p = 1; p <= pages; p++) {
      await t.press('shift+pageup');
      // Each page k lines up shows the lines k above: the last, 200000 two rows above the prompt, is 200002 - k.
      const want = 200002 - p * page;
      await t.whenParsed(() => t.screen().includes(`history: ${p * page} lines up`) && numbers().at(-1) === want, 15_000, `page ${p} of the history`);
      // A page of consecutive lines.
      const shown = numbers();
      expect(shown.length).toBe(t.term.rows - 1);
      shown.forEach((n, i) => expect(n).toBe(want - shown.length + 1 + i));
    }
    // The top of the history: nothing further up.
    await t.press('shift+pageup');
    await t.whenParsed(() => t.screen().includes('history: 3000 lines up'), 15_000, 'the top of the history');
    expect(numbers()[0]).toBe(200002 - 3000 - t.term.rows + 2);
  });

  it('draws a full-screen program: into the alternate screen and back, a malformed sequence on the way', async () => {
    const t = open();
    await openIntern(t, 'runner');
    await attachAndRun(t, 'echo before-$((2*3))', 'before-6');
    // A program takes the alternate screen (as vim does), draws, sends bytes no terminal knows, leaves.
    await t.type("printf '\\033[?1049h\\033[HALT-SCREEN-%s\\033P\\377\\033\\\\' $((3*3)); sleep 1; printf '\\033[?1049l'");
    await t.press('enter');
    await t.waitFor('ALT-SCREEN-9');
    await t.waitForGone('ALT-SCREEN-9');
    await t.waitFor('before-6');
    await t.type('echo after-$((4*5))');
    await t.press('enter');
    await t.waitFor('after-20');
    expect(t.screen()).toContain('ctrl+] detach');
  });

  it('explains that attach needs an OAuth token when only an API key is configured', async () => {
    const t = open({ credentials: ['api_key'] });
    await openIntern(t, 'runner');
    await t.press('a');
    const screen = await t.waitFor('Attach needs an OAuth token');
    expect(screen).toContain('OPENROUTER_OAUTH_TOKEN');
    await t.press('esc');
    await t.waitFor(/id {2,}[0-9a-f-]{36}/);
  });

  it('says when the intern is not running and offers provision', async () => {
    const t = open();
    await t.ready();
    await t.press(':');
    await t.type('attach broken');
    await t.press('enter');
    const screen = await t.waitFor('is not running');
    expect(screen).toContain('p provisions it');
  });
});
