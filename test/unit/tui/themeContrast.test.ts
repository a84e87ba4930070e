/**
 * The built-in themes' contrast, computed as WCAG 2 does (relative luminance), with the RGB
 * values a terminal's palette gives the 16 ANSI colours: Solarized's (the same 16 values for its
 * Dark and Light variants, which differ only in background and foreground) and xterm's defaults.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES, type Colours, type Token } from '../../../src/tui/theme.js';

/** The ANSI colours in order 0-15, as chalk names them (gray and grey are bright black). */
const ANSI = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const ansiIndex = (name: string): number => (name === 'gray' || name === 'grey' ? 8 : name.endsWith('Bright') ? 8 + ANSI.indexOf(name.slice(0, -6)) : ANSI.indexOf(name));

/** Solarized's terminal palette (ethanschoonover.com/solarized): 8 is base03, 10-12 and 14 its grays, 15 base3. */
const SOLARIZED = [
  '#073642', '#dc322f', '#859900', '#b58900', '#268bd2', '#d33682', '#2aa198', '#eee8d5',
  '#002b36', '#cb4b16', '#586e75', '#657b83', '#839496', '#6c71c4', '#93a1a1', '#fdf6e3',
];
const BASE03 = '#002b36';
const BASE3 = '#fdf6e3';
/** xterm's default palette. */
const XTERM = [
  '#000000', '#cd0000', '#00cd00', '#cdcd00', '#0000ee', '#cd00cd', '#00cdcd', '#e5e5e5',
  '#7f7f7f', '#ff0000', '#00ff00', '#ffff00', '#5c5cff', '#ff00ff', '#00ffff', '#ffffff',
];

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
/** A token's colour as the palette draws it: a name by its ANSI number, a hex as itself. */
const rgb = (colour: string, palette: string[]): string => (colour.startsWith('#') ? colour : palette[ansiIndex(colour)]!);

/** Each drawn token's contrast against a background (the badge's text against the badge). */
function table(colours: Colours, palette: string[], background: string): [Token, number][] {
  return (Object.entries(colours) as [Token, string | undefined][]).flatMap(([token, colour]): [Token, number][] => {
    if (colour === undefined) return [];
    const against = token === 'onBadge' ? rgb(colours.badge!, palette) : background;
    return [[token, Math.round(contrast(rgb(colour, palette), against) * 100) / 100]];
  });
}
const below = (rows: [Token, number][], min: number) => rows.filter(([, ratio]) => ratio < min);

describe('the colours of the built-in themes', () => {
  it('knows its palettes: base03 on base3 is 13.9:1, white on black 21:1', () => {
    expect(contrast(BASE03, BASE3)).toBeCloseTo(13.9, 1);
    expect(contrast('#000000', '#ffffff')).toBe(21);
    expect(ansiIndex('gray')).toBe(8);
    expect(ansiIndex('magentaBright')).toBe(13);
  });

  it('the dark theme\'s muted gray vanishes on Solarized Dark (bright black is its background), which the solarized theme is for', () => {
    expect(table(BUILTIN_THEMES.dark.dark.colours, SOLARIZED, BASE03)).toContainEqual(['muted', 1]);
  });

  it.each([
    ['Solarized Dark (base03)', BASE03],
    ['Solarized Light (base3)', BASE3],
  ])('solarized: every token 3:1 or more on %s', (_name, background) => {
    const rows = table(BUILTIN_THEMES.solarized.dark.colours, SOLARIZED, background);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(below(rows, 3)).toEqual([]);
    // The same theme for both backgrounds.
    expect(BUILTIN_THEMES.solarized.light).toEqual(BUILTIN_THEMES.solarized.dark);
  });

  it.each([
    ['dark', 'black', '#000000'],
    ['light', 'white', '#ffffff'],
  ] as const)('high contrast for a %s background: every token 4.5:1 or more against %s, no gray, errors and warnings bold', (variant, _name, background) => {
    const t = BUILTIN_THEMES['high-contrast'][variant];
    const rows = table(t.colours, XTERM, background);
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(below(rows, 4.5)).toEqual([]);
    expect(Object.values(t.colours)).not.toContain('gray');
    // Muted text is the terminal's own colour: nothing dimmed.
    expect(t.colours.muted).toBeUndefined();
    expect(t.bold).toEqual(['error', 'warning']);
  });

  it('the light theme keeps 3:1 on white for what it draws as text (xterm), where the dark theme\'s yellow does not', () => {
    const text = (c: Colours) => below(table(c, XTERM, '#ffffff'), 3).map(([t]) => t).filter((t) => t !== 'onBadge' && t !== 'badge' && t !== 'success');
    expect(text(BUILTIN_THEMES.light.light.colours)).toEqual([]);
    expect(text(BUILTIN_THEMES.dark.dark.colours)).toContain('warning');
  });
});
