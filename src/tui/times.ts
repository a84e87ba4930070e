/**
 * How the TUI shows times: how long ago ("2d ago") in lists and details alike, or, after `T`
 * (`exactTimes`, everywhere), the exact time in the user's zone with its offset
 * (`2026-11-28 15:04:05 +00:00`). One switch for the whole TUI, kept for the process: a screen that
 * shows times reads it with `useExactTimes` (so it draws again when it flips) and draws each time
 * with `timeText`; a list widens its time column with `useTimeColumns`. The footer says which is on.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { Column } from './components/Table.js';
import { exactTime, relativeTime } from './format.js';
import { widthOf } from '../text.js';

let exact = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const exactTimes = (): boolean => exact;
export function setExactTimes(on: boolean): void {
  exact = on;
  for (const l of listeners) l();
}
export const toggleExactTimes = (): void => setExactTimes(!exact);

/** Whether exact times are on; the component draws again when they are switched. */
export function useExactTimes(): boolean {
  return useSyncExternalStore(subscribe, exactTimes);
}

/** A time as the TUI shows it now: `2d ago`, or the exact time. */
export const timeText = (iso: string, now = Date.now()): string => (exact ? exactTime(iso) : relativeTime(iso, now));

/** The width of an exact time: `2026-11-28 15:04:05 +00:00`. */
export const EXACT_TIME_WIDTH = widthOf('2026-11-28 15:04:05 +00:00');

/** The columns, with the one headed `header` (drawn with `timeText`) wide enough for an exact time while they are on. */
export function useTimeColumns<T>(columns: readonly Column<T>[], header: string): readonly Column<T>[] {
  const on = useExactTimes();
  return useMemo(() => (on ? columns.map((c) => (c.header === header ? { ...c, width: Math.max(c.width ?? 0, EXACT_TIME_WIDTH) } : c)) : columns), [columns, header, on]);
}
