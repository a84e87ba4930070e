/**
 * `replay FILE`: plays an asciicast v2 recording in this terminal, through the emulator (the
 * player paints its screen: the recording's control sequences never reach this terminal raw).
 * space pauses, ←/→ seek, q quits. Loaded only when the command runs.
 */
import { CastError, parseCast } from '../../attach/asciicast.js';
import { decodeInput } from '../../attach/keys.js';
import { Player } from '../../attach/player.js';
import { explainFileError, readRegularFile } from '../../files.js';
import { sanitize } from '../../text.js';
import { replayAction, replayHint } from '../../tui/rawKeys.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT } from '../exit.js';
import { takeTerminal } from '../fullScreen.js';

/** The largest recording read (a flood recorded whole is a few MB a second of it). */
export const REPLAY_MAX_BYTES = 512 << 20;
/** How far ←/→ move. */
export const SEEK_SECONDS = 5;
/** Leaving the alternate screen as it was found. */
const LEAVE = '\x1b[0m\x1b[?25h\x1b[?7h\x1b[?1049l';

/** A number flag: positive, finite, or a usage error naming it. */
function positive(ctx: RunContext, flag: string): number | undefined {
  const text = ctx.text(flag);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(EXIT.usage, `--${flag} must be a number above 0, not "${sanitize(text).slice(0, 20)}"`);
  return n;
}

/** Reads and parses a recording, or says in one line why it cannot be played. */
export function readRecording(path: string): ReturnType<typeof parseCast> {
  let text: string;
  try {
    text = readRegularFile(path, REPLAY_MAX_BYTES);
  } catch (e) {
    throw new CliError(EXIT.failed, `cannot read ${sanitize(path)}: ${explainFileError(e)}`);
  }
  try {
    return parseCast(text);
  } catch (e) {
    if (e instanceof CastError) throw new CliError(EXIT.failed, `${sanitize(path)}: ${e.message}`);
    throw e;
  }
}

export async function replay(ctx: RunContext): Promise<number> {
  const { stdin, stdout } = ctx.io;
  const out = stdout as NodeJS.WriteStream;
  const speed = positive(ctx, 'speed');
  const idleLimit = positive(ctx, 'idle-limit');
  const path = ctx.positionals[0]!;
  const cast = readRecording(path);
  if (!stdin.isTTY || !stdout.isTTY || !stdin.setRawMode) {
    throw new CliError(EXIT.usage, 'replay needs an interactive terminal (stdin and stdout must be a TTY)');
  }
  await new Promise<void>((resolve) => {
    const player = new Player({
      ...cast,
      cols: out.columns || 80,
      rows: out.rows || 24,
      write: (s) => out.write(s),
      speed,
      idleLimit,
      title: cast.header.title ?? path,
      hint: replayHint(),
    });
    const onData = (chunk: string) => {
      for (const event of decodeInput(chunk)) {
        const action = replayAction(event);
        if (action === 'quit') return finish();
        if (action === 'pause') player.togglePause();
        else if (action === 'back') player.seek(-SEEK_SECONDS);
        else if (action === 'forward') player.seek(SEEK_SECONDS);
      }
    };
    const onResize = () => player.resize(out.columns || 80, out.rows || 24);
    let done = false;
    let release = () => {};
    function finish(): void {
      if (done) return;
      done = true;
      player.dispose();
      release();
      resolve();
    }
    ctx.signal.addEventListener('abort', finish, { once: true });
    release = takeTerminal({ stdin: stdin as NodeJS.ReadStream, out, onData, onResize, leave: LEAVE });
    player.start();
  });
  return EXIT.ok;
}
