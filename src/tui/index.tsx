/** `runTui`: renders the app in the alternate screen and resolves with the exit code. */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { render, useStdout } from 'ink';
import { useEffect } from 'react';
import { App } from './app.js';
import { KeysProvider } from './hooks/useKeys.js';
import { recordingsWritten } from '../attach/closing.js';
import { GatedOutput, lendTerminal, screen } from './output.js';
import { KeySplitter } from './stdinSplitter.js';
import { type EndingSignal, holdWarnings, MOUSE_ON, onTerminalGone, TUI_ENTER, TUI_LEAVE } from './terminal.js';
import { setKeymap } from './keymap.js';
import { MouseProvider } from './hooks/useMouse.js';
import { backgroundFromEnv, chooseTheme } from './theme.js';
import type { TuiOptions } from './types.js';
export type { TuiOptions, FeatureSpec } from './types.js';

/**
 * Ink draws at most this many frames a second (its default is 30). A frame asked for within the
 * interval after the last waits for its end: the intern list's page, answered while the first
 * frame was being drawn, reached the screen 34 ms after it at 30 (the TUI to its list against a
 * running service, median of 10: 175-180 ms at 30, 143-159 at 60; bench/README.md), and so does
 * every key's frame that follows another within the interval.
 */
const MAX_FPS = 60;

/** Gives `screen` Ink's way to write its last frame again: a write through Ink clears and redraws it. */
function Repainter(): null {
  const { write } = useStdout();
  useEffect(() => {
    screen.repaint = () => write('');
    return () => {
      screen.repaint = () => {};
    };
  }, [write]);
  return null;
}

/**
 * Whether this process's group is its session's own (the session leader's: a program a terminal
 * or tmux ran directly), which no shell's job control stops and resumes. Linux's /proc says; where
 * it cannot be read, the stop is tried.
 */
function orphanedProcessGroup(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the command name's closing parenthesis: state, ppid, pgrp, session.
    const [, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return pgrp !== undefined && pgrp === session;
  } catch {
    return false;
  }
}

export async function runTui(options: TuiOptions): Promise<number> {
  chooseTheme({ noColor: options.noColor ?? false, background: backgroundFromEnv(process.env), theme: options.theme });
  if (options.keymap) setKeymap(options.keymap);
  const out = process.stdout;
  // The terminal went away (its window closed, an ssh connection dropped): writing to it or reading
  // from it fails with EIO. That ends the TUI as the SIGHUP that comes with it does, its sandbox
  // closed, instead of an unhandled error that crashed it and left the sandbox's folders behind.
  let end = (_signal: EndingSignal) => {};
  onTerminalGone([out, process.stdin, process.stderr], () => end('SIGHUP'));
  // Mouse reports unless the config or --no-mouse said no (TUI_LEAVE turns them off on every way out).
  screen.mouse = options.mouse !== false;
  out.write(TUI_ENTER + (screen.mouse ? MOUSE_ON : ''));
  const releaseWarnings = holdWarnings();
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.stdin.setRawMode?.(false);
    out.write(TUI_LEAVE);
    releaseWarnings();
  };
  process.once('exit', restore);
  const gate = new GatedOutput(out);
  screen.gate = gate;
  // One key per chunk for every useInput (see stdinSplitter.ts).
  const keys = new KeySplitter(process.stdin);
  screen.keys = keys;
  // Raw mode from the start, not from the first useInput's effect: the list can be drawn in the very
  // first frame, and a key typed at it must arrive as that key (in cooked mode the terminal would
  // echo it, hold it until a newline and turn enter into a line feed). Ink keeps it on while it
  // has input hooks and turns it off when the last one goes.
  keys.setRawMode(true);
  // ctrl+z (app.tsx): the terminal goes back to the shell and the process group stops, as with vim
  // or less; the shell's `fg` continues it, the kill returns, and the screen is taken back and
  // drawn again (lendTerminal, as for $EDITOR). Where nothing can resume it (a process group with no
  // shell's job control), the stop is refused and the kill returns at once.
  screen.suspend =
    process.platform === 'win32'
      ? null
      : () => {
          // The kernel discards a stop sent to an orphaned process group (one a terminal or tmux
          // started directly, not a shell): the screen would only flicker. Said instead.
          if (orphanedProcessGroup()) return false;
          return lendTerminal(() => {
            try {
              process.kill(0, 'SIGTSTP');
              return true;
            } catch {
              // No process group to stop: straight back, and said.
              return false;
            }
          });
        };
  const instance = render(
    <KeysProvider>
      <MouseProvider>
        <Repainter />
        <App options={options} />
      </MouseProvider>
    </KeysProvider>,
    {
    stdout: gate as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: true,
    maxFps: MAX_FPS,
  });
  // Ended by a signal, the TUI answers 128 + its number, as a shell would for a process it killed;
  // the command line re-raises it once everything is closed (cli/dispatch.ts).
  let endedBy: EndingSignal | undefined;
  end = (signal) => {
    endedBy ??= signal;
    instance.unmount();
  };
  const onHangup = () => end('SIGHUP');
  const onTerm = () => end('SIGTERM');
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHangup);
  try {
    await instance.waitUntilExit();
    return endedBy ? 128 + constants.signals[endedBy] : 0;
  } catch {
    return 1;
  } finally {
    // Once a signal has ended the TUI, the listeners stay: a second one (a hangup sends more than
    // one) must not kill the process while the command line closes the sandbox; it re-raises the
    // signal when done.
    if (!endedBy) {
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHangup);
    }
    restore();
    keys.destroy();
    screen.keys = null;
    screen.suspend = null;
    screen.mouse = false;
    // A recording closed on the way out (a detach just before quitting) is written before the process ends.
    await recordingsWritten();
  }
}
