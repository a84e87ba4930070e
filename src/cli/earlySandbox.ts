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
import type { WarmSandbox } from '../sandbox/thread.js';
import type { EarlySandbox, Flags } from './settings.js';

/**
 * The sandbox started now when the rule says the TUI will run on it, else undefined. `warm`, a thread
 * already loading the sandbox (tuiBundle.ts), is started then, or ended.
 */
export async function earlySandbox(flags: Flags, forceSandbox: boolean, warm?: WarmSandbox): Promise<EarlySandbox | undefined> {
  const wanted = await wantsSandbox(flags, forceSandbox);
  if (!wanted) {
    warm?.cancel();
    return undefined;
  }
  const { codeCacheDir, EMBEDDED_SANDBOX } = wanted;
  const started = warm ? warm.start(EMBEDDED_SANDBOX) : (await import('../sandbox/thread.js')).startSandboxThread(EMBEDDED_SANDBOX, { codeCacheDir: codeCacheDir() });
  started.catch(() => undefined); // tuiCommand.ts awaits it and reports a failure
  return { started };
}

/** The settings the start needs when the TUI surely runs on the embedded sandbox; undefined when it may not. */
async function wantsSandbox(flags: Flags, forceSandbox: boolean) {
  if (tuiTerminalProblem(process.stdin, process.stdout, process.env)) return undefined;
  // Loaded here, not statically: only the TUI's path needs it.
  const settings = await import('./settings.js');
  if (forceSandbox) return settings;
  if (existsSync(settings.configPath())) return undefined;
  try {
    return settings.usesEmbeddedSandbox(false, settings.resolveConfig(flags, process.env, settings.noConfigFile())) ? settings : undefined;
  } catch {
    return undefined; // tuiCommand.ts resolves again and says what is wrong
  }
}
