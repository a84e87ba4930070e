/** The commands that parse their own flags (args.ts): the TUI, `sandbox`, `login`, `config`. */
import { join } from 'node:path';
import { deferredApi } from '../client/deferred.js';
import { prefetchFirstScreen } from '../client/prefetch.js';
import { createClient } from '../client/index.js';
import type { InternApi } from '../client/types.js';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../contract/routes.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { startSandboxThread } from '../sandbox/thread.js';
import { HELP, parseCommand, type SandboxFlags } from './args.js';
import { readConfig } from './config.js';
import { cacheDir, codeCacheDir, configPath, EMBEDDED_SANDBOX, resolveConfig, type Flags, usesEmbeddedSandbox } from './settings.js';
import type { RunContext } from './context.js';
import { login } from './login.js';
import { resolveSignedIn } from './auth/credentials.js';
import { tuiSessionHooks } from './auth/session.js';
import { noColorFromEnv } from '../tui/theme.js';

/** The embedded sandbox, when dispatch.ts has already started it. */
export interface EarlySandbox {
  started: Promise<RunningSandbox>;
}

const warn = (msg: string) => process.stderr.write(`intern-tui: warning: ${msg}\n`);

/** argv of the whole process (after node and script). */
export async function runLegacy(argv: string[], early?: EarlySandbox): Promise<number> {
  const command = parseCommand(argv);
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'version':
      return 0;
    case 'sandbox':
      return runSandbox(command.options);
    case 'login': {
      // The registry's `login` (commands/auth.ts) handles this; kept for argv that reaches here.
      const { availableKeychain } = await import('./auth/store.js');
      const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
      return login({ profile: command.flags.profile, baseUrl: command.flags.baseUrl }, { io, path: configPath(), keychain: await availableKeychain(process.env) });
    }
    case 'config':
      return configCommand(command.action, command.flags);
    case 'tui':
      return tui(command.flags, command.forceSandbox, early);
  }
}

export const configCommandRaw = (ctx: RunContext) => runLegacy(['config', ...ctx.rest]);
export const sandboxCommand = (ctx: RunContext) => runLegacy(['sandbox', ...ctx.rest]);

function configCommand(action: 'path' | 'show', flags: Flags): number {
  const path = configPath();
  if (action === 'path') {
    process.stdout.write(path + '\n');
    return 0;
  }
  const file = readConfig(path, warn);
  const resolved = resolveConfig(flags, process.env, file);
  const lines = [`config file: ${path}`, `profile: ${resolved.profile ?? '(none)'}`, `base URL: ${resolved.baseUrl}`];
  for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
    lines.push(`${CREDENTIAL_SOURCES[kind].label}: ${resolved.credentials[kind] ? 'set' : `not set (${CREDENTIAL_SOURCES[kind].env})`}`);
  }
  for (const name of Object.keys(file.profiles)) lines.push(`known profile: ${name}${name === file.default_profile ? ' (default)' : ''}`);
  process.stdout.write(lines.join('\n') + '\n');
  for (const w of resolved.warnings) warn(w);
  return 0;
}

async function runSandbox(options: SandboxFlags): Promise<number> {
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({
    host: options.host,
    port: options.port,
    dataDir: options.dataDir,
    workspacesDir: options.workspacesDir,
    manifestPath: options.manifest,
    seed: options.seed,
    deadlineMs: options.deadlineMs,
    daemonCommand: options.daemonCommand,
    stepMs: options.stepMs,
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`sandbox listening: ${sandbox.baseUrl}\n`);
  process.stdout.write(options.manifest ? `manifest: ${options.manifest}\n` : 'manifest: not written (pass --manifest FILE)\n');
  if (!options.dataDir) process.stdout.write('state: temporary, removed on exit (pass --data-dir DIR to keep it)\n');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stderr.write('sandbox: stopping\n');
  await sandbox.close();
  return 0;
}

async function tui(flags: Flags, forceSandbox: boolean, early?: EarlySandbox): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('intern-tui: the TUI needs an interactive terminal (stdin and stdout must be a TTY); see intern-tui --help for commands\n');
    return 2;
  }
  // The TUI and (below) the sandbox load only now; the TUI's import runs beside the config read.
  const tuiModule = import('../tui/index.js');
  const resolved = await resolveSignedIn(flags, { env: process.env, path: configPath(), warn });
  let sandbox: Promise<RunningSandbox> | undefined;
  let api: InternApi;
  let host: string;
  if (usesEmbeddedSandbox(forceSandbox, resolved)) {
    // The sandbox starts in a worker thread, on the other core, while the TUI draws its first frame; calls
    // wait for it. dispatch.ts may have started it already, before this module loaded (see earlySandbox).
    sandbox = early?.started ?? startSandboxThread(EMBEDDED_SANDBOX, { codeCacheDir: codeCacheDir() });
    const ready = sandbox.then((sb) => {
      const c = sb.manifest.credentials;
      return createClient({ baseUrl: sb.baseUrl, credentials: { api_key: c.api_key, management_key: c.management_key, oauth_token: c.oauth_token } });
    });
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
  try {
    const { runTui } = await tuiModule;
    return await runTui({
      api: prefetched.api,
      takeFirstPage: prefetched.takeFirstPage,
      profile: resolved.profile,
      host,
      sandbox: sandbox !== undefined,
      features: resolved.features,
      iconCacheDir: join(cacheDir(), 'icons'),
      scrollback: resolved.scrollback,
      warnings: sandbox ? [] : resolved.warnings,
      noColor: flags.noColor === true || noColorFromEnv(process.env),
      ...(sandbox ? {} : tuiSessionHooks(flags, { env: process.env, path: configPath(), warn }, resolved.profile)),
    });
  } finally {
    if (sandbox) await (await sandbox.catch(() => undefined))?.close();
  }
}
