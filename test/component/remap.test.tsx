/** The config's `keys` in the running app: what the keys do, and what the footer and `?` say. */
import { afterEach, describe, expect, it } from 'vitest';
import { remapKeymap } from '../../src/tui/keyRemap.js';
import { KEYMAP, setKeymap } from '../../src/tui/keymap.js';
import { footerOf, renderApp } from './render.js';

const CTRL_N = '\x0e';
const CTRL_P = '\x10';

afterEach(() => setKeymap(KEYMAP));

describe('remapped keys', () => {
  it('move the cursor where the defaults no longer do, and the footer and the help say so', async () => {
    // What runTui does with TuiOptions.keymap before the first render.
    setKeymap(remapKeymap({ down: ['ctrl+n'], up: ['ctrl+p'], help: ['h'] }));
    const app = renderApp();
    await app.waitFor('sleeper');
    const footer = footerOf(app.frame());
    expect(footer).toContain('^n/^p move');
    expect(footer).toContain('h help');
    expect(footer).not.toContain('j/k');
    // j moves nothing now; ^n moves one row (had j moved too, ^n would land on the third).
    await app.press('j', CTRL_N);
    await app.waitFor(/›★ builder/);
    await app.press(CTRL_P, CTRL_N);
    await app.waitFor(/›★ builder/);
    // ? is no longer the help's key (^p after it moves the list's cursor, not the help's); h is.
    await app.press('?', CTRL_P);
    const list = await app.waitFor(/›★ runner/);
    expect(list).not.toContain('move down / up');
    await app.press('h');
    const help = await app.waitFor(/move down \/ up/);
    expect(help).toMatch(/\^n\/\^p +move down \/ up/);
    expect(help).toMatch(/h +help/);
  });

  it('without a remapping, the defaults', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    expect(footerOf(app.frame())).toContain('j/k move');
    await app.press('j');
    await app.waitFor(/›★ builder/);
  });
});
