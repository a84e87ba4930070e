/** Copying to the terminal's clipboard: OSC 52 through Ink's stdout, and a flash saying what was copied. */
import { useStdout } from 'ink';
import { useTui } from '../context.js';
import { osc52 } from '../terminal.js';

/** `copy(text, what)`: `text` (already sanitised) to the clipboard; the flash says `copied WHAT`. */
export function useClipboard(): (text: string, what: string) => void {
  const { stdout } = useStdout();
  const { nav } = useTui();
  return (text, what) => {
    stdout.write(osc52(text));
    nav.flash(`copied ${what} (OSC 52)`);
  };
}
