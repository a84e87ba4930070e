/** The form hook and the confirmation primitive, through the settings form. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { FakeApi, IDS } from './fakeApi.js';
import { pasteChunk } from '../../src/tui/keyParse.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => cleanup());

describe('form hook', () => {
  it('esc leaves an unedited form at once, and asks before discarding edits (n keeps them, y leaves)', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor(IDS.runner);
    await app.press('e');
    await app.waitFor('Settings of runner');
    await app.press('esc');
    await app.waitFor((f) => !f.includes('Settings of') && f.includes(IDS.runner));
    await app.press('e');
    await app.waitFor('no changes yet');
    await app.type('-x');
    await app.waitFor('unsaved changes');
    await app.press('esc');
    await app.waitFor('Discard your changes? (y/n)');
    await app.press('n');
    let f = await app.waitFor((s) => !s.includes('Discard your changes'));
    expect(f).toContain('runner-x');
    await app.press('esc');
    await app.waitFor('Discard your changes? (y/n)');
    await app.press('y');
    f = await app.waitFor((s) => !s.includes('Settings of') && s.includes(IDS.runner));
    expect(api.callsOf('updateIntern')).toHaveLength(0);
  });

  it('keys typed straight after e land in the form, drawn from the intern at hand; the fresh copy updates only the fields not edited', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor(/^›.*runner /m);
    // The service has a newer description than the list showed, and answers slowly.
    api.interns.find((i) => i.id === IDS.runner)!.description = 'Changed elsewhere.';
    const get = api.getIntern.bind(api);
    api.getIntern = async (id) => {
      await new Promise((r) => setTimeout(r, 200));
      return get(id);
    };
    await app.press('e', '-', 'x');
    const f = await app.waitFor((s) => s.includes('runner-x') && s.includes('Changed elsewhere.'));
    expect(f).toContain('unsaved changes');
    await app.press('\x13'); // ^s
    await app.waitFor(() => api.callsOf('updateIntern').length === 1);
    // Only the edit is sent: the description came from the service, not from the user.
    expect(api.callsOf('updateIntern')[0]![1]).toEqual({ name: 'runner-x' });
  });

  it('a form drawn from the list whose fresh copy cannot be read says so under it', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor(/^›.*runner /m);
    api.getIntern = async () => {
      throw new ApiError(404, 404, 'not_found', false, 'Intern not found', 'GET /interns/{internId}');
    };
    await app.press('e');
    const f = await app.waitFor('the latest copy could not be read');
    expect(f).toContain('Settings of runner');
    expect(f).toContain('Intern not found');
  });

  it('the BYOK edit form takes keys typed straight after e too', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor(/^›.*Production OpenAI/m);
    const get = api.getByok.bind(api);
    api.getByok = async (id) => {
      await new Promise((r) => setTimeout(r, 200));
      return get(id);
    };
    await app.press('e', 'Z', 'Z');
    await app.waitFor((s) => s.includes('Production OpenAIZZ') && s.includes('unsaved changes'));
  });

  it('tab cycles the fields both ways, and a refused submit focuses the first marked field', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    await app.type('-X');
    await app.press('shift+tab');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    // The focus went back to the name: typing edits it.
    await app.press('backspace', 'backspace');
    await app.waitFor((s) => !/must|lowercase/.test(s));
    await app.press('tab', 'tab', 'tab', 'tab');
    await app.type('z');
    await app.waitFor('runnerz');
    expect(api.callsOf('updateIntern')).toHaveLength(0);
  });
});

describe('a failed save', () => {
  it('on a short terminal keeps the error box whole, its key to try again included, however long the message', async () => {
    const api = new FakeApi();
    api.updateIntern = async () => {
      throw new ApiError(503, 503, null, true, `Upstream unavailable: ${'the settings store answered with a page of its own '.repeat(12)}end`, 'PATCH /interns/{internId}');
    };
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.runner } });
    app.resize({ columns: 80, rows: 16 });
    await app.waitFor('Settings of runner');
    await app.type('-x');
    await app.press('ctrl+s');
    const f = await app.waitFor('Upstream unavailable');
    expect(f).toContain('^s: try again');
    expect(f).toMatch(/^╰─+╯$/m);
    // The field being edited is still on screen.
    expect(f).toContain('runner-x');
  });

  it('r retries a form\'s failed load, on the settings and the BYOK form alike, and is typed once there is a field', async () => {
    for (const [route, method, loaded] of [
      [{ name: 'settings', id: IDS.runner }, 'getIntern', 'Settings of runner'],
      [{ name: 'byokForm', id: 'c2' }, 'getByok', 'Edit anthropic credential'],
    ] as const) {
      const api = new FakeApi();
      const real = api[method].bind(api) as (...a: unknown[]) => Promise<unknown>;
      let calls = 0;
      (api as unknown as Record<string, unknown>)[method] = async (...a: unknown[]) => {
        if (++calls === 1) throw new ApiError(503, 503, null, true, 'The store is unavailable', method);
        return real(...a);
      };
      const app = renderApp({ api, initial: route });
      await app.waitFor('The store is unavailable');
      await app.press('r');
      await app.waitFor(loaded);
      expect(calls).toBe(2);
      cleanup();
    }
  });

  it('names the key that retries where the error is shown: r on a list, ^s in a form (where r is typed)', async () => {
    const failing = new FakeApi();
    failing.listInterns = async () => {
      throw new ApiError(500, 500, 'internal', true, 'The store is unavailable', 'GET /interns');
    };
    const list = renderApp({ api: failing });
    let f = await list.waitFor('A transient failure');
    expect(f).toContain('r: try again');
    expect(f).not.toContain('Press r');
    cleanup();

    const api = new FakeApi();
    api.updateByok = async () => {
      throw new ApiError(500, 500, 'internal', true, 'The store is unavailable', 'PATCH /byok/{id}');
    };
    const form = renderApp({ api, initial: { name: 'byokForm', id: 'c2' } });
    await form.waitFor('Edit anthropic credential');
    await form.type('!');
    await form.press('ctrl+s');
    f = await form.waitFor('A transient failure');
    expect(f).toContain('^s: try again');
    expect(f).not.toMatch(/Press|\br: try again/);
  });
});

describe('a form while it saves', () => {
  it('takes no typing until the answer comes, so what is on screen is what was sent', async () => {
    for (const [route, method, loaded, spinner] of [
      [{ name: 'settings', id: IDS.runner }, 'updateIntern', 'Settings of runner', 'Saving'],
      [{ name: 'byokForm', id: 'c2' }, 'updateByok', 'Edit anthropic credential', 'Saving'],
    ] as const) {
      const api = new FakeApi();
      let refuse: (e: unknown) => void = () => undefined;
      let sent = 0;
      (api as unknown as Record<string, unknown>)[method] = () => {
        sent++;
        return new Promise((_, reject) => (refuse = reject));
      };
      const app = renderApp({ api, initial: route });
      await app.waitFor(loaded);
      await app.type('-x');
      await app.press('ctrl+s');
      await app.waitFor(spinner);
      await app.type('zz');
      refuse(new ApiError(503, 503, null, true, 'The store is unavailable', method));
      const f = await app.waitFor('The store is unavailable');
      expect(f).toContain('-x');
      expect(f).not.toContain('-xzz');
      expect(sent).toBe(1);
      cleanup();
    }
  });

  it('sends nothing for an edit that changes nothing, as the settings form does', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byokForm', id: 'c2' } });
    await app.waitFor('Edit anthropic credential');
    await app.press('ctrl+s');
    await app.waitFor('nothing changed');
    expect(api.callsOf('updateByok')).toHaveLength(0);
  });

  it('a rotation cancelled says so, in place of the flash about the key field that is gone', async () => {
    const app = renderApp({ initial: { name: 'byokForm', id: 'c2' } });
    await app.waitFor('Edit anthropic credential');
    await app.press('ctrl+r');
    await app.waitFor('› new key');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    await app.press('ctrl+r');
    await app.waitFor((s) => !s.includes('new key') && s.includes('rotation cancelled: the stored key stays') && !s.includes('fix the marked'));
  });

  it('a rotation started again asks for the key anew: no "required" before anything is typed', async () => {
    const app = renderApp({ initial: { name: 'byokForm', id: 'c2' } });
    await app.waitFor('Edit anthropic credential');
    await app.press('ctrl+r');
    await app.waitFor('› new key');
    await app.press(pasteChunk('sk-ant-wrong'));
    await app.waitFor('•');
    await app.press('\x15'); // ^u: the key cleared, the field edited
    await app.waitFor('the key is required');
    await app.press('ctrl+r');
    await app.waitFor((s) => !s.includes('new key'));
    await app.press('ctrl+r');
    const f = await app.waitFor('› new key');
    expect(f).not.toContain('the key is required');
  });

  it('saves a credential whose region came from its key without asking for the key again', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byokForm', id: 'c1' } });
    await app.waitFor('Edit openai credential');
    await app.type(' 2');
    await app.press('ctrl+s');
    await app.waitFor('saved');
    expect(api.callsOf('updateByok')).toEqual([['c1', { name: 'Production OpenAI 2' }]]);
  });
});

describe('a one-line field holding a line break', () => {
  it('draws the break as one ⏎ cell on its row, the counter beside it, not on a second row', async () => {
    const api = new FakeApi();
    api.interns.find((i) => i.id === IDS.sleeper)!.description = 'line one\r\nline two';
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.sleeper } });
    app.resize({ columns: 80, rows: 24 });
    const f = await app.waitFor('Settings of sleeper');
    expect(f).toMatch(/^ {2}description +line one⏎line two +17\/2000$/m);
    expect(f).toMatch(/^ {2}description.*\n {2}model/m);
  });
});

describe('the BYOK form on a short terminal', () => {
  it('scrolls its fields with the focus and says how many are above and below', async () => {
    const app = renderApp({ initial: { name: 'byokForm', id: 'c1' } });
    Object.assign(app.stdout, { rows: 15 });
    app.stdout.emit('resize');
    const top = await app.waitFor((s) => s.includes('› name') && /↓ \d+ more fields/.test(s));
    expect(top).not.toContain('required');
    for (const next of ['api key hashes', 'models', 'user ids', 'declared region', 'declared zdr', 'disabled', 'byok only', 'fallback', 'required']) {
      await app.press('tab');
      await app.waitFor(`› ${next}`);
    }
    const bottom = app.frame();
    expect(bottom).toMatch(/↑ \d+ more fields/);
    expect(bottom).not.toMatch(/↓ \d+ more field/);
    expect(bottom.split('\n').length).toBeLessThanOrEqual(15);
  });

  it('at 50 columns, rotating, keeps the focused field on screen to the last: the title and provider lines are one row each', async () => {
    const app = renderApp({ initial: { name: 'byokForm', id: 'c2' } });
    app.resize({ columns: 50, rows: 15 });
    await app.waitFor((s) => s.includes('Edit anthropic') && (s.split('\n')[1] ?? '').length === 50);
    await app.press('ctrl+r');
    await app.waitFor('› new key');
    for (const next of ['name', 'api key hashes', 'models', 'user ids', 'declared region', 'declared zdr', 'disabled', 'byok only', 'fallback', 'required']) {
      await app.press('tab');
      const f = await app.waitFor(`› ${next}`);
      expect(f.split('\n').length, next).toBeLessThanOrEqual(15);
    }
  });

  it('counts the lines of an error wrapped under a value, so the window fits with its line of what is below', async () => {
    const app = renderApp({ initial: { name: 'byokForm' } });
    app.resize({ columns: 60, rows: 14 });
    await app.waitFor((s) => s.includes('› provider') && (s.split('\n')[1] ?? '').length === 60);
    for (let i = 0; i < 5; i++) await app.press('tab');
    await app.waitFor('› models');
    await app.type('bad model, another bad one');
    // The error takes three lines under the value at 60 columns: counted as such, the window leaves
    // room for the line saying what is below, right above the footer.
    const f = await app.waitFor((s) => s.includes(':variant') && /↓ \d+ more fields\n\^s create {2}tab next field/.test(s));
    expect(f.split('\n').length).toBeLessThanOrEqual(14);
  });
});

describe('the BYOK form\'s choices', () => {
  it('wraps the focused choice\'s help in full under itself, over no other field', async () => {
    const app = renderApp({ initial: { name: 'byokForm' } });
    app.resize({ columns: 80, rows: 30 });
    await app.waitFor('New BYOK credential');
    for (let i = 0; i < 8; i++) await app.press('tab');
    // Ink measured the help as one line and drew its second over the next field: "retention)" was lost.
    const f = await app.waitFor('› declared zdr');
    expect(f).toMatch(/declares zero\n {25}retention\)\n {2}disabled/);
    expect(f).toMatch(/^ {2}declared region {2}unset Only global/m);
  });
});

describe('the BYOK form models field', () => {
  it('splits on commas only and refuses an entry that is not a model slug, sending nothing until it is fixed', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('openai');
    await app.press('enter');
    await app.type('sk-x');
    await app.press('tab', 'tab', 'tab', 'tab');
    await app.waitFor('› models');
    const typed = 'bad model, openai/gpt-4o';
    await app.type(typed);
    await app.waitFor('"bad model" must look like author/slug');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    expect(api.callsOf('createByok')).toHaveLength(0);
    for (let i = 0; i < typed.length; i++) await app.press('backspace');
    await app.type(' anthropic/claude-sonnet-4 ,openai/gpt-4o:free, ');
    await app.waitFor((s) => !s.includes('must look like'));
    await app.press('ctrl+s');
    await app.waitFor(() => api.callsOf('createByok').length === 1);
    expect(api.callsOf('createByok')[0]![0]).toMatchObject({ allowed_models: ['anthropic/claude-sonnet-4', 'openai/gpt-4o:free'] });
  });
});

describe('the settings form on a short terminal', () => {
  it('gives the instructions what the pane leaves, so the box and the status line stay on screen', async () => {
    const api = new FakeApi();
    api.interns.find((i) => i.id === IDS.runner)!.instructions = Array.from({ length: 9 }, (_, i) => `step ${i + 1}`).join('\n');
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.runner } });
    app.resize({ rows: 16 });
    // 16 rows: a pane of 12, four lines of instructions; at six the box's last rule and the status line fell off.
    // The box shows the lines around the cursor, at the end: steps 6 to 9.
    const f = await app.waitFor((s) => s.includes('no changes yet') && s.includes('step 6'));
    expect(f).toMatch(/└─+┘/);
    expect(f).not.toContain('step 5');
    await app.press('tab', 'tab', 'tab');
    await app.waitFor(/› instructions/);
  });

  it('scrolls its fields with the focus on a pane too short for them all, so the field being edited stays on screen', async () => {
    const app = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    app.resize({ columns: 80, rows: 11 });
    // 11 rows: a pane of 7, the title and the status line, five rows for the fields: the three
    // one-line fields, or the instructions' box with one line. Before, the box fell off the pane.
    let f = await app.waitFor((s) => s.includes('› name') && s.includes('no changes yet'));
    expect(f).toMatch(/^ {2}↓ 1 more field$/m);
    expect(f).toContain('model');
    expect(f).not.toContain('┌');
    await app.press('tab', 'tab', 'tab');
    f = await app.waitFor((s) => s.includes('› instructions') && /└─+┘/.test(s));
    expect(f).toMatch(/^ {2}↑ 3 more fields$/m);
    expect(f).toContain('no changes yet');
    expect(f.split('\n').length).toBeLessThanOrEqual(11);
    await app.type('X');
    await app.waitFor((s) => s.includes('· unsaved changes') && s.includes('will send: instructions') && /│[^│]*X/.test(s));
    // A row shorter: the box fills the fields' rows alone, without the line about the others.
    app.resize({ rows: 10 });
    f = await app.waitFor((s) => !s.includes('more fields') && s.includes('will send: instructions'));
    expect(f).toMatch(/└─+┘/);
    await app.press('tab');
    await app.waitFor((s) => s.includes('› name') && /↓ 1 more field/.test(s));
  });
});

describe("the forms' footer", () => {

  it('offers ^e only on a field $EDITOR edits', async () => {
    const settings = renderApp({ initial: { name: 'settings', id: IDS.runner } });
    await settings.waitFor((f) => f.includes('› name') && footerOf(f).startsWith('^s save  tab next field'));
    expect(footerOf(settings.frame())).not.toContain('^e');
    await settings.press('tab');
    await settings.waitFor((f) => f.includes('› description') && footerOf(f).includes('^e $EDITOR'));
    await settings.press('tab');
    await settings.waitFor((f) => f.includes('› model') && !footerOf(f).includes('^e'));
    cleanup();
    const byok = renderApp({ initial: { name: 'byokForm' } });
    const f = await byok.waitFor((s) => s.includes('› provider') && footerOf(s).startsWith('^s create  tab next field'));
    expect(footerOf(f)).not.toContain('^e');
    // The header says which form it is.
    expect(f.split('\n')[0]).toContain('› New credential');
    cleanup();
    const edit = renderApp({ initial: { name: 'byokForm', id: 'c1' } });
    await edit.waitFor((s) => (s.split('\n')[0] ?? '').includes('› Edit credential'));
  });
});
