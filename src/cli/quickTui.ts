/**
 * `intern-tui` with no arguments: the TUI, on the configured service or the embedded sandbox, the
 * start people wait on most. main.ts comes here without dispatch.ts, whose registry, parser and
 * loaders (a dozen modules of the bundle, each one a file Node's ES module loader finds, reads and
 * compiles without a code cache) an empty command line does not need: it is the TUI with no flags,
 * as args.ts's parseCommand reads it too (test/unit/cli/quickTui.test.ts).
 */
import { earlySandbox } from './earlySandbox.js';
import { runToEnd } from './finish.js';
import { loadTuiCommand } from './tuiBundle.js';

export function quickTui(): Promise<void> {
  return runToEnd(
    (async () => {
      const early = await earlySandbox({}, false);
      return (await loadTuiCommand()).tuiCommand({}, false, early);
    })(),
  );
}
