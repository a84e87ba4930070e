/**
 * `attach NAME`: the intern's terminal full screen. The remote's bytes go to this terminal
 * as the emulator is given them (no TUI, no status bar; passthrough in AttachSession), so a
 * resize repaints correctly. ctrl+] detaches. Loaded only when the command runs.
 */
import type { Recorder } from '../../attach/recorder.js';
import { AttachSession } from '../../attach/session.js';
import { WebSocketTransport } from '../../attach/transport.js';
import { PROVISIONABLE_STATUSES, STARTING_STATUSES, type DaemonAccess, type Intern } from '../../contract/intern.js';
import { checkName } from '../../contract/rules.js';
import { isPlainId } from '../quote.js';
import { sanitize } from '../../text.js';
import { holdWarnings } from '../../tui/terminal.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT } from '../exit.js';
import { resolveIntern } from '../resolve.js';
import { stateDir } from '../settings.js';
import { recordingProblem, recordingsDir, startRecording } from '../../tui/state/recordings.js';
import { takeTerminal } from '../fullScreen.js';

/** Leaving the alternate screen, undoing modes the remote may have set: mouse reports, application cursor keys, hidden cursor. */
const LEAVE = '\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1l\x1b>\x1b[?25h\x1b[?1049l';

/**
 * Why an intern that is not running cannot be attached to, and what to run instead. The command
 * names it by its name when that is a plain word (the service's rule), else by its id, sanitised.
 */
export function notRunning(intern: Intern): string {
  const name = sanitize(intern.name);
  const status = sanitize(intern.status);
  // Into a command to paste goes a name by the service's rule, or an id that is a plain id (quote.ts).
  const ref = checkName(intern.name) === null ? intern.name : isPlainId(intern.id) ? intern.id : null;
  if (ref === null) return `${name} is not running (${status}); the service named an intern id that is not a plain id, so no command to paste is given`;
  if (PROVISIONABLE_STATUSES.includes(intern.status)) return `${name} is not running (${status}): provision it first, with \`intern-tui interns provision ${ref} --wait\``;
  if (STARTING_STATUSES.includes(intern.status)) return `${name} is not running yet (${status}): \`intern-tui interns wait ${ref}\` returns once it is`;
  return `${name} is not running (${status})`;
}

export async function attach(ctx: RunContext): Promise<number> {
  const { stdin, stdout, stderr } = ctx.io;
  const out = stdout as NodeJS.WriteStream;
  if (!stdin.isTTY || !stdout.isTTY || !stdin.setRawMode) {
    throw new CliError(EXIT.usage, 'attach needs an interactive terminal (stdin and stdout must be a TTY)');
  }
  const file = ctx.positionals[1];
  if (file !== undefined && ctx.values.record !== true) throw new CliError(EXIT.usage, `too many arguments: "${sanitize(file).slice(0, 40)}" is a file only after --record; usage: intern-tui attach NAME [--record [FILE]]`);
  const api = await ctx.api();
  const recording = ctx.values.record === true || ctx.signedIn?.record === 'always';
  if (ctx.values['record-input'] === true && !recording) throw new CliError(EXIT.usage, '--record-input records typed input into a recording: give --record too');
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const name = sanitize(intern.name);
  if (intern.status !== 'running') throw new CliError(EXIT.failed, notRunning(intern));
  let access: DaemonAccess | null = await api.getDaemonAccess(intern.id, { signal: ctx.signal });
  const cols = out.columns || 80;
  const rows = out.rows || 24;
  let recorder: Recorder | undefined;
  if (recording) {
    try {
      recorder = startRecording({ file, dir: recordingsDir(stateDir(ctx.io.env)), intern: intern.name, title: `intern ${name}`, cols, rows, input: ctx.values['record-input'] === true });
    } catch (e) {
      throw new CliError(EXIT.failed, `cannot record to ${sanitize(file ?? 'the recordings folder')}: ${recordingProblem(e)}`);
    }
  }

  let how = '';
  let byService = false;
  const ended = new Promise<void>((resolve) => {
    const session = new AttachSession({
      title: `intern ${name}`,
      cols,
      rows,
      scrollback: 0,
      recorder,
      write: (s) => out.write(s),
      passthrough: {
        writeRaw: (d) => out.write(d),
        onExit: (h, service) => {
          how = h;
          byService = service;
          finish();
        },
      },
      onDetach: () => finish(),
      makeTransport: (handlers, size) =>
        new WebSocketTransport({
          ...size,
          handlers,
          access: async (fresh) => {
            if (fresh || !access) access = await api.getDaemonAccess(intern.id);
            return access;
          },
        }),
    });
    const onData = (chunk: string) => session.input(chunk);
    const onResize = () => session.resize(out.columns || 80, out.rows || 24);
    let done = false;
    // The process's warnings wait until the screen is the user's again (printed now, one would
    // land in the middle of the remote's).
    let releaseWarnings = () => {};
    let release = () => {};
    function finish(): void {
      if (done) return;
      done = true;
      session.dispose();
      release();
      releaseWarnings();
      access = null;
      resolve();
    }
    release = takeTerminal({ stdin: stdin as NodeJS.ReadStream, out, onData, onResize, leave: LEAVE });
    releaseWarnings = holdWarnings();
    session.start();
  });
  await ended;
  stderr.write(how ? `[${name}: ${how}]\n` : `[detached from ${name}]\n`);
  if (recorder) {
    await recorder.close();
    const path = sanitize(recorder.path);
    stderr.write(recorder.error ? `[the recording stopped: ${recordingProblem(recorder.error)}; what was written is in ${path}]\n` : `[recorded to ${path}]\n`);
  }
  // As tmux attach: 0 on a detach or when the program ends; 1 when the service ended the terminal.
  return byService ? EXIT.failed : EXIT.ok;
}
