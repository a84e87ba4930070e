/**
 * Draws a screen again every so often, for what changes with the clock alone: the ages it shows
 * ("28s ago") stood still while nothing else on it changed. The timer never keeps the process
 * alive.
 */
import { useEffect, useState } from 'react';

/** How often ages are drawn again: they count seconds only under a minute. */
export const AGE_TICK_MS = 10_000;

/** `on`: only while it holds (a countdown shown), so a screen at rest is not drawn again for nothing. */
export function useTick(ms = AGE_TICK_MS, on = true): void {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setTicks((n) => n + 1), ms);
    timer.unref?.();
    return () => clearInterval(timer);
  }, [ms, on]);
}
