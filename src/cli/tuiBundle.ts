/**
 * The TUI's entry (tuiEntry.ts), for main.ts and legacy.ts. In the bundle it is dist/tui.cjs, run
 * with V8's code cache (src/codeCache.ts), which is saved as the process exits (so it holds what
 * the whole session compiled) when there was none, V8 refused it, or the session opened a screen
 * loaded on first use (attach, chat) that the cache was not written with. Only ever imported
 * dynamically, so in the bundle it is in dist/chunks/, beside which `../tui.cjs` is; it imports
 * nothing but the code cache and the folders, so that an empty command line (main.ts) loads
 * little else before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { codeCacheDir } from './dirs.js';
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
