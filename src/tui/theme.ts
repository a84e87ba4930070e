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
  /** An unknown status. */
  neutral: 'white',
} as const;

export type Token = keyof typeof COLOURS;

/** The active theme: read at render time, so it follows `chooseTheme`. */
export const theme: Record<Token, string | undefined> = { ...COLOURS };

let colour = true;

/** Picks the colour or the no-colour theme; the TUI's entry calls it once before the first render. */
export function chooseTheme(opts: { noColor: boolean }): void {
  colour = !opts.noColor;
  for (const k of Object.keys(COLOURS) as Token[]) theme[k] = colour ? COLOURS[k] : undefined;
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
