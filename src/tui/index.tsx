/** `runTui`: renders the app in the alternate screen and resolves with the exit code. */
import { render } from 'ink';
import { App } from './app.js';
import { KeysProvider } from './hooks/useKeys.js';
import { GatedOutput, screen } from './output.js';
import type { TuiOptions } from './types.js';
export type { TuiOptions, FeatureSpec } from './types.js';

const ENTER_ALT = '\x1b[?1049h\x1b[H';
const LEAVE_ALT = '\x1b[?2004l\x1b[?25h\x1b[?1049l';

export async function runTui(options: TuiOptions): Promise<number> {
  const out = process.stdout;
  out.write(ENTER_ALT);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    out.write(LEAVE_ALT);
  };
  process.once('exit', restore);
  const gate = new GatedOutput(out);
  screen.gate = gate;
  const instance = render(
    <KeysProvider>
      <App options={options} />
    </KeysProvider>,
    {
    stdout: gate as unknown as NodeJS.WriteStream,
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
  }
}
