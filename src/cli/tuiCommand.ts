/**
 * The TUI command: resolve the settings and credentials, start the embedded sandbox when nothing
 * is configured, send the first screen's requests, then run the TUI. In the bundle this file and
 * all it reaches (the client, Ink, React, the screens) is in one CommonJS file, dist/tui.cjs
 * (tuiEntry.ts), which tuiBundle.ts runs with V8's code cache (src/codeCache.ts): compiling it was
 * about a third of the TUI's start (bench/README.md).
 */
import { dirname, join } from 'node:path';
import { deferredApi } from '../client/deferred.js';
import { prefetchFirstScreen } from '../client/prefetch.js';
import { createClient } from '../client/index.js';
import type { InternApi } from '../client/types.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { startSandboxThread } from '../sandbox/thread.js';
import { KeymapError, remapKeymap } from '../tui/keyRemap.js';
import type { Binding } from '../tui/keymap.js';
import { noColorFromEnv } from '../tui/theme.js';
import { loadTheme } from '../tui/themeFile.js';
import { tuiTerminalProblem } from '../tui/terminal.js';
import { resolveSignedIn } from './auth/credentials.js';
import { tuiSessionHooks } from './auth/session.js';
import { cacheDir, codeCacheDir, ConfigError, configPath, type EarlySandbox, EMBEDDED_SANDBOX, embeddedClientOptions, type Flags, refusedFixes, stateDir, usesEmbeddedSandbox, warnTo } from './settings.js';
import { recordingsDir } from '../tui/state/recordings.js';


const warn = warnTo(process.stderr);

/** The turns of the event loop the first frame waits for an answer already on its way (see their use). */
const FIRST_PAGE_TURNS = 5;

export async function tuiCommand(flags: Flags, forceSandbox: boolean, early?: EarlySandbox): Promise<number> {
  const problem = tuiTerminalProblem(process.stdin, process.stdout, process.env);
  if (problem) {
    process.stderr.write(`intern-tui: ${problem}; see intern-tui --help for commands\n`);
    return 2;
  }
  const resolved = await resolveSignedIn(flags, { env: process.env, path: configPath(), warn });
  const keymap = remappedKeys(resolved.keys);
  const noColor = flags.noColor === true || noColorFromEnv(process.env);
  // NO_COLOR and --no-color win over any theme: then none is read, nor warned of.
  const chosen = noColor ? null : loadTheme(process.env, resolved.theme, join(dirname(configPath()), 'themes'));
  let sandbox: Promise<RunningSandbox> | undefined;
  let api: InternApi;
  let host: string;
  if (usesEmbeddedSandbox(forceSandbox, resolved)) {
    // The sandbox starts in a worker thread, on the other core, while the TUI draws its first frame; calls
    // wait for it. dispatch.ts may have started it already, before this module loaded (see earlySandbox).
    sandbox = early?.started ?? startSandboxThread(EMBEDDED_SANDBOX, { codeCacheDir: codeCacheDir() });
    const ready = sandbox.then((sb) => createClient(embeddedClientOptions(sb)));
    api = deferredApi(ready, { baseUrl: 'http://127.0.0.1', configured: { api_key: true, management_key: true, oauth_token: true } });
    host = '127.0.0.1';
  } else {
    // Not reached when dispatch.ts started one (it does so only when no config file exists, where this
    // resolution is the same as its), but a sandbox nobody uses must not outlive the decision.
    void early?.started.then((sb) => sb.close(), () => undefined);
    api = createClient({ baseUrl: resolved.baseUrl, credentials: resolved.credentials, renewOAuthToken: resolved.renewOAuthToken });
    host = new URL(resolved.baseUrl).host;
  }
  // The first screen's requests go out now, so their round trips overlap loading the TUI.
  const prefetched = prefetchFirstScreen(api);
  // The TUI loads only once they are on their way. In the bundle (dist/tui.cjs) this import runs
  // all of Ink, React and the screens at once, in one task: started in the same task as the
  // requests, it held their connections (opened on a later tick) until it was done, and their
  // answers came after the first frame; a turn of the event loop first sends them.
  const tuiModule = new Promise<void>((loaded) => setImmediate(loaded)).then(() => import('../tui/index.js'));
  try {
    const { runTui } = await tuiModule;
    // Loading the TUI held the thread for tens of milliseconds, in which the first page's answer may
    // have come: a few turns of the event loop read it, so the first frame is the list, not an empty
    // one drawn and then drawn again (bench/README.md, row c). A turn with nothing to read is a few
    // microseconds; a service that has not answered yet is not waited for.
    await prefetched.settled(FIRST_PAGE_TURNS);
    return await runTui({
      api: prefetched.api,
      takeFirstPage: prefetched.takeFirstPage,
      profile: resolved.profile,
      host,
      sandbox: sandbox !== undefined,
      features: resolved.features,
      iconCacheDir: join(cacheDir(), 'icons'),
      stateDir: stateDir(),
      scrollback: resolved.scrollback,
      record: sandbox ? 'off' : resolved.record,
      recordingsDir: recordingsDir(stateDir()),
      notify: resolved.notify,
      warnings: [...(sandbox ? [] : resolved.warnings), ...(chosen?.warning ? [chosen.warning] : [])],
      refusedFix: sandbox ? undefined : refusedFixes(resolved),
      noColor,
      theme: chosen?.theme,
      keymap,
      mouse: resolved.mouse,
      ...(sandbox ? {} : tuiSessionHooks(flags, { env: process.env, path: configPath(), warn }, resolved.profile)),
    });
  } finally {
    if (sandbox) await (await sandbox.catch(() => undefined))?.close();
  }
}

/** The config's `keys` as the keymap in force, or undefined for none; a bad entry stops the TUI's start with one line. */
function remappedKeys(keys: Record<string, string | string[]>): readonly Binding[] | undefined {
  if (Object.keys(keys).length === 0) return undefined;
  try {
    return remapKeymap(keys);
  } catch (e) {
    if (e instanceof KeymapError) throw new ConfigError(`${configPath()}: ${e.message}`);
    throw e;
  }
}
