import { useEffect, useRef } from 'react';

/**
 * Calls `poll` while `enabled`, backing off (doubling up to `maxMs`) when it
 * reports no change or fails, and starting over from `minMs` on a change.
 */
export function usePolling(enabled: boolean, poll: () => Promise<boolean>, minMs = 1000, maxMs = 15_000): void {
  const pollRef = useRef(poll);
  pollRef.current = poll;
  useEffect(() => {
    if (!enabled) return;
    let delay = minMs;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const run = async () => {
      let changed = false;
      try {
        changed = await pollRef.current();
      } catch {
        changed = false;
      }
      if (stopped) return;
      delay = changed ? minMs : Math.min(maxMs, delay * 2);
      timer = setTimeout(run, delay);
    };
    timer = setTimeout(run, delay);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [enabled, minMs, maxMs]);
}
