/**
 * Where intern-tui keeps its files, by the XDG base directory rules: the config file, the caches
 * (icons, V8's code cache) and the state (history, conversations, recordings); and the profile of
 * the config file the environment names. A leaf: the TUI's start (tuiBundle.ts) needs them before
 * anything else is loaded.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** An XDG base directory: the variable when it holds an absolute path (the XDG spec has relative ones ignored), else ~/`fallback`. */
function xdgDir(value: string | undefined, env: NodeJS.ProcessEnv, fallback: string): string {
  return value && isAbsolute(value) ? value : join(env.HOME || homedir(), fallback);
}
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgDir(env.XDG_CONFIG_HOME, env, '.config'), 'intern-tui', 'config.json');
}
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgDir(env.XDG_CACHE_HOME, env, '.cache'), 'intern-tui');
}
/**
 * Where what the client keeps between runs lives (prompt history, conversations, and anything else
 * of that kind: src/tui/state/): `$XDG_STATE_HOME/intern-tui`, else ~/.local/state/intern-tui.
 * Null when the environment names neither (no HOME: a service account, a test's empty
 * environment): nothing is kept then, rather than kept in a home guessed from the password file.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (!(env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) && !env.HOME) return null;
  return join(xdgDir(env.XDG_STATE_HOME, env, join('.local', 'state')), 'intern-tui');
}

/** Where V8's code cache of the TUI and of the embedded sandbox's worker is kept (src/codeCache.ts). */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'code-cache');
}

/** INTERN_TUI_PROFILE, an empty one being unset, as an empty OPENROUTER_API_KEY is. */
export const profileFromEnv = (env: NodeJS.ProcessEnv): string | undefined => env.INTERN_TUI_PROFILE || undefined;
