import { type Key, useInput, useStdin } from 'ink';

/** `useInput`, gated so it never throws without a TTY, and off while `active` is false. */
export function useKeys(handler: (input: string, key: Key) => void, active = true): void {
  const { isRawModeSupported } = useStdin();
  useInput(handler, { isActive: Boolean(isRawModeSupported) && active });
}
