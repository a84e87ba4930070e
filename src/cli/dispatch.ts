/**
 * Everything `intern-tui` does but print its version and help (main.ts does those with nothing
 * else loaded, from the bundle; from source they come here too). Start-up stays small: this file
 * loads only the registry (data), the argument parser (node:util) and the version; a command's
 * implementation, the client, the sandbox and the TUI are imported when they are needed.
 */
import { VERSION } from '../version.js';
import { HELP, parseCommand } from './args.js';
import { asksForJson, runToEnd } from './finish.js';
import { earlySandbox } from './earlySandbox.js';
import { closest } from '../client/closest.js';
import { CliError, EXIT } from './exit.js';
import type { EarlySandbox } from './settings.js';
import { parseFor } from './parse.js';
import { commandHelp, findCommand, nounHelp, unknownCommand } from './registry.js';
import { jsonFieldsOf } from './loaders.js';

const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };


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

/** The embedded sandbox started early (earlySandbox.ts) for a command line that runs the TUI. */
async function earlySandboxFor(argv: string[]): Promise<EarlySandbox | undefined> {
  let command;
  try {
    command = parseCommand(argv);
  } catch {
    return undefined; // legacy.ts parses again and says what is wrong
  }
  return command.kind === 'tui' ? earlySandbox(command.flags, command.forceSandbox) : undefined;
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
    const early = await earlySandboxFor(argv);
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

/** Runs the command line, sets the exit code and ends the process. */
export function dispatch(argv: string[]): Promise<void> {
  return runToEnd(main(argv));
}
