/**
 * A screen's actions, one at a time: while one runs its label shows as busy; when it succeeds the
 * screen flashes `done` and reloads what it shows; when it fails the error stays for the screen
 * to draw until the next action starts.
 */
import { useState } from 'react';
import { useTui } from '../context.js';

export function useAction(reload: () => void) {
  const { nav } = useTui();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (label: string, fn: () => Promise<unknown>, done: string): Promise<void> => {
    setBusy(label);
    setError(undefined);
    try {
      await fn();
      nav.flash(done);
      reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  /** Shows an error of the screen's own (a load it started) where action errors show. */
  return { busy, error, run, fail: setError };
}
