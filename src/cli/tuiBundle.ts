/**
 * The TUI's entry (tuiEntry.ts), for main.ts and legacy.ts. In the bundle it is dist/tui.cjs, run
 * with V8's code cache (src/codeCache.ts), which is saved as the process exits (so it holds what
 * the whole session compiled) when there was none, V8 refused it, or the session opened a screen
 * loaded on first use (attach, chat) that the cache was not written with. Only ever imported
 * dynamically, so in the bundle it is in dist/chunks/, beside which `../tui.cjs` is; it imports
 * nothing but the code cache, the folders and the sandbox's thread, so that an empty command line
 * (main.ts) loads little else before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { BASE_URL_ENV, CREDENTIAL_SOURCES } from '../contract/routes.js';
import { codeCacheDir, configPath, profileFromEnv } from './dirs.js';
import type * as TuiEntry from './tuiEntry.js';

/** Defined by scripts/build.mjs in the bundle, where the TUI is dist/tui.cjs. */
declare const __INTERN_TUI_CJS__: boolean | undefined;

export async function loadTuiEntry(): Promise<typeof TuiEntry> {
  if (typeof __INTERN_TUI_CJS__ !== 'boolean') return import('./tuiEntry.js');
  const { runCompiled } = await import('../codeCache.js');
  const compiled = runCompiled<typeof TuiEntry>(fileURLToPath(new URL('../tui.cjs', import.meta.url)), 'tui', codeCacheDir());
  process.once('exit', () => compiled.saveCache(compiled.exports.usedScreens()));
  return compiled.exports;
}

/**
 * `intern-tui` with no arguments (main.ts). Where no config file exists and the environment names no
 * service, credential or profile, the TUI runs on the embedded sandbox (earlySandbox.ts's rule, on
 * an empty config): its thread is warmed first, so that it boots and loads the sandbox's code on
 * the other core while this one loads dist/tui.cjs (an empty thread takes 56-72 ms to boot here,
 * and the sandbox's code 130-180 to load from its cache: bench/README.md). This test only chooses whether to warm: the rule, in the bundle, then
 * starts the thread or ends it before it did anything.
 */
export async function quickTui(): Promise<void> {
  const warm = likelySandbox(process.env) ? (await import('../sandbox/thread.js')).warmSandboxThread({ codeCacheDir: codeCacheDir() }) : undefined;
  return (await loadTuiEntry()).quickTui(warm);
}

function likelySandbox(env: NodeJS.ProcessEnv): boolean {
  if (env[BASE_URL_ENV] || profileFromEnv(env) || Object.values(CREDENTIAL_SOURCES).some((source) => env[source.env])) return false;
  return !existsSync(configPath(env));
}
