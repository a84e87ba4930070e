/** `runTui`: renders the app in the alternate screen and resolves with the exit code. */
import { render } from 'ink';
import { App } from './app.js';
import { KeysProvider } from './hooks/useKeys.js';
import { GatedOutput, screen } from './output.js';
import { KeySplitter } from './stdinSplitter.js';
import { TUI_ENTER, TUI_LEAVE } from './terminal.js';
import { chooseTheme } from './theme.js';
import type { TuiOptions } from './types.js';
export type { TuiOptions, FeatureSpec } from './types.js';


export async function runTui(options: TuiOptions): Promise<number> {
  chooseTheme({ noColor: options.noColor ?? false });
  const out = process.stdout;
  out.write(TUI_ENTER);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.stdin.setRawMode?.(false);
    out.write(TUI_LEAVE);
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
  const instance = render(
    <KeysProvider>
      <App options={options} />
    </KeysProvider>,
    {
    stdout: gate as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: true,
  });
  const onSignal = () => instance.unmount();
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  try {
    await instance.waitUntilExit();
    return 0;
  } catch {
    return 1;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    restore();
    keys.destroy();
    screen.keys = null;
  }
}
