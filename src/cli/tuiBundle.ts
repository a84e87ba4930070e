/**
 * tuiCommand.ts, for legacy.ts and quickTui.ts. In the bundle it is dist/tui.cjs, run with V8's code
 * cache (src/codeCache.ts), which is saved as the process exits (so it holds what the whole session
 * compiled) when there was none, V8 refused it, or the session opened a screen loaded on first use
 * (attach, chat) that the cache was not written with. This module is only ever imported
 * dynamically, so in the bundle it is in dist/chunks/, beside which `../tui.cjs` is.
 */
import { fileURLToPath } from 'node:url';
import { codeCacheDir } from './settings.js';
import type * as TuiCommand from './tuiCommand.js';

/** Defined by scripts/build.mjs in the bundle, where the TUI command is dist/tui.cjs. */
declare const __INTERN_TUI_CJS__: boolean | undefined;

export async function loadTuiCommand(): Promise<typeof TuiCommand> {
  if (typeof __INTERN_TUI_CJS__ !== 'boolean') return import('./tuiCommand.js');
  const { runCompiled } = await import('../codeCache.js');
  const compiled = runCompiled<typeof TuiCommand>(fileURLToPath(new URL('../tui.cjs', import.meta.url)), 'tui', codeCacheDir());
  process.once('exit', () => compiled.saveCache(compiled.exports.usedScreens()));
  return compiled.exports;
}
