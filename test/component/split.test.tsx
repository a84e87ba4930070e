/** The split view: the chat beside the terminal pane, the focus key, the split's keys, stacking when narrow. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { FakeApi, IDS } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

/** The column of the rule between the panes on the frame's first row, side by side. */
const ruleAt = (frame: string): number => frame.split('\n').find((line) => line.includes('Chat with'))!.indexOf('│');

async function split(columns: number) {
  const api = new FakeApi();
  const runner = api.interns.find((i) => i.id === IDS.runner)!;
  const app = renderApp({ api, initial: { name: 'split', intern: runner } });
  app.resize({ columns, rows: 30 });
  await app.waitFor('Chat with runner');
  return app;
}

describe('the split view', () => {
  it('shows the chat on the left and the terminal pane on the right, and names the focus key in the footer', async () => {
    const app = await split(140);
    const f = await app.waitFor((s) => s.includes('intern runner') && /F6 other pane/.test(footerOf(s)));
    expect(ruleAt(f)).toBe(70);
    expect(footerOf(f)).toMatch(/^F6 other pane {2}F7\/F8 resize {2}enter send/);
  });

  it('sends typed keys to the chat while it has focus, and not once F6 gave the terminal the keys', async () => {
    const app = await split(140);
    await app.type('hi');
    await app.waitFor(/^› ?hi/m);
    await app.press('f6');
    // The terminal has the keys: the footer has only the split's, and the chat's prompt is left alone.
    await app.waitFor((s) => footerOf(s).includes('F6 other pane') && !footerOf(s).includes('enter send') && !footerOf(s).includes('F7/F8'));
    await app.type('xyz');
    await app.press('f6');
    await app.waitFor((s) => footerOf(s).includes('enter send'));
    await app.type('!');
    const f = await app.waitFor(/^› ?hi!/m);
    expect(f).not.toContain('xyz');
  });

  it('moves the split with F7 and F8 while the chat has focus, within bounds', async () => {
    const app = await split(140);
    await app.waitFor((s) => ruleAt(s) === 70);
    await app.press('f8');
    await app.waitFor((s) => ruleAt(s) === 83);
    for (let i = 0; i < 5; i++) await app.press('f8');
    await app.waitFor((s) => ruleAt(s) === 111);
    await app.press('f7');
    await app.waitFor((s) => ruleAt(s) === 97);
  });

  it('stacks the panes on a narrow terminal: the chat on top, a rule, the terminal below', async () => {
    const app = await split(100);
    const f = await app.waitFor((s) => /^─{100}$/m.test(s) && s.includes('intern runner'));
    const lines = f.split('\n');
    expect(lines.findIndex((l) => l.includes('Chat with'))).toBeLessThan(lines.findIndex((l) => l.startsWith('intern runner')));
    expect(f).not.toMatch(/Chat with.*│/);
  });

  it(':split NAME opens it from the palette, and w from a running intern\'s details (not a stopped one\'s)', async () => {
    const app = renderApp();
    app.resize({ columns: 140, rows: 30 });
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('split runner');
    await app.press('enter');
    await app.waitFor((s) => s.includes('Chat with runner') && s.includes('intern runner'));
    await app.press('esc');
    await app.waitFor('sleeper');
    await app.press('/');
    await app.type('sleeper');
    await app.press('enter', 'enter');
    let f = await app.waitFor(/id {2,}aaaaaaaa-0000-4000-8000-000000000005/);
    expect(footerOf(f)).not.toContain('side by side');
    // w does nothing on a stopped intern: the next key is the details' own.
    await app.press('w');
    await app.press('e');
    await app.waitFor('Settings of sleeper');
    await app.press('esc');
    await app.waitFor(/id {2,}aaaaaaaa-0000-4000-8000-000000000005/);
    await app.press(':');
    await app.type('open runner');
    await app.press('enter');
    f = await app.waitFor(/id {2,}aaaaaaaa-0000-4000-8000-000000000001/);
    expect(footerOf(f)).toContain('w side by side');
    await app.press('w');
    await app.waitFor((s) => s.includes('Chat with runner') && s.includes('intern runner'));
  });

  it('says in the terminal pane that a stopped intern has no terminal, the chat beside it', async () => {
    const api = new FakeApi();
    const sleeper = api.interns.find((i) => i.id === IDS.sleeper)!;
    const app = renderApp({ api, initial: { name: 'split', intern: sleeper } });
    app.resize({ columns: 140, rows: 30 });
    const f = await app.waitFor('sleeper is not running: no terminal to show');
    expect(f).toContain('Chat with sleeper');
  });

  it('opens from the intern list with w on a running intern', async () => {
    const app = renderApp();
    app.resize({ columns: 140, rows: 30 });
    await app.waitFor((s) => s.includes('sleeper') && /› ?★? runner /.test(s));
    await app.press('w');
    await app.waitFor((s) => s.includes('Chat with runner') && s.includes('intern runner'));
  });
});
