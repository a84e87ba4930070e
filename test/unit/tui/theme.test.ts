import { afterEach, describe, expect, it } from 'vitest';
import { backgroundFromEnv, chooseTheme, colourOn, statusStyle, theme } from '../../../src/tui/theme.js';

afterEach(() => chooseTheme({ noColor: false }));

describe('the theme', () => {
  it('reads the background from INTERN_TUI_THEME, else from COLORFGBG, else takes it for dark', () => {
    expect(backgroundFromEnv({})).toBe('dark');
    expect(backgroundFromEnv({ INTERN_TUI_THEME: 'light' })).toBe('light');
    expect(backgroundFromEnv({ INTERN_TUI_THEME: ' Light ' })).toBe('light');
    expect(backgroundFromEnv({ COLORFGBG: '0;15' })).toBe('light');
    expect(backgroundFromEnv({ COLORFGBG: '0;default;7' })).toBe('light');
    expect(backgroundFromEnv({ COLORFGBG: '15;0' })).toBe('dark');
    expect(backgroundFromEnv({ COLORFGBG: '0;15', INTERN_TUI_THEME: 'dark' })).toBe('dark');
    // A value it does not know leaves the choice to the terminal.
    expect(backgroundFromEnv({ COLORFGBG: '0;15', INTERN_TUI_THEME: 'solarized' })).toBe('light');
  });

  it('on a light background draws no yellow, cyan or white text: what they meant keeps its contrast', () => {
    chooseTheme({ noColor: false, background: 'light' });
    // (The badge's text is on the badge's own background.)
    const drawn = Object.entries(theme).filter(([k]) => k !== 'badge' && k !== 'onBadge').map(([, v]) => v);
    for (const unreadable of ['yellow', 'cyan', 'white']) expect(drawn).not.toContain(unreadable);
    expect(theme.warning).toBe('magenta');
    expect(theme.accent).toBe('blue');
    chooseTheme({ noColor: false, background: 'dark' });
    expect(theme.warning).toBe('yellow');
    expect(theme.accent).toBe('cyan');
  });

  it('draws an unknown status in the terminal\'s own colour, and the no-colour theme draws none', () => {
    expect(theme[statusStyle('hibernating').tone]).toBeUndefined();
    expect(theme[statusStyle('running').tone]).toBe('green');
    chooseTheme({ noColor: true, background: 'light' });
    expect(colourOn()).toBe(false);
    expect(Object.values(theme).every((v) => v === undefined)).toBe(true);
  });
});
