import type { Key } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { matches } from '../keymap.js';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Replaces the data without a request (after a save that answered the new value). */
  set: (value: T) => void;
}

/**
 * Loads with `load` whenever `key` changes or `reload` is called. The last good
 * data stays while reloading and after an error, so a screen is never blank.
 * (The client already retries what the service marks retryable.)
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, key: string, initial?: T): Resource<T> {
  // `initial` (what the previous screen already had) draws at once; the request still refreshes it.
  const [data, setData] = useState<T | undefined>(initial);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    loadRef.current(ctrl.signal).then(
      (value) => {
        if (ctrl.signal.aborted) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (ctrl.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => ctrl.abort();
  }, [key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, set: setData };
}

/**
 * A form's keys before its record has loaded: there is no field to type into yet, so r (refresh)
 * retries a failed load, as the error's hint says. Answers whether the key was used.
 */
export function retryLoadKey(res: Pick<Resource<unknown>, 'error' | 'reload'>, input: string, key: Key): boolean {
  if (!res.error || !matches('refresh', input, key)) return false;
  res.reload();
  return true;
}
