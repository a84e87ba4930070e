/**
 * A screen's set-up in one call: the key scopes its footer lists, and whether
 * it takes every key (a text field or a prompt is open), so global keys stand
 * aside. Both are set in layout effects, before the next key is let through;
 * the capture is released when the screen leaves.
 */
import { useLayoutEffect } from 'react';
import { useTui } from '../context.js';
import type { Scope } from '../keymap.js';

export function useScreen(scopes: readonly Scope[], capture = false): void {
  const { setScopes, setCapture } = useTui();
  const key = scopes.join(' ');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the scopes are compared by value
  useLayoutEffect(() => setScopes([...scopes]), [setScopes, key]);
  useLayoutEffect(() => {
    setCapture(capture);
    return () => setCapture(false);
  }, [setCapture, capture]);
}
