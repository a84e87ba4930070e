/**
 * Exit codes of every `intern-tui` command, and the error that carries one.
 * Cheap to import: nothing but the closest-word helper, so `--help` stays fast.
 */
import { closest } from '../client/closest.js';

export const EXIT = {
  ok: 0,
  /** The service refused the request or failed (or could not be reached). */
  failed: 1,
  /** The command line is wrong: unknown command or flag, missing argument, bad value. */
  usage: 2,
  /** A credential is needed and missing, or the service refused it (401/403). */
  auth: 4,
  /** Interrupted (SIGINT / ctrl+c). */
  interrupted: 130,
  /**
   * Ended by SIGHUP (the terminal went away) or SIGTERM: once everything is closed, the process
   * ends by that signal again (ending.ts, dispatch.ts), as a shell reports it: 129, 143.
   */
  hangup: 129,
  terminated: 143,
  /**
   * The reader of its output went away (a closed pipe: `| head` had what it wanted): ends quietly
   * once everything is closed, with the status a shell reports for a program SIGPIPE ended, as gh
   * and kubectl end then.
   */
  closedPipe: 141,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_HELP = `Exit codes:
  0    success
  1    the service refused or failed (or could not be reached), or a question was answered no
  2    usage error (unknown command or flag, missing or bad argument)
  4    authentication needed or refused
  129  the terminal went away (SIGHUP), after closing what was open
  130  interrupted
  141  the reader of the output went away (a closed pipe), after closing what was open
  143  terminated (SIGTERM), after closing what was open
`;

/** An error with the exit code it means. The message is for people; it never holds a secret. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    /** About the command's output (its --json fields), not about API fields: no flag names are added to it. */
    readonly aboutOutput = false,
    /** What the service said of a failure it reported inside an answer (a chat run's error chunk): added to the --json error. */
    readonly detail?: { code?: number | string; reason?: string | null },
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(EXIT.usage, message);

/** ` (did you mean X?)` for a value that is none of `known` but near one, else nothing: every enumerated flag's refusal ends so. */
export function nearest(value: string, known: readonly string[]): string {
  const near = closest(value, known);
  return near ? ` (did you mean ${near}?)` : '';
}

/**
 * Refuses a command line before anything is read or sent when a value breaks the contract's
 * rules: each `[what, error]` whose error is not null, every one named (exit 2).
 */
export function refuseWrong(checks: [string, string | null][]): void {
  const wrong = checks.filter((c): c is [string, string] => c[1] !== null);
  if (wrong.length > 0) throw usageError(wrong.map(([what, error]) => `${what}: ${error}`).join('; '));
}

/** Where what a command without --json says is found as JSON. */
const NO_JSON_INSTEAD: Record<string, string> = {
  config: '; intern-tui auth status --json gives the profile, the base URL and where each credential comes from',
  logout: '; its exit status says whether it worked, and intern-tui auth status --json what is left',
};

/**
 * node:util parseArgs's complaint as one line for people. Its "argument is ambiguous" (a value
 * that starts with a dash, `--limit -1`) says how to give such a value only on later lines.
 * `command` (`config`, `logout`) names whose flags these are: a --json it does not take says so,
 * and where that is found as JSON.
 */
export function argsErrorMessage(e: unknown, flags: readonly string[] = [], command = 'this command'): string {
  const message = e instanceof Error ? e.message : '';
  const ambiguous = /^Option '(-[\w-]+)[^']*' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value; one that starts with "-" goes as ${ambiguous[1]}=VALUE`;
  // "Option '--status <value>' argument missing": the flag was last, its value never came.
  const missing = /^Option '(-[\w-]+)(?:, (--[\w-]+))?[^']*' argument missing/.exec(message);
  if (missing) return `${missing[2] ?? missing[1]} needs a value`;
  // Node's own words for this one explain how to pass a positional that starts with "-".
  const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec(message);
  if (unknown) {
    const [, dashes, name] = unknown as unknown as [string, string, string];
    if (dashes === '--' && (name === 'json' || name.startsWith('json='))) return `${command} prints no JSON${NO_JSON_INSTEAD[command.split(' ')[0]!] ?? ''}`;
    const near = dashes === '--' ? closest(name, flags) : null;
    return `unknown flag ${dashes}${name.slice(0, 40)}${near ? ` (did you mean --${near}?)` : ''}`;
  }
  return message.split('\n')[0] || 'bad arguments';
}
