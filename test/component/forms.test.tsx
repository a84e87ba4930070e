/** The form hook and the confirmation primitive, through the settings form. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { FakeApi, IDS } from './fakeApi.js';
import { renderApp } from './render.js';

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
