/** Asking for the person's attention: the bell or a desktop notification (config `notify`), through Ink's stdout as the clipboard's OSC 52 is. */
import { useStdout } from 'ink';
import { useCallback } from 'react';
import { sanitize, truncate } from '../../text.js';
import { useTui } from '../context.js';
import { attention } from '../terminal.js';

/** The most of a notification's text a desktop shows in any case. */
const TEXT_MAX = 200;

/** `signal(text)`: the terminal is signalled by the profile's `notify` (the bell by default; nothing when off). `text` is sanitised here. */
export function useAttention(): (text: string) => void {
  const { stdout } = useStdout();
  const { options } = useTui();
  const kind = options.notify ?? 'bell';
  return useCallback(
    (text: string) => {
      const seq = attention(kind, 'intern-tui', truncate(sanitize(text), TEXT_MAX));
      if (seq) stdout.write(seq);
    },
    [stdout, kind],
  );
}
