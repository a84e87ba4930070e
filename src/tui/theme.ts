/**
 * Semantic colours: screens name a meaning (a token), never a colour. The
 * no-colour theme (chosen by NO_COLOR or --no-color, see `chooseTheme`) maps
 * every token to undefined, so nothing draws a colour escape; bold, inverse and
 * symbols still carry the meaning.
 */
const COLOURS = {
  accent: 'cyan',
  muted: 'gray',
  error: 'red',
  warning: 'yellow',
  success: 'green',
  selection: 'blue',
  badge: 'magenta',
  /** Text on the badge's background. */
  onBadge: 'black',
  key: 'cyan',
  /** An unknown status: the terminal's own colour (white was invisible on a light background). */
  neutral: undefined,
} as const satisfies Record<string, string | undefined>;

/**
 * For a light background: yellow and cyan on white are 1.5:1 and 1.9:1 against it, unreadable, so
 * what they meant goes to colours that keep their contrast there (xterm's blue and magenta).
 */
const LIGHT: Colours = { ...COLOURS, accent: 'blue', warning: 'magenta', key: 'blue', onBadge: 'white' };

export type Token = keyof typeof COLOURS;
/** A theme's colours: each token to a colour name of Ink's (chalk's: `cyan`, `redBright`...), `#rrggbb`, or undefined (the terminal's own). */
export type Colours = Record<Token, string | undefined>;
/** A theme: its colours, and the tokens it draws bold (where the meaning must not rest on a colour alone). */
export interface Theme {
  colours: Colours;
  bold: readonly Token[];
}

/**
 * High contrast: bright colours on a dark background, the darkest on a light one, errors and
 * warnings bold, and no gray: muted text is the terminal's own colour. Against xterm's palette
 * every token is 4.5:1 or more against black (dark) or white (light); test/unit/tui/themeContrast.test.ts.
 * On white no ANSI green is readable (xterm's is 2.2:1), so success is #005f00 there (7.9:1; one
 * of xterm's 256 colours, so a 256-colour terminal draws it exactly).
 */
const HIGH_CONTRAST: Record<Background, Colours> = {
  dark: { accent: 'cyanBright', muted: undefined, error: 'redBright', warning: 'yellowBright', success: 'greenBright', selection: 'cyanBright', badge: 'magentaBright', onBadge: 'black', key: 'cyanBright', neutral: undefined },
  light: { accent: 'blue', muted: undefined, error: 'red', warning: 'magenta', success: '#005f00', selection: 'blue', badge: 'blue', onBadge: 'whiteBright', key: 'blue', neutral: undefined },
};

/**
 * For a terminal with the Solarized palette, dark or light. Solarized gives the 16 ANSI colours
 * its own values: bright black is base03, the Dark background itself (the dark theme's gray muted
 * text vanished), bright white is base3, the Light background, and the other bright colours are
 * its grays (green base01, yellow base00, blue base0, cyan base1) and orange and violet. For 3:1
 * against both base03 (#002b36) and base3 (#fdf6e3) a colour's luminance must lie between 0.16
 * and 0.27, which leaves red, blue, magenta, orange (bright red), base00 (bright yellow) and violet
 * (bright magenta); Solarized's green, yellow and cyan are 2.9:1 on base3. So: muted is base00
 * (Solarized's own body-text gray), warning orange, success blue (no green passes), accent and keys
 * violet; the badge's text is base3 on magenta. test/unit/tui/themeContrast.test.ts checks each
 * token against both backgrounds with the palette's RGB values.
 */
const SOLARIZED: Colours = {
  accent: 'magentaBright',
  muted: 'yellowBright',
  error: 'red',
  warning: 'redBright',
  success: 'blue',
  selection: 'blue',
  badge: 'magenta',
  onBadge: 'whiteBright',
  key: 'magentaBright',
  neutral: undefined,
};

/** The built-in themes, by name (`INTERN_TUI_THEME=NAME`, config `theme`), each for a dark and a light background. */
export const BUILTIN_THEMES = {
  dark: { dark: { colours: COLOURS, bold: [] }, light: { colours: COLOURS, bold: [] } },
  light: { dark: { colours: LIGHT, bold: [] }, light: { colours: LIGHT, bold: [] } },
  'high-contrast': { dark: { colours: HIGH_CONTRAST.dark, bold: ['error', 'warning'] }, light: { colours: HIGH_CONTRAST.light, bold: ['error', 'warning'] } },
  solarized: { dark: { colours: SOLARIZED, bold: [] }, light: { colours: SOLARIZED, bold: [] } },
} as const satisfies Record<string, Record<Background, Theme>>;
export type BuiltinTheme = keyof typeof BUILTIN_THEMES;
export const isBuiltinTheme = (name: string): name is BuiltinTheme => Object.hasOwn(BUILTIN_THEMES, name);

/** What a theme may be called: a built-in's name or a user theme file's (themes/NAME.json), so never a path. */
export const THEME_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Which background the colours are picked for. */
export type Background = 'dark' | 'light';

/** INTERN_TUI_THEME as asked, trimmed and lowercased, or null when unset or empty. */
function askedTheme(env: NodeJS.ProcessEnv): string | null {
  return env.INTERN_TUI_THEME?.trim().toLowerCase() || null;
}

/** INTERN_TUI_THEME as asked: a background, another theme's name, or null when unset or no background. */
function askedBackground(env: NodeJS.ProcessEnv): Background | null {
  const asked = askedTheme(env);
  return asked === 'light' || asked === 'dark' ? asked : null;
}

/** What to warn of INTERN_TUI_THEME set to something that cannot be a theme's name, or null. */
export function themeWarning(env: NodeJS.ProcessEnv): string | null {
  const asked = askedTheme(env);
  if (asked === null || THEME_NAME.test(asked)) return null;
  // Printable ASCII only, without the text module: this module stays a leaf (settings.ts reads it
  // on the embedded sandbox's early start, before string-width is wanted).
  return `INTERN_TUI_THEME is "${env.INTERN_TUI_THEME!.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}": it takes a theme's name (${Object.keys(BUILTIN_THEMES).join(', ')}, or a file's in the config folder's themes/); the colours follow the terminal (COLORFGBG), else dark`;
}

/**
 * INTERN_TUI_THEME (`light` or `dark`), else what the terminal says in COLORFGBG ("fg;bg", the
 * background last: 7 or 15, white, is light; rxvt, Konsole and iTerm2 set it), else dark.
 */
export function backgroundFromEnv(env: NodeJS.ProcessEnv): Background {
  const asked = askedBackground(env);
  if (asked) return asked;
  const bg = env.COLORFGBG?.split(';').at(-1)?.trim();
  return bg === '7' || bg === '15' ? 'light' : 'dark';
}

/**
 * The theme asked for, by name: INTERN_TUI_THEME, else the config file's `theme`, else the
 * background's (`light` or `dark`, backgroundFromEnv). A name that is no theme name's shape is
 * passed over (themeWarning says so). Whether a name is a built-in or a file is themeFile.ts's.
 */
export function themeName(env: NodeJS.ProcessEnv, configured?: string | null): string {
  const asked = askedTheme(env);
  if (asked !== null && THEME_NAME.test(asked)) return asked;
  const fromConfig = configured?.trim().toLowerCase();
  if (fromConfig && THEME_NAME.test(fromConfig)) return fromConfig;
  return backgroundFromEnv(env);
}

/** The active theme: read at render time, so it follows `chooseTheme`. */
export const theme: Record<Token, string | undefined> = { ...COLOURS };

let colour = true;
/** The colours the active theme draws bold (its `bold` tokens'), for the Text primitive. */
let boldColours: ReadonlySet<string> = new Set();

/**
 * Picks the colours (a theme, else the dark or light built-in for the background) or the no-colour
 * theme, which NO_COLOR and --no-color ask for and which wins over any theme; the TUI's entry
 * calls it once before the first render.
 */
export function chooseTheme(opts: { noColor: boolean; background?: Background; theme?: Theme }): void {
  colour = !opts.noColor;
  const chosen: Theme = opts.theme ?? BUILTIN_THEMES[opts.background === 'light' ? 'light' : 'dark'].dark;
  for (const k of Object.keys(COLOURS) as Token[]) theme[k] = colour ? chosen.colours[k] : undefined;
  boldColours = new Set(colour ? chosen.bold.flatMap((t) => chosen.colours[t] ?? []) : []);
}

/** Whether text in this colour is drawn bold: the theme's way of stressing what matters (high contrast's errors). */
export const boldColour = (color: string | undefined): boolean => color !== undefined && boldColours.has(color);

/** False under the no-colour theme (a component that draws colour itself, such as an icon, stands aside). */
export const colourOn = (): boolean => colour;

/** NO_COLOR set to anything non-empty, per no-color.org. */
export const noColorFromEnv = (env: NodeJS.ProcessEnv): boolean => env.NO_COLOR !== undefined && env.NO_COLOR !== '';

const STATUS: Record<string, { symbol: string; tone: Token }> = {
  running: { symbol: '●', tone: 'success' },
  queued: { symbol: '◌', tone: 'warning' },
  provisioning: { symbol: '◐', tone: 'warning' },
  stopped: { symbol: '○', tone: 'muted' },
  failed: { symbol: '✖', tone: 'error' },
  awaiting_slack_install: { symbol: '◇', tone: 'badge' },
  destroying: { symbol: '◑', tone: 'warning' },
  destroy_failed: { symbol: '✖', tone: 'error' },
};

/** Unknown statuses are shown as they come, with a neutral symbol. */
export function statusStyle(status: string): { symbol: string; tone: Token } {
  return STATUS[status] ?? { symbol: '?', tone: 'neutral' };
}
