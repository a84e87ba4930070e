/**
 * A recording playing, full screen: the player (attach/player.ts) paints it through the emulator,
 * as the attach screen paints a live terminal, while Ink's output is gated. q goes back to the
 * list; a file that cannot be played goes back with one line saying why.
 */
import { useStdin, useStdout } from 'ink';
import { useEffect } from 'react';
import { CastError, parseCast } from '../../attach/asciicast.js';
import { decodeInput } from '../../attach/keys.js';
import { Player } from '../../attach/player.js';
import { explainFileError, readRegularFile } from '../../files.js';
import { useTui } from '../context.js';
import { screen } from '../output.js';
import { replayAction, replayHint } from '../rawKeys.js';
import { AFTER_ATTACH } from '../terminal.js';
import { sanitize } from '../../text.js';

/** The largest recording played (as the CLI's replay). */
const MAX_BYTES = 512 << 20;
const SEEK_SECONDS = 5;

export function PlayRecording({ path, title }: { path: string; title: string }) {
  const { nav } = useTui();
  const { internal_eventEmitter: inputEvents, setRawMode, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  useEffect(() => {
    let cast;
    try {
      cast = parseCast(readRegularFile(path, MAX_BYTES));
    } catch (e) {
      nav.flash(`cannot play ${sanitize(title)}: ${e instanceof CastError ? e.message : explainFileError(e)}`, 'error');
      nav.pop();
      return;
    }
    const real = process.stdout;
    const gate = screen.gate;
    if (gate) gate.suspended = true;
    const keys = screen.keys;
    const player = new Player({ ...cast, cols: stdout.columns || 80, rows: stdout.rows || 24, write: (s) => real.write(s), title: cast.header.title ?? title, hint: replayHint() });
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      player.dispose();
      real.write(AFTER_ATTACH);
      if (gate) gate.suspended = false;
      if (keys) keys.attached = null;
      else inputEvents.off('input', onInput);
      real.off('resize', onResize);
      if (isRawModeSupported) setRawMode(false);
    };
    const onInput = (chunk: string) => {
      for (const event of decodeInput(chunk)) {
        const action = replayAction(event);
        if (action === 'quit') {
          stop();
          return nav.pop();
        }
        if (action === 'pause') player.togglePause();
        else if (action === 'back') player.seek(-SEEK_SECONDS);
        else if (action === 'forward') player.seek(SEEK_SECONDS);
      }
    };
    const onResize = () => player.resize(real.columns || 80, real.rows || 24);
    if (isRawModeSupported) setRawMode(true);
    if (keys) keys.attached = onInput;
    else inputEvents.on('input', onInput);
    real.on('resize', onResize);
    player.start();
    return stop;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);
  return null;
}
