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
const LIGHT: Record<Token, string | undefined> = { ...COLOURS, accent: 'blue', warning: 'magenta', key: 'blue', onBadge: 'white' };

export type Token = keyof typeof COLOURS;

/** Which background the colours are picked for. */
export type Background = 'dark' | 'light';

/** INTERN_TUI_THEME as asked: a background, or `unknown` for a value that is neither (then ignored), or null when unset. */
function askedBackground(env: NodeJS.ProcessEnv): Background | 'unknown' | null {
  const asked = env.INTERN_TUI_THEME?.trim().toLowerCase();
  return !asked ? null : asked === 'light' || asked === 'dark' ? asked : 'unknown';
}

/** What to warn of INTERN_TUI_THEME set to something that is neither `light` nor `dark`, or null. */
export function themeWarning(env: NodeJS.ProcessEnv): string | null {
  if (askedBackground(env) !== 'unknown') return null;
  // Printable ASCII only, without the text module: this module stays a leaf (settings.ts reads it
  // on the embedded sandbox's early start, before string-width is wanted).
  return `INTERN_TUI_THEME is "${env.INTERN_TUI_THEME!.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}": it takes light or dark; the colours follow the terminal (COLORFGBG), else dark`;
}

/**
 * INTERN_TUI_THEME (`light` or `dark`), else what the terminal says in COLORFGBG ("fg;bg", the
 * background last: 7 or 15, white, is light; rxvt, Konsole and iTerm2 set it), else dark.
 */
export function backgroundFromEnv(env: NodeJS.ProcessEnv): Background {
  const asked = askedBackground(env);
  if (asked === 'light' || asked === 'dark') return asked;
  const bg = env.COLORFGBG?.split(';').at(-1)?.trim();
  return bg === '7' || bg === '15' ? 'light' : 'dark';
}

/** The active theme: read at render time, so it follows `chooseTheme`. */
export const theme: Record<Token, string | undefined> = { ...COLOURS };

let colour = true;

/** Picks the colour (for a dark or a light background) or the no-colour theme; the TUI's entry calls it once before the first render. */
export function chooseTheme(opts: { noColor: boolean; background?: Background }): void {
  colour = !opts.noColor;
  const palette = opts.background === 'light' ? LIGHT : COLOURS;
  for (const k of Object.keys(COLOURS) as Token[]) theme[k] = colour ? palette[k] : undefined;
}

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
