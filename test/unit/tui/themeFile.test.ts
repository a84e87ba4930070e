import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { boldColour, BUILTIN_THEMES, chooseTheme, colourOn, theme, themeName } from '../../../src/tui/theme.js';
import { loadTheme, parseThemeFile } from '../../../src/tui/themeFile.js';

const dir = mkdtempSync(join(tmpdir(), 'intern-tui-themes-'));
const themes = join(dir, 'themes');
mkdirSync(themes);
const file = (name: string, text: string) => writeFileSync(join(themes, `${name}.json`), text);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => chooseTheme({ noColor: false }));

describe('which theme', () => {
  it('is INTERN_TUI_THEME, else the config file\'s, else the background\'s', () => {
    expect(themeName({}, undefined)).toBe('dark');
    expect(themeName({ COLORFGBG: '0;15' }, null)).toBe('light');
    expect(themeName({ COLORFGBG: '0;15' }, 'solarized')).toBe('solarized');
    expect(themeName({ INTERN_TUI_THEME: 'High-Contrast ' }, 'solarized')).toBe('high-contrast');
    // One that cannot be a name (a path) is passed over, as if unset (settings.ts warns of it).
    expect(themeName({ INTERN_TUI_THEME: '../x' }, 'solarized')).toBe('solarized');
    expect(themeName({}, '/etc/passwd')).toBe('dark');
  });

  it('loads the built-ins, high contrast for the background the terminal says', () => {
    expect(loadTheme({}, 'solarized', themes)).toEqual({ name: 'solarized', theme: BUILTIN_THEMES.solarized.dark, warning: null });
    expect(loadTheme({ INTERN_TUI_THEME: 'high-contrast' }, null, themes).theme).toBe(BUILTIN_THEMES['high-contrast'].dark);
    expect(loadTheme({ INTERN_TUI_THEME: 'high-contrast', COLORFGBG: '0;15' }, null, themes).theme).toBe(BUILTIN_THEMES['high-contrast'].light);
    expect(loadTheme({ INTERN_TUI_THEME: 'light' }, 'dark', themes).theme.colours.accent).toBe('blue');
    // A file cannot shadow a built-in.
    file('dark', '{"accent": "red"}');
    expect(loadTheme({}, 'dark', themes).theme.colours.accent).toBe('cyan');
  });

  it('loads a theme file: its tokens over its base, names, #rrggbb or null for the terminal\'s own', () => {
    file('mine', JSON.stringify({ base: 'solarized', accent: '#268bd2', muted: 'grey', success: null }));
    const loaded = loadTheme({ INTERN_TUI_THEME: 'mine' }, 'dark', themes);
    expect(loaded.warning).toBeNull();
    expect(loaded.name).toBe('mine');
    expect(loaded.theme.colours).toEqual({ ...BUILTIN_THEMES.solarized.dark.colours, accent: '#268bd2', muted: 'grey', success: undefined });
    // Without a base, the background's built-in.
    file('plain', '{"error": "magentaBright"}');
    expect(loadTheme({ COLORFGBG: '0;15' }, 'plain', themes).theme.colours).toEqual({ ...BUILTIN_THEMES.light.light.colours, error: 'magentaBright' });
  });

  it.each([
    ['typo', '{"acent": "red"}', 'theme "typo" (THEMES/typo.json) has no token "acent" (did you mean "accent"?); the tokens are accent, muted, error, warning, success, selection, badge, onBadge, key, neutral; drawing the dark theme'],
    ['badcolour', '{"muted": "grey50"}', 'theme "badcolour" (THEMES/badcolour.json) "muted": "grey50" is not a colour (a name such as cyan or yellowBright, #rrggbb, or null); drawing the dark theme'],
    ['short', '{"muted": "#fff"}', 'theme "short" (THEMES/short.json) "muted": "#fff" is not a colour (a name such as cyan or yellowBright, #rrggbb, or null); drawing the dark theme'],
    ['badbase', '{"base": "neon"}', 'theme "badbase" (THEMES/badbase.json) "base" must name a built-in theme (dark, light, high-contrast, solarized); drawing the dark theme'],
    ['notjson', '{accent: red}', /^theme "notjson" \(THEMES\/notjson\.json\) is not valid JSON: .*; drawing the dark theme$/],
    ['list', '["red"]', 'theme "list" (THEMES/list.json) is not a JSON object of tokens to colours; drawing the dark theme'],
  ])('refuses a bad file in one line naming what is wrong, and draws the built-in (%s)', (name, text, warning) => {
    file(name, text);
    const loaded = loadTheme({}, name, themes);
    const line = loaded.warning!.replaceAll(themes, 'THEMES');
    if (typeof warning === 'string') expect(line).toBe(warning);
    else expect(line).toMatch(warning);
    expect(line).not.toContain('\n');
    expect(loaded.theme).toBe(BUILTIN_THEMES.dark.dark);
  });

  it('says so of a theme that is neither built in nor a file', () => {
    const loaded = loadTheme({ INTERN_TUI_THEME: 'solarised' }, null, themes);
    expect(loaded.warning!.replaceAll(themes, 'THEMES')).toBe('theme "solarised" is neither built in (dark, light, high-contrast, solarized) nor a file THEMES/solarised.json; drawing the dark theme');
    expect(loaded.theme).toBe(BUILTIN_THEMES.dark.dark);
  });

  it('shows no escape from a hostile file', () => {
    expect(parseThemeFile('{"\\u001b[31mx": "red"}', 'dark')).not.toContain('\x1b');
    expect(parseThemeFile('{"accent": "\\u001b]52;c;x\\u0007"}', 'dark')).not.toMatch(/[\x00-\x1f]/);
  });
});

describe('drawing with a theme', () => {
  it('stresses high contrast\'s errors and warnings in bold, and nothing in the other themes', () => {
    chooseTheme({ noColor: false, theme: BUILTIN_THEMES['high-contrast'].dark });
    expect(theme.error).toBe('redBright');
    expect(boldColour(theme.error)).toBe(true);
    expect(boldColour(theme.warning)).toBe(true);
    expect(boldColour(theme.accent)).toBe(false);
    expect(boldColour(undefined)).toBe(false);
    chooseTheme({ noColor: false, theme: BUILTIN_THEMES.solarized.dark });
    expect(theme.muted).toBe('yellowBright');
    expect(boldColour(theme.error)).toBe(false);
  });

  it('draws no colour and no bold under NO_COLOR, whatever the theme', () => {
    chooseTheme({ noColor: true, theme: BUILTIN_THEMES['high-contrast'].dark });
    expect(colourOn()).toBe(false);
    expect(Object.values(theme).every((v) => v === undefined)).toBe(true);
    expect(boldColour('redBright')).toBe(false);
  });
});
