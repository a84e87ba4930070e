/**
 * How every command line ends (dispatch.ts, and tuiEntry.ts's quickTui for the TUI with no arguments): the
 * exit code set and the process ended, by the signal that ended the TUI where one did; a failure
 * said in one line on stderr (as JSON when the command line asked for JSON).
 */
import { endBy } from './ending.js';
import { type CliError, EXIT } from './exit.js';

/** Whether a command line asks for JSON: then its errors are JSON too, whatever the command (README). */
export const asksForJson = (argv: readonly string[]): boolean => argv.some((a) => a === '--json' || a.startsWith('--json='));

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

function failed(e: unknown): void {
  if (process.env.INTERN_TUI_DEBUG === '1') console.error(e);
  // By name, not instanceof: an error from the TUI comes from dist/tui.cjs, which has its own copies of these classes.
  const name = (e as Error | undefined)?.name;
  const code = name === 'CliError' ? (e as CliError).exitCode : name === 'UsageError' || name === 'ConfigError' ? EXIT.usage : EXIT.failed;
  const message = (e as Error | undefined)?.message ?? String(e);
  process.stderr.write(asksForJson(process.argv) ? JSON.stringify({ error: { message, exit: code } }) + '\n' : `intern-tui: ${message}\n`);
  finish(code);
}

/** Runs a command to its end: its exit code, or its failure said, then the process ended. */
export const runToEnd = (command: Promise<number>): Promise<void> => command.then(finish, failed);
