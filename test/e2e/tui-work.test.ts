/**
 * Issue 10 in a real pty against the sandbox, at 80x24 with NO_COLOR: create an intern and see it
 * provision; chat and see the streamed answer; `run:` in manual mode allowed by its number; answer an
 * `ask:`; add a secret and see it in the effective view with no value on screen; pick a model and save.
 */
import { describe, expect, it } from 'vitest';
import { openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();
const small = () => open({ cols: 80, rows: 24, env: { NO_COLOR: '1' } });
const CTRL_T = '\x14';

describe('the TUI does the daily work', () => {
  it('creates an intern with n and follows it to running', async () => {
    const t = small();
    await t.ready();
    await t.press('n');
    await t.waitFor('New intern');
    await t.type('e2e-made');
    await t.press('ctrl+s');
    await t.waitFor(/e2e-made ★ yours/);
    await t.waitFor(/● running/, 30_000);
  });

  it('chats: a streamed answer with tokens', async () => {
    const t = small();
    await openIntern(t, 'runner-jpeg');
    await t.press('t');
    await t.waitFor('Chat with runner-jpeg');
    await t.type('hello there');
    await t.press('enter');
    const s = await t.waitFor(/tokens \(\d+ in, \d+ out\)/, 20_000);
    expect(s).toContain('You said: "hello there"');
    expect(s).toContain('runner-jpeg here');
    expect(s).not.toContain('## ');
  });

  it('runs a command in manual mode after allowing it by its number, and answers a question', async () => {
    const t = small();
    await openIntern(t, 'runner-jpeg');
    await t.press('t');
    // Manual is where a conversation starts.
    await t.waitFor('Chat with runner-jpeg');
    await t.waitFor('mode manual');
    await t.type('run: echo MARK-$((40+2))');
    await t.press('enter');
    await t.waitFor('Permission: shell', 20_000);
    await t.press('1');
    await t.waitFor(/^│ ?MARK-42/m, 20_000);
    await t.waitFor('Exit status 0', 20_000);
    await t.type('ask: Which colour?');
    await t.press('enter');
    await t.waitFor('Question: Which colour?', 20_000);
    await t.type('blue');
    await t.press('ctrl+s');
    await t.waitFor('You answered "blue" (sure)', 20_000);
    // ^t: self-drive, and the next command runs without asking.
    await t.press(CTRL_T);
    await t.waitFor('mode self-drive');
    await t.type('run: echo FREE-$((3+4))');
    await t.press('enter');
    await t.waitFor(/^│ ?FREE-7/m, 20_000);
  });

  it('adds a secret and sees it in the effective view, its value nowhere on screen', async () => {
    const t = small();
    await openIntern(t, 'runner-jpeg');
    await t.press('v');
    await t.waitFor('Secrets of runner-jpeg');
    await t.press('a');
    await t.waitFor('Add a secret');
    await t.type('e2e_token');
    await t.press('tab');
    await t.type('value-XYZZY-123');
    await t.press('tab', 'tab');
    await t.type('api.example.com');
    await t.press('enter');
    await t.press('ctrl+s');
    await t.waitFor('saved e2e_token');
    await t.press('tab');
    const s = await t.waitFor(/e2e_token +api\.example\.com +[0-9a-f]{6,8} +.* intern/);
    expect(s).not.toContain('XYZZY');
    expect(t.output).not.toContain('XYZZY');
  });

  it('picks a model from the picker and saves it', async () => {
    const t = small();
    await openIntern(t, 'plain');
    await t.press('e');
    await t.waitFor('Settings of plain');
    await t.press('tab', 'tab', 'enter');
    await t.waitFor(/Model \(\d+ of \d+\)/);
    await t.type('gpt-4.1-mini');
    await t.waitFor(/›  ?openai\/gpt-4\.1-mini +1\.05M ctx/);
    await t.press('enter');
    await t.press('ctrl+s');
    await t.waitFor(/model +openai\/gpt-4\.1-mini/);
  });
});
