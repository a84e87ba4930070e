/** The chat prompt (new lines, growing, history, ^r search) and saved conversations in the TUI (restored, new, the list: resume, rename, delete). */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { ChatRequest } from '../../src/contract/chat.js';
import { ConversationStore, sessionsDir } from '../../src/tui/state/conversations.js';
import { historyPath } from '../../src/tui/state/history.js';
import { FakeApi, IDS } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => cleanup());

const K = { ctrlJ: '\n', altEnter: '\x1b\r', shiftEnter: '\x1b[13;2u', ctrlP: '\x10', ctrlN: '\x0e', ctrlR: '\x12', ctrlL: '\x0c', ctrlG: '\x07' };

async function openChat(opts: { api?: FakeApi; stateDir?: string } = {}) {
  const api = opts.api ?? new FakeApi();
  const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner }, options: opts.stateDir ? { stateDir: opts.stateDir } : {} });
  await app.waitFor('Keeps CI green.');
  await app.press('t');
  await app.waitFor('Chat with runner');
  return app;
}

const sent = (api: FakeApi) => api.callsOf('chat').map((c) => (c[1] as ChatRequest).messages.at(-1)!.content);
const promptLines = (frame: string) => frame.split('\n').filter((l) => /^[›↪ ] /.test(l));

describe('the chat prompt', () => {
  it('takes new lines with ^j, alt+enter and shift+enter, and sends them all with enter', async () => {
    const app = await openChat();
    await app.type('one');
    await app.press(K.ctrlJ);
    await app.type('two');
    await app.press(K.altEnter);
    await app.type('three');
    await app.press(K.shiftEnter);
    await app.type('four');
    await app.waitFor((f) => f.includes('› one') && f.includes('  two') && f.includes('  four'));
    await app.press('enter');
    await app.waitFor('Echo');
    expect(sent(app.api)).toEqual(['one\ntwo\nthree\nfour']);
  });

  it('grows to six rows, then scrolls with the cursor, giving the rows back to the transcript', async () => {
    const app = await openChat();
    for (let i = 1; i <= 9; i++) {
      await app.type(`line${i}`);
      if (i < 9) await app.press(K.ctrlJ);
    }
    const frame = await app.waitFor('line9');
    expect(frame).not.toContain('line3');
    expect(frame).toContain('line4');
    await app.press('enter');
    // Sent, the prompt is one row again and the transcript has its rows back.
    const after = await app.waitFor((f) => f.includes('Echo: line1') && /^› {2}a prompt *$/m.test(f));
    expect(after.split('\n').filter((l) => /^line\d$/.test(l)).length).toBeGreaterThanOrEqual(8);
  });

  it('up and ^p recall earlier prompts from the first line, down and ^n go forward to what was typed', async () => {
    const app = await openChat();
    for (const p of ['first prompt', 'second\nprompt']) {
      for (const [i, line] of p.split('\n').entries()) {
        if (i) await app.press(K.ctrlJ);
        await app.type(line);
      }
      await app.press('enter');
      await app.waitFor(`Echo: ${p.split('\n')[0]}`);
    }
    await app.type('draft');
    await app.press('up');
    await app.waitFor((f) => f.includes('› second') && f.includes('  prompt') && !f.includes('› draft'));
    // The recalled prompt's cursor is on its first line: up goes on to the one before.
    await app.press(K.ctrlP);
    await app.waitFor((f) => promptLines(f).some((l) => l.startsWith('› first prompt')));
    await app.press(K.ctrlN);
    await app.waitFor((f) => f.includes('› second'));
    await app.press('down'); // to the last line of "second\nprompt"
    await app.press('down');
    await app.waitFor((f) => promptLines(f).some((l) => l.startsWith('› draft')));
    await app.press('enter');
    await app.waitFor('Echo: draft');
    expect(sent(app.api).at(-1)).toBe('draft');
  });

  it('^r searches earlier prompts backwards as typed; ^r again finds an older match; enter takes it, esc puts back what was there', async () => {
    const app = await openChat();
    for (const p of ['deploy staging', 'check logs', 'deploy production']) {
      await app.type(p);
      await app.press('enter');
      await app.waitFor(`Echo: ${p}`);
    }
    await app.type('typed');
    await app.press(K.ctrlR);
    await app.waitFor('search:');
    await app.type('depl');
    await app.waitFor('deploy production');
    await app.press(K.ctrlR);
    await app.waitFor((f) => f.includes('deploy staging') && f.includes('search:'));
    await app.press('esc');
    await app.waitFor((f) => f.includes('› typed') && !f.includes('search:'));
    await app.press(K.ctrlR);
    await app.type('logs');
    await app.waitFor((f) => f.includes('search:') && f.includes('check logs'));
    await app.press('enter');
    await app.waitFor((f) => f.includes('› check logs') && !f.includes('search:'));
    // Taken into the prompt, not sent: enter sends it.
    expect(sent(app.api)).toHaveLength(3);
    await app.press('enter');
    await app.waitFor(() => sent(app.api).length === 4);
  });

  it('keeps the history per profile in the state folder (0600): a new TUI recalls it', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'intern-tui-prompt-'));
    const first = await openChat({ stateDir });
    await first.type('remember this');
    await first.press('enter');
    await first.waitFor('Echo: remember this');
    first.unmount();
    const file = historyPath(stateDir, null);
    expect(readFileSync(file, 'utf8')).toBe('"remember this"\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = await openChat({ stateDir });
    // The conversation came back with it; the prompt's history too.
    await second.waitFor('Echo: remember this');
    await second.press('up');
    await second.waitFor('› remember this');
  });
});

describe('saved conversations in the TUI', () => {
  it('opening the chat continues the latest conversation; ^l starts a new one; ^g lists both, resumes, renames and deletes', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'intern-tui-convos-'));
    const first = await openChat({ stateDir });
    await first.type('the old topic');
    await first.press('enter');
    await first.waitFor('Echo: the old topic');
    first.unmount();

    const api = new FakeApi();
    const app = await openChat({ api, stateDir });
    await app.waitFor('Echo: the old topic');
    await app.type('more on it');
    await app.press('enter');
    await app.waitFor('Echo: more on it');
    // It went on in the saved session.
    const sessions = new Set(api.callsOf('chat').map((c) => (c[1] as ChatRequest).session_id));
    const store = new ConversationStore(sessionsDir(stateDir), { profile: null, host: '127.0.0.1:9' });
    const saved = store.list(IDS.runner).conversations;
    expect(saved).toHaveLength(1);
    expect(saved[0]!.turns).toBe(2);
    expect(sessions).toEqual(new Set([saved[0]!.sessionId]));

    await app.press(K.ctrlL);
    await app.waitFor((f) => f.includes('a new conversation') && !f.includes('the old topic'));
    await app.type('a fresh start');
    await app.press('enter');
    await app.waitFor('Echo: a fresh start');

    await app.press(K.ctrlG);
    await app.waitFor((f) => f.includes('Conversations with runner') && f.includes('the old topic') && f.includes('a fresh start'));
    const list = app.frame();
    expect(list).toMatch(/WHEN\s+TURNS\s+COST\s+TITLE/);
    expect(list.indexOf('a fresh start')).toBeLessThan(list.indexOf('the old topic'));
    await app.press('down');
    await app.press('r');
    await app.waitFor('› title');
    for (let i = 0; i < 'the old topic'.length; i++) await app.press('backspace');
    await app.type('Renamed topic');
    await app.press('enter');
    await app.waitFor((f) => f.includes('Renamed topic') && !f.includes('› title'));
    await app.press('enter');
    await app.waitFor((f) => f.includes('Chat with runner') && f.includes('Echo: more on it') && !f.includes('a fresh start'));

    await app.press(K.ctrlG);
    await app.waitFor('Conversations with runner');
    await app.press('D');
    await app.waitFor('for good? (y/n)');
    await app.press('y');
    await app.waitFor((f) => f.includes('1 saved'));
    expect(store.list(IDS.runner).conversations.map((c) => c.title)).toEqual(['Renamed topic']);
  });
});
