/**
 * Everything `intern-tui` does but print its version and help (main.ts does those with nothing
 * else loaded, from the bundle; from source they come here too). Start-up stays small: this file
 * loads only the registry (data), the argument parser (node:util) and the version; a command's
 * implementation, the client, the sandbox and the TUI are imported when they are needed.
 */
import { existsSync } from 'node:fs';
import { VERSION } from '../version.js';
import { HELP, parseCommand } from './args.js';
import { endBy } from './ending.js';
import { tuiTerminalProblem } from '../tui/terminal.js';
import { closest } from '../client/closest.js';
import { CliError, EXIT } from './exit.js';
import type { EarlySandbox } from './settings.js';
import { parseFor } from './parse.js';
import { commandHelp, findCommand, nounHelp, unknownCommand } from './registry.js';
import { jsonFieldsOf } from './loaders.js';

const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };

/** Whether a command line asks for JSON: then its errors are JSON too, whatever the command (README). */
const asksForJson = (argv: readonly string[]): boolean => argv.some((a) => a === '--json' || a.startsWith('--json='));

/**
 * The TUI's credential flags, which commands refuse: given before a command (`--api-key K interns
 * list --limit 1`), they go after it with the global flags, so that the refusal the user gets is
 * about the key on the command line (parse.ts), not about a flag of the command the TUI lacks.
 */
const CREDENTIAL_FLAGS = ['--api-key', '--management-key', '--oauth-token'];

/** `--profile work interns list` means `interns list --profile work`: global flags may come before the command. */
function hoistGlobalFlags(argv: string[]): string[] {
  const lead: string[] = [];
  let i = 0;
  const withValue = ['--profile', '--base-url', ...CREDENTIAL_FLAGS];
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--sandbox' || a === '--no-color' || a === '--no-mouse' || withValue.some((f) => a.startsWith(`${f}=`))) lead.push(a);
    else if (withValue.includes(a) && i + 1 < argv.length) lead.push(a, argv[++i]!);
    else break;
  }
  if (lead.length === 0 || i >= argv.length || findCommand(argv.slice(i)) === null) return argv;
  return [...argv.slice(i), ...lead];
}

/**
 * The embedded sandbox, started now when the TUI will surely run on it: before legacy.ts, the
 * client and zod load, so its worker thread comes up on the other core meanwhile (`npm start`'s
 * time to the list, bench/README.md). Surely: `--sandbox`, or no config file and nothing in the
 * flags or the environment, where legacy.ts's full resolution (the same rule, on the same empty
 * file) cannot decide otherwise. Anything else waits for legacy.ts.
 */
async function earlySandbox(argv: string[]): Promise<EarlySandbox | undefined> {
  if (tuiTerminalProblem(process.stdin, process.stdout, process.env)) return undefined;
  // Loaded here, not statically: only the TUI's path needs it.
  const { codeCacheDir, configPath, EMBEDDED_SANDBOX, noConfigFile, resolveConfig, usesEmbeddedSandbox } = await import('./settings.js');
  try {
    const command = parseCommand(argv);
    if (command.kind !== 'tui') return undefined;
    if (!command.forceSandbox) {
      if (existsSync(configPath())) return undefined;
      if (!usesEmbeddedSandbox(false, resolveConfig(command.flags, process.env, noConfigFile()))) return undefined;
    }
  } catch {
    return undefined; // legacy.ts parses again and says what is wrong
  }
  const { startSandboxThread } = await import('../sandbox/thread.js');
  const started = startSandboxThread(EMBEDDED_SANDBOX, { codeCacheDir: codeCacheDir() });
  started.catch(() => undefined); // legacy.ts awaits it and reports a failure
  return { started };
}

async function main(original: string[]): Promise<number> {
  // A shell's tab (completion.ts's scripts): hidden, quick, and quiet whatever it is given.
  if (original[0] === '__complete') return (await import('./commands/completion.js')).runComplete(original.slice(1), io, jsonFieldsOf);
  // `help interns list` is `interns list --help`, as gh and kubectl read it.
  const asked = original[0] === 'help' && original.length > 1 ? [...original.slice(1), '--help'] : original;
  const argv = hoistGlobalFlags(asked);
  const [first] = argv;
  if (argv.length === 1 && (first === '--version' || first === '-v')) {
    process.stdout.write(`intern-tui ${VERSION}\n`);
    return EXIT.ok;
  }
  if (argv.length === 1 && (first === '--help' || first === '-h' || first === 'help')) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const found = findCommand(argv);
  if (found === null) {
    if (first !== undefined && !first.startsWith('-')) throw new CliError(EXIT.usage, unknownCommand(first));
    const early = await earlySandbox(argv);
    const { runLegacy } = await import('./legacy.js');
    return runLegacy(argv, early);
  }
  if ('verbs' in found) {
    if (found.given === undefined || found.given === '--help' || found.given === '-h') {
      (found.given === undefined ? process.stderr : process.stdout).write(nounHelp(found.noun, found.verbs));
      return found.given === undefined ? EXIT.usage : EXIT.ok;
    }
    const near = closest(found.given, found.verbs.map((v) => v.verb ?? ''));
    throw new CliError(EXIT.usage, `unknown command "${found.noun} ${found.given.slice(0, 40)}"${near ? ` (did you mean "${found.noun} ${near}"?)` : ''}; see intern-tui ${found.noun} --help`);
  }
  const { spec, rest } = found;
  if (spec.raw) {
    const { runCommand } = await import('./run.js');
    // A raw command (config, sandbox) prints no JSON, but its refusal is JSON when --json was given.
    return runCommand(spec, rest, { values: {}, positionals: [], json: asksForJson(rest) ? [] : null }, io);
  }
  const parsed = parseFor(spec, rest);
  if (parsed.values.help) {
    process.stdout.write(commandHelp(spec));
    return EXIT.ok;
  }
  const { runCommand } = await import('./run.js');
  return runCommand(spec, rest, parsed, io);
}

function finish(code: number): void {
  process.exitCode = code;
  const signal = code === EXIT.hangup ? 'SIGHUP' : code === EXIT.terminated ? 'SIGTERM' : undefined;
  if (signal) {
    // Everything is closed: end by the signal that ended the TUI, as a program should. (After a
    // hangup an exit would also have Node restore the dead terminal's mode, and Node 20 aborts
    // when that fails.)
    endBy(signal);
    return;
  }
  // Ink, pty and socket handles may linger; the command is done. Let stdout drain first.
  process.stdout.write('', () => setTimeout(() => process.exit(code), 50).unref());
}

/** Runs the command line, sets the exit code and ends the process. */
export function dispatch(argv: string[]): Promise<void> {
  return main(argv).then(finish, (e: unknown) => {
    if (process.env.INTERN_TUI_DEBUG === '1') console.error(e);
    // By name, not instanceof: an error from the TUI comes from dist/tui.cjs, which has its own copies of these classes.
    const name = (e as Error | undefined)?.name;
    const usage = name === 'CliError' ? (e as CliError).exitCode : name === 'UsageError' || name === 'ConfigError' ? EXIT.usage : EXIT.failed;
    const wantsJson = asksForJson(process.argv);
    const message = (e as Error | undefined)?.message ?? String(e);
    process.stderr.write(wantsJson ? JSON.stringify({ error: { message, exit: usage } }) + '\n' : `intern-tui: ${message}\n`);
    finish(usage);
  });
}
