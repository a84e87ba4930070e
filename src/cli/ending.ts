/**
 * How a command ends when it is told to: SIGHUP (its terminal went away), SIGTERM. The command is
 * aborted and what it opened is closed first (an embedded sandbox would otherwise leave its
 * database and workspaces in the temporary directory, and its programs running), then the process
 * ends by that same signal, as the shell expects of a program it signalled. A terminal that went
 * away shows as EIO on writing to it (or reading from it) before or instead of SIGHUP, and counts
 * as SIGHUP (onTerminalGone, tui/terminal.ts: the TUI watches with it too, in tui/index.tsx, and
 * dispatch.ts ends it by the signal, since Ink must unmount first).
 */

import { constants } from 'node:os';
import { type EndingSignal, onTerminalGone } from '../tui/terminal.js';
import { EXIT } from './exit.js';

/** How long closing may take before the process ends anyway. */
const CLEANUP_MS = 5000;

/**
 * Ends the process by `signal`, once everything is closed. The 'exit' listeners run first, as on
 * any exit (the TUI's code cache is saved there), since a process a signal ends runs none of them.
 */
export function endBy(signal: EndingSignal): void {
  process.removeAllListeners(signal);
  process.emit('exit', 128 + constants.signals[signal]);
  process.kill(process.pid, signal);
}

/** Why a command is ended from outside: a signal, the reader of its output gone (a closed pipe), or its output that cannot be written (a full disk). */
export type Ending = EndingSignal | 'pipe' | 'write';

/**
 * Watches for SIGHUP, SIGTERM, a terminal or pipe gone (EIO or EPIPE on `streams`) and output
 * that cannot be written (another error on `streams[0]`, the output: a full disk). On the first,
 * calls `abort`, awaits `cleanup`, then ends the process by the signal, or, for a closed pipe,
 * with EXIT.closedPipe (Node ignores SIGPIPE, so it cannot end by it), or, for output that
 * cannot be written, with one line on stderr and EXIT.failed; later ones wait for that. Answers
 * a function that stops watching the signals, for when the command has ended on its
 * own; the streams stay watched, since the last words (an error message, the final flush) can
 * still meet a terminal that went away, and an unhandled EIO crashed the process there.
 */
export function endOnSignals(abort: (ending: Ending) => void, cleanup: () => Promise<void>, streams: NodeJS.EventEmitter[]): () => void {
  let ending = false;
  const end = (how: Ending, why?: string) => {
    if (ending) return;
    ending = true;
    abort(how);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, CLEANUP_MS));
    void Promise.race([cleanup().catch(() => undefined), deadline]).then(() => {
      if (how === 'pipe') return process.exit(EXIT.closedPipe);
      if (how === 'write') {
        // One line, not the stack of the write that failed (an error on stderr, were it full too,
        // is an event the watch below takes, not a throw).
        process.stderr.write(`intern-tui: cannot write the output: ${why}\n`);
        return process.exit(EXIT.failed);
      }
      endBy(how);
    });
  };
  const onHangup = () => end('SIGHUP');
  const onTerm = () => end('SIGTERM');
  process.on('SIGHUP', onHangup);
  process.on('SIGTERM', onTerm);
  onTerminalGone(
    streams,
    (how) => end(how === 'pipe' ? 'pipe' : 'SIGHUP'),
    // Only the output (the first stream) ends the command: a note that cannot reach stderr, or
    // stdin opened the wrong way, leaves the data on stdout to be written.
    (e, stream) => {
      if (stream === streams[0]) end('write', e.code === 'ENOSPC' ? 'ENOSPC (no space left on the device)' : (e.code ?? e.message));
    },
  );
  return () => {
    if (ending) return;
    process.off('SIGHUP', onHangup);
    process.off('SIGTERM', onTerm);
  };
}
