/** The config's `keys` and `theme` in the built CLI: taken at the start, or refused in one line. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eSuite } from './suite.js';

const { open } = e2eSuite();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An XDG_CONFIG_HOME holding intern-tui/config.json (and themes/) as given. */
function configHome(config: object, themes: Record<string, object> = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'e2e-config-'));
  dirs.push(home);
  mkdirSync(join(home, 'intern-tui', 'themes'), { recursive: true });
  writeFileSync(join(home, 'intern-tui', 'config.json'), JSON.stringify(config), { mode: 0o600 });
  for (const [name, theme] of Object.entries(themes)) writeFileSync(join(home, 'intern-tui', 'themes', `${name}.json`), JSON.stringify(theme));
  return home;
}

describe('keys and themes from the config file', () => {
  it('draws the remapped keys in the footer and moves by them, in the theme the config names', async () => {
    const t = open({ env: { XDG_CONFIG_HOME: configHome({ keys: { down: ['ctrl+n'], up: ['ctrl+p'] }, theme: 'solarized', profiles: {} }) } });
    await t.ready();
    await t.waitFor('^n/^p move');
    await t.press('\x0e');
    // The cursor on the second row: the first, under the header, is no longer selected.
    await t.waitFor(/NAME.*\n [^\n]*\n›/);
    // Solarized's muted text is bright yellow (base00), never bright black (its dark background).
    expect(t.output).toContain('\x1b[93m');
    expect(t.output).not.toContain('\x1b[90m');
  });

  it('INTERN_TUI_THEME wins over the config, and names a theme file', async () => {
    const t = open({ env: { INTERN_TUI_THEME: 'mine', XDG_CONFIG_HOME: configHome({ theme: 'solarized', profiles: {} }, { mine: { muted: '#ff8700' } }) } });
    await t.ready();
    await t.waitFor('? help');
    // #ff8700 as the terminal takes it: true colour, or chalk's nearest of 256 (214) on xterm-256color.
    expect(t.output).toMatch(/\x1b\[38;(2;255;135;0|5;214)m/);
  });

  it('says in one line that a theme is neither built in nor a file, and draws the default; NO_COLOR wins and reads none', async () => {
    const home = configHome({ profiles: {} });
    const t = open({ env: { INTERN_TUI_THEME: 'nosuch', XDG_CONFIG_HOME: home } });
    await t.ready();
    await t.waitFor('theme "nosuch" is neither built in');
    const plain = open({ env: { INTERN_TUI_THEME: 'nosuch', NO_COLOR: '1', XDG_CONFIG_HOME: home } });
    await plain.ready();
    await plain.waitFor('? help');
    expect(plain.output).not.toContain('nosuch');
    expect(plain.output).not.toMatch(/\x1b\[(3[0-7]|9[0-7]|38;)[0-9;]*m/);
  });

  it('refuses a keys entry naming no binding in one line, with the closest, and does not start', async () => {
    const t = open({ env: { XDG_CONFIG_HOME: configHome({ keys: { delte: ['x'] }, profiles: {} }) } });
    expect(await t.waitForExit()).toBe(2);
    expect(t.output).toMatch(/intern-tui: .*config\.json: keys: no binding "delte" \(did you mean "delete"\?\)/);
  });
});
