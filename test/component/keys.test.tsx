/** Keys through the whole pipeline as the app sees them: pastes, code points, masked fields. */
import { describe, expect, it } from 'vitest';
import { pasteChunk } from '../../src/tui/keyParse.js';
import { FakeApi, intern } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

describe('pastes and text fields', () => {
  it('a pasted "byok\\r" in the palette is text: it does not run', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.waitFor(/│ › :/);
    // What the stdin splitter makes of ESC[200~byok\r ESC[201~.
    await app.press(pasteChunk('byok\r'));
    const f = await app.waitFor(/: +byok /);
    expect(f).toMatch(/│ › :/);
    expect(f).toContain('sleeper');
    await app.press('enter');
    await app.waitFor('Production OpenAI');
  });

  it('a paste outside a text field is dropped, not run as keys', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(pasteChunk('b'));
    await app.press('j');
    await app.waitFor(/›★ builder/);
    expect(app.frame()).not.toContain('Production OpenAI');
  });

  it('backspace takes an emoji whole; ← moves over it as one', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.waitFor(/│ › :/);
    await app.type('a😀b');
    await app.press('\x1b[D', '\x1b[D', 'X');
    await app.waitFor(/: +aX😀b/);
    await app.press('\x1b[C', 'backspace');
    const f = await app.waitFor(/: +aXb/);
    expect(f).not.toMatch(/[\ud800-\udfff]/);
  });

  it("a masked field's cursor stays at the end: ← does not move it, typing appends", async () => {
    const app = renderApp({ initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('openai');
    await app.press('enter');
    await app.waitFor(/› key/);
    await app.type('sk-abc');
    await app.press('\x1b[D', '\x1b[D', 'd');
    await app.waitFor(/› key +•••••••(?!•)/);
    await app.press('ctrl+s');
    await app.waitFor(() => app.api.callsOf('createByok').length > 0);
    // Had the invisible cursor moved, "d" would sit inside the key.
    expect((app.api.callsOf('createByok')[0]![0] as { key: string }).key).toBe('sk-abcd');
  });
});

describe('the command palette', () => {
  it('tab completes the command, then the intern\'s name from the first page of interns, as far as the names agree', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.waitFor(/│ › :/);
    expect(footerOf(app.frame())).toContain('tab complete');
    await app.type('att');
    await app.press('tab');
    await app.waitFor(/› : attach +│/);
    // The names are asked for once, on the first tab that needs them.
    const before = app.api.callsOf('listInterns').length;
    await app.type('b');
    await app.press('tab');
    // The space tab added is there ("attach b"); builder and broken share only the "b", so the line
    // stays and the palette lists them in place of the commands, sorted as a shell lists them.
    await app.waitFor((s) => /› : attach b +│/.test(s) && /│ broken, builder/.test(s) && !s.includes('profile PROFILE'));
    await app.type('r');
    await app.press('tab');
    await app.waitFor(/› : attach broken +│/);
    expect(app.api.callsOf('listInterns').length).toBe(before + 1);
    // Typed after the completion, at the end of the line.
    await app.press('backspace');
    await app.waitFor(/› : attach broke +│/);
    await app.press('esc');
    await app.press(':');
    await app.type('b');
    await app.press('tab');
    await app.waitFor(/› : byok +│/);
  });

  it('lists as many names as two lines hold, and how many more there are', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 40; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api });
    app.resize({ columns: 60, rows: 24 });
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('open ');
    await app.press('tab');
    const f = await app.waitFor(/\+\d+ more/);
    const more = Number(/\+(\d+) more/.exec(f)![1]);
    const shown = f.split('\n').filter((l) => /^│ .*(bulk|runner|sleeper)/.test(l));
    expect(shown.length).toBeLessThanOrEqual(2);
    expect(more).toBeGreaterThan(20);
    // Typing narrows them: all of the few left are listed.
    await app.type('bulk-3');
    await app.waitFor((s) => s.includes('bulk-3, bulk-30') && !/\+\d+ more/.test(s));
  });


  it('never parts a command from its argument when its list wraps', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    for (let columns = 50; columns <= 110; columns++) {
      app.resize({ columns });
      // The palette drawn at this width: its border as wide as the terminal.
      const f = await app.waitFor((s) => /│ › :/.test(s) && s.split('\n').some((l) => l.startsWith('╭') && [...l].length === columns));
      // A line ending in a command and the next starting with its argument (at 100 columns: "profile" / "PROFILE").
      expect(f, `${columns} columns`).not.toMatch(/\b(attach|chat|profile) *│\n│ *(NAME|PROFILE)\b/);
      for (const arg of ['NAME', 'PROFILE']) expect(f).toMatch(new RegExp(`(attach|chat|profile).${arg}`));
    }
  });
});

describe('the command palette over a long list', () => {
  it('shows nothing of the list in its own rows: the rows below the pane stay clipped', async () => {
    const api = new FakeApi();
    const base = api.interns[0]!;
    for (let i = 0; i < 25; i++) api.interns.push({ ...base, id: `x${i}`, name: `extra-${i}`, status: i % 2 ? 'stopped' : 'running' });
    const app = renderApp({ api });
    app.resize({ columns: 100, rows: 30 });
    await app.waitFor('extra-3');
    await app.press(':');
    const f = await app.waitFor(/│ › :/);
    // Ink clips by the innermost box alone: a status cell's own clipping box let its row, below the
    // pane, through onto the palette's input line ("│ › :      ○ stopped").
    expect(f).toMatch(/^│ › : +│$/m);
    expect(f.split('\n').filter((l) => /stopped|running/.test(l) && l.startsWith('│'))).toEqual([]);
  });
});
