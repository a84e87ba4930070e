/** The chat transcript as a place to move in: pgup into it, the cursor, turns, search, copy, fold, and back to the prompt. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { conversationOf, newTurn, type Turn } from '../../src/tui/screens/chatModel.js';
import { FakeApi, IDS } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

const PGUP = '\x1b[5~';

function turns(): Turn[] {
  return [
    {
      ...newTurn('first'),
      tools: [{ index: 0, id: 't1', name: 'read_file', args: '{"path":"/etc/hosts","limit":10}' }],
      answer: 'alpha answer\n\n```sh\necho hi\n```',
      status: 'done',
    },
    { ...newTurn('second'), answer: 'beta answer', status: 'done' },
  ];
}

async function openChat() {
  const api = new FakeApi();
  conversationOf(api, IDS.runner).turns.push(...turns());
  const app = renderApp({ api, initial: { name: 'chat', id: IDS.runner } });
  app.resize({ columns: 80, rows: 24 });
  await app.waitFor('beta answer');
  return app;
}

/** The text of the last OSC 52 copy in the frames written. */
function copied(frames: string[]): string | undefined {
  const last = frames.filter((f) => f.includes('\x1b]52;c;')).at(-1);
  const b64 = last && /\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/.exec(last)?.[1];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString();
}

describe('the transcript', () => {
  it('pgup leaves the prompt for it; the footer then names its keys, and esc goes back', async () => {
    const app = await openChat();
    expect(footerOf(app.frame())).toContain('pgup transcript');
    await app.press(PGUP);
    let f = await app.waitFor((s) => footerOf(s).includes('j/k move'));
    expect(footerOf(f)).toContain('[/] turns');
    expect(footerOf(f)).toContain('/ search');
    await app.press('esc');
    f = await app.waitFor((s) => footerOf(s).includes('enter send'));
    // Still on the chat: esc in the transcript is back to the prompt, not off the screen.
    expect(f).toContain('Chat with runner');
  });

  it('moves by turn with [ and ], and y copies the message under the cursor', async () => {
    const app = await openChat();
    await app.press(PGUP);
    await app.waitFor((s) => footerOf(s).includes('j/k move'));
    await app.press('g', 'y');
    await app.waitFor('copied the prompt');
    expect(copied(app.frames)).toBe('first');
    await app.press(']', 'y');
    await app.waitFor(() => copied(app.frames) === 'second');
    await app.press('j', 'y');
    await app.waitFor(() => copied(app.frames) === 'beta answer');
    await app.press('[', '[', 'j', 'j', 'y');
    await app.waitFor(() => copied(app.frames)?.startsWith('alpha answer') === true);
  });

  it('searches with / (the matches counted in the header, n/N between them), and c copies the code block found', async () => {
    const app = await openChat();
    await app.press(PGUP);
    await app.waitFor((s) => footerOf(s).includes('j/k move'));
    await app.press('/');
    await app.waitFor(/search the transcript \(enter searches\)/);
    await app.type('ECHO');
    await app.press('enter');
    await app.waitFor('/ECHO 1 of 1 (n/N)');
    await app.press('c');
    await app.waitFor('copied the code block');
    expect(copied(app.frames)).toBe('echo hi');
    // Two matches of "answer": n goes to the next, wrapping round; N back.
    await app.press('\x06'); // ctrl+f
    await app.waitFor(/^› \/ +ECHO/m);
    for (let i = 0; i < 4; i++) await app.press('backspace');
    await app.type('answer');
    await app.press('enter');
    await app.waitFor(/\/answer \d of 2/);
    await app.press('n');
    await app.press('y');
    const first = await app.waitFor(/\/answer \d of 2/);
    const at = /\/answer (\d) of 2/.exec(first)![1];
    await app.press('n');
    await app.waitFor((s) => new RegExp(`/answer ${at === '1' ? 2 : 1} of 2`).test(s));
    await app.press('c');
    await app.waitFor('no code block under the cursor');
  });

  it('enter expands a tool call to its whole input and folds it again', async () => {
    const app = await openChat();
    expect(app.frame()).not.toContain('"path": "/etc/hosts"');
    await app.press(PGUP);
    await app.waitFor((s) => footerOf(s).includes('j/k move'));
    await app.press('g', 'j', 'enter');
    let f = await app.waitFor('"path": "/etc/hosts"');
    expect(f).toContain('▾ ⚙ read_file');
    expect(f).toMatch(/^ +"limit": 10$/m);
    await app.press('enter');
    f = await app.waitFor((s) => !s.includes('"path": "/etc/hosts"'));
    expect(f).toContain('⚙ read_file {"path":"/etc/hosts","limit":10}');
  });

  it('a typed key goes back to the prompt, into it', async () => {
    const app = await openChat();
    await app.press(PGUP);
    await app.waitFor((s) => footerOf(s).includes('j/k move'));
    await app.type('xy');
    await app.waitFor(/^› xy *$/m);
    expect(footerOf(app.frame())).toContain('enter send');
  });
});
