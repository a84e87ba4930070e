/**
 * The embedded sandbox, started before legacy.ts, the client and zod load (and before the TUI's
 * bundle, dist/tui.cjs), when the TUI will surely run on it: its worker thread then comes up on
 * the other core meanwhile (`npm start`'s time to the list, bench/README.md). Surely: `--sandbox`,
 * or no config file and nothing in the flags or the environment, where tuiCommand.ts's full
 * resolution (the same rule, on the same empty file) cannot decide otherwise. Anything else waits
 * for tuiCommand.ts. Used by dispatch.ts and tuiEntry.ts's quickTui.
 */
import { existsSync } from 'node:fs';
import { tuiTerminalProblem } from '../tui/terminal.js';
import type { EarlySandbox, Flags } from './settings.js';

export async function earlySandbox(flags: Flags, forceSandbox: boolean): Promise<EarlySandbox | undefined> {
  if (tuiTerminalProblem(process.stdin, process.stdout, process.env)) return undefined;
  // Loaded here, not statically: only the TUI's path needs it.
  const { codeCacheDir, configPath, EMBEDDED_SANDBOX, noConfigFile, resolveConfig, usesEmbeddedSandbox } = await import('./settings.js');
  if (!forceSandbox) {
    if (existsSync(configPath())) return undefined;
    try {
      if (!usesEmbeddedSandbox(false, resolveConfig(flags, process.env, noConfigFile()))) return undefined;
    } catch {
      return undefined; // tuiCommand.ts resolves again and says what is wrong
    }
  }
  const { startSandboxThread } = await import('../sandbox/thread.js');
  const started = startSandboxThread(EMBEDDED_SANDBOX, { codeCacheDir: codeCacheDir() });
  started.catch(() => undefined); // tuiCommand.ts awaits it and reports a failure
  return { started };
}
