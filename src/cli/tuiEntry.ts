/**
 * The TUI's entry: dist/tui.cjs in the bundle, which tuiBundle.ts runs with V8's code cache. It is
 * light on purpose: what it imports statically runs as soon as the bundle is loaded, and that is
 * only what comes before the embedded sandbox's worker starts. The TUI command itself (the client,
 * zod's schemas, then Ink and the screens) is imported when it runs, which in the bundle is when
 * its modules are evaluated.
 */
import { earlySandbox } from './earlySandbox.js';
import { runToEnd } from './finish.js';
import type * as TuiCommand from './tuiCommand.js';
import type { WarmSandbox } from '../sandbox/thread.js';

/** What the code cache is saved with (src/codeCache.ts). */
export { usedScreens } from '../tui/usedScreens.js';

/** The TUI command (tuiCommand.ts), loaded when called: legacy.ts runs it for a command line with flags. */
export const tuiCommand: typeof TuiCommand.tuiCommand = async (...args) => (await import('./tuiCommand.js')).tuiCommand(...args);

/**
 * `intern-tui` with no arguments: the TUI, on the configured service or the embedded sandbox, the
 * start people wait on most. main.ts comes here without dispatch.ts, whose registry, parser and
 * loaders (a dozen modules of the bundle, each a file Node's ES module loader finds, reads and
 * compiles without a code cache) an empty command line does not need: it is the TUI with no
 * flags, as args.ts's parseCommand reads it too (test/unit/cli/quickTui.test.ts). `warm`: the
 * sandbox's thread, already loading (tuiBundle.ts), which the start uses or ends.
 */
export function quickTui(warm?: WarmSandbox): Promise<void> {
  return runToEnd(
    (async () => {
      const early = await earlySandbox({}, false, warm);
      return tuiCommand({}, false, early);
    })(),
  );
}
