/** The commands that parse their own flags (args.ts): the TUI, `sandbox`, `login`, `config`. */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BASE_URL_ENV, CREDENTIAL_SOURCES, type CredentialKind } from '../contract/routes.js';
import { HELP, parseCommand, type SandboxFlags, UsageError } from './args.js';
import { closest } from '../client/closest.js';
import { sanitize } from '../text.js';
import { shellQuote } from './quote.js';
import { configPath, type EarlySandbox, resolveConfig, type Flags, usesEmbeddedSandbox, warnTo } from './settings.js';
import type { RunContext } from './context.js';
import { loadTuiEntry } from './tuiBundle.js';
import { EXIT } from './exit.js';
import { onTerminalGone } from '../tui/terminal.js';

const warn = warnTo(process.stderr);

/** argv of the whole process (after node and script). */
export async function runLegacy(argv: string[], early?: EarlySandbox): Promise<number> {
  const command = parseCommand(argv);
  switch (command.kind) {
    case 'help':
      process.stdout.write(command.text ?? HELP);
      return 0;
    case 'version':
      return 0;
    case 'sandbox':
      return runSandbox(command.options);
    case 'login': {
      // The registry's `login` (commands/auth.ts) handles this; kept for argv that reaches here.
      const [{ availableKeychain }, { login }] = await Promise.all([import('./auth/store.js'), import('./login.js')]);
      const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
      return login({ profile: command.flags.profile, baseUrl: command.flags.baseUrl }, { io, path: configPath(), keychain: await availableKeychain(process.env) });
    }
    case 'config':
      return command.action === 'use' ? useProfile(command.profile) : configCommand(command.action, command.flags);
    case 'tui':
      return (await loadTuiEntry()).tuiCommand(command.flags, command.forceSandbox, early);
  }
}

export const configCommandRaw = (ctx: RunContext) => runLegacy(['config', ...ctx.rest]);
export const sandboxCommand = (ctx: RunContext) => runLegacy(['sandbox', ...ctx.rest]);

/** `config use PROFILE`: the config file's default_profile, set to a profile it has. */
async function useProfile(name: string): Promise<number> {
  const path = configPath();
  const { readConfig, writeConfig } = await import('./config.js');
  const file = readConfig(path, warn);
  const known = Object.keys(file.profiles);
  if (!known.includes(name)) {
    const near = closest(name, known);
    const shown = sanitize(name).slice(0, 40);
    throw new UsageError(
      known.length === 0
        ? `there are no profiles in ${path} yet: \`intern-tui login --profile ${shellQuote(shown)}\` makes one`
        : `no profile "${shown}" in ${path}${near ? ` (did you mean "${near}"?)` : ''}; its profiles: ${known.join(', ')}`,
    );
  }
  writeConfig(path, { ...file, default_profile: name });
  // Prose: on stderr when stdout is piped, which carries data only.
  (process.stdout.isTTY ? process.stdout : process.stderr).write(`The default profile is now ${name}.\n`);
  // A variable that names another profile wins over the file: say so, or the switch would seem to do nothing.
  const fromEnv = process.env.INTERN_TUI_PROFILE;
  if (fromEnv && fromEnv !== name) warn(`INTERN_TUI_PROFILE=${sanitize(fromEnv).slice(0, 40)} is set in this shell and wins over the default`);
  return 0;
}

async function configCommand(action: 'path' | 'show', flags: Flags): Promise<number> {
  const path = configPath();
  if (action === 'path') {
    process.stdout.write(path + '\n');
    return 0;
  }
  const { readConfig } = await import('./config.js');
  const file = readConfig(path, warn);
  const resolved = resolveConfig(flags, process.env, file);
  const profileBase = resolved.profile !== null ? file.profiles[resolved.profile]?.base_url : undefined;
  const baseFrom = flags.baseUrl ? 'from a command-line flag' : process.env[BASE_URL_ENV] ? `from the environment (${BASE_URL_ENV})` : profileBase ? 'from the config file' : 'the default';
  const baseLine = usesEmbeddedSandbox(false, resolved)
    ? 'base URL: none configured, so the TUI and the commands use a temporary built-in sandbox with demo data'
    : `base URL: ${resolved.baseUrl} (${baseFrom})`;
  const lines = [`config file: ${path}`, `profile: ${resolved.profile ?? '(none)'}`, baseLine];
  if (resolved.storedWithheldFor) lines.push(`stored keys: not sent to this host; the profile keeps them for ${resolved.storedWithheldFor}`);
  // Where each comes from, as the help says; the keychain is read by `auth status` (it may ask the
  // system, so not here), and a profile that keeps its keys there says so.
  const inKeychain = resolved.profile !== null && file.profiles[resolved.profile]?.credential_store === 'keychain';
  const FROM = { flag: 'a command-line flag', env: `the environment`, file: 'the config file', keychain: 'the system keychain' } as const;
  for (const kind of Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]) {
    const source = resolved.sources[kind];
    lines.push(
      `${CREDENTIAL_SOURCES[kind].label}: ${
        source ? `set, from ${FROM[source]}${source === 'env' ? ` (${CREDENTIAL_SOURCES[kind].env})` : ''}` : inKeychain ? 'in the system keychain if stored there (intern-tui auth status reads it)' : `not set (${CREDENTIAL_SOURCES[kind].env})`
      }`,
    );
  }
  for (const name of Object.keys(file.profiles)) lines.push(`known profile: ${name}${name === file.default_profile ? ' (default)' : ''}`);
  process.stdout.write(lines.join('\n') + '\n');
  for (const w of resolved.warnings) warn(w);
  return 0;
}

async function runSandbox(options: SandboxFlags): Promise<number> {
  // A manifest that could not be written was found only once the service was up, as Node's ENOENT
  // on a temporary file beside it.
  if (options.manifest) {
    const dir = dirname(resolve(options.manifest));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--manifest ${sanitize(options.manifest)}: the folder ${sanitize(dir)} does not exist`);
  }
  // Stopped by ctrl+c, SIGTERM or SIGHUP (its terminal closed), listened for before it starts: the
  // manifest is written as it starts, and a signal sent once it was there (a supervisor's, a
  // test's) met no listener yet and ended the process at once, its temporary database and
  // workspaces left behind. A signal during the start closes it once it is up. The listeners stay
  // while it closes: a second signal (a process group's, a supervisor's retry) met none and ended
  // the process half way. The reader of its output gone (`| head`, a `| tee` ended by ctrl+c:
  // EPIPE) or its terminal (EIO) ends it too, closed the same way: that write error was unhandled
  // and crashed it, its temporary folders left behind.
  const ending = new Promise<NodeJS.Signals | 'pipe'>((resolve) => {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => resolve(s));
    onTerminalGone([process.stdout, process.stderr], (how) => resolve(how === 'pipe' ? 'pipe' : 'SIGHUP'));
  });
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
    secret: options.secret,
    // The user's config folder (profiles, perhaps keys) is out of the interns' sight too.
    privatePaths: [dirname(configPath())],
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
    notice: (line) => process.stderr.write(`sandbox: ${line}\n`),
  }).catch(async (e: unknown) => {
    // By name: the sandbox module is loaded lazily, so its classes are not at hand here. A secret
    // that cannot be read is the command line's mistake too.
    if ((e as Error).name === 'SandboxOptionsError' || (e as Error).name === 'SecretSourceError') throw new UsageError(sanitize((e as Error).message));
    // It could not listen there (a host that is not this machine's, a port in use or not allowed).
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || (e as { syscall?: unknown }).syscall === undefined) throw e;
    const { explainCode } = await import('../client/errors.js');
    throw new UsageError(`cannot listen on ${sanitize(options.host)}:${options.port}: ${explainCode(code)}`);
  });
  process.stdout.write(`sandbox listening: ${sandbox.baseUrl}\n`);
  process.stdout.write(options.manifest ? `manifest: ${options.manifest}\n` : 'manifest: not written (pass --manifest FILE)\n');
  if (!options.dataDir) process.stdout.write('state: temporary, removed on exit (pass --data-dir DIR to keep it)\n');
  const how = await ending;
  process.stderr.write('sandbox: stopping\n');
  await sandbox.close();
  return how === 'pipe' ? EXIT.closedPipe : 0;
}
