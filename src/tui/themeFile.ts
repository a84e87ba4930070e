/**
 * Which theme the TUI draws with: a built-in (theme.ts) or a person's theme file,
 * `themes/NAME.json` in the config folder, named by INTERN_TUI_THEME or the config file's `theme`
 * (theme.ts's `themeName`). A file is JSON: tokens to colours, and an optional `base`, the
 * built-in its other tokens come from (else the one for the background):
 *
 *   { "base": "dark", "muted": "yellowBright", "accent": "#268bd2", "neutral": null }
 *
 * A colour is one of Ink's names (chalk's: `cyan`, `gray`, `redBright`...) or `#rrggbb`; null is
 * the terminal's own colour. Anything wrong (no such file, not JSON, an unknown token, a colour
 * that is none) is one line naming it, and the built-in for the background is drawn instead.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closest } from '../client/closest.js';
import { sanitize } from '../text.js';
import { backgroundFromEnv, BUILTIN_THEMES, isBuiltinTheme, themeName, type Background, type Colours, type Theme, type Token } from './theme.js';

/** Ink's colour names (chalk's foreground colours and their aliases). */
const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
export const COLOUR_NAMES: readonly string[] = [...BASIC, ...BASIC.map((c) => `${c}Bright`), 'gray', 'grey'];
const HEX = /^#[0-9a-fA-F]{6}$/;

/** The longest theme file read: a theme is a few lines. */
const MAX_BYTES = 16 * 1024;

export interface LoadedTheme {
  name: string;
  theme: Theme;
  /** What was wrong with the theme asked for (then `theme` is the background's built-in), else null. */
  warning: string | null;
}

/** A string from a file as a message may show it: one line, no control, at most 40 characters. */
const shown = (s: string) => sanitize(s).slice(0, 40);

/** A theme file's text as a theme, or the one line saying what is wrong in it. */
export function parseThemeFile(text: string, background: Background): Theme | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return `is not valid JSON: ${shown((e as Error).message)}`;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'is not a JSON object of tokens to colours';
  const tokens = Object.keys(BUILTIN_THEMES.dark.dark.colours) as Token[];
  const { base, ...given } = json as Record<string, unknown>;
  if (base !== undefined && (typeof base !== 'string' || !isBuiltinTheme(base))) {
    return `"base" must name a built-in theme (${Object.keys(BUILTIN_THEMES).join(', ')})`;
  }
  const from: Theme = BUILTIN_THEMES[(base as keyof typeof BUILTIN_THEMES | undefined) ?? background][background];
  const colours: Colours = { ...from.colours };
  for (const [token, value] of Object.entries(given)) {
    if (!(tokens as string[]).includes(token)) {
      const near = closest(token, tokens);
      return `has no token "${shown(token)}"${near ? ` (did you mean "${near}"?)` : ''}; the tokens are ${tokens.join(', ')}`;
    }
    if (value !== null && (typeof value !== 'string' || !(COLOUR_NAMES.includes(value) || HEX.test(value)))) {
      return `"${token}": ${shown(JSON.stringify(value) ?? String(value))} is not a colour (a name such as cyan or yellowBright, #rrggbb, or null)`;
    }
    colours[token as Token] = value ?? undefined;
  }
  return { colours, bold: from.bold };
}

/**
 * The theme to draw with, from the environment and the config file's `theme`; `themesDir` is the
 * config folder's themes/. A built-in's name is the built-in (a file cannot shadow it).
 */
export function loadTheme(env: NodeJS.ProcessEnv, configured: string | null | undefined, themesDir: string): LoadedTheme {
  const background = backgroundFromEnv(env);
  const name = themeName(env, configured);
  if (isBuiltinTheme(name)) return { name, theme: BUILTIN_THEMES[name][background], warning: null };
  const fallback = (why: string): LoadedTheme => ({
    name: background,
    theme: BUILTIN_THEMES[background][background],
    warning: `theme "${name}" ${why}; drawing the ${background} theme`,
  });
  const path = sanitize(join(themesDir, `${name}.json`));
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_BYTES) return fallback(`(${path}) is over ${MAX_BYTES / 1024} KB`);
    text = bytes.toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fallback(
      code === 'ENOENT'
        ? `is neither built in (${Object.keys(BUILTIN_THEMES).join(', ')}) nor a file ${path}`
        : `cannot be read from ${path}: ${code ?? 'unknown error'}`,
    );
  }
  const parsed = parseThemeFile(text, background);
  return typeof parsed === 'string' ? fallback(`(${path}) ${parsed}`) : { name, theme: parsed, warning: null };
}
