/**
 * State a screen keeps while it is in the navigation stack: the list's cursor, its filter, its
 * status filter. Only the top screen is drawn, so a screen below is unmounted while another is
 * open and its useState is lost: back from an intern's details, the list came back unfiltered with
 * the cursor on its first row (as k9s or lazygit would not). The shell gives each route in the
 * stack a memory (app.tsx); a route popped or reset away takes its memory with it.
 */
import { createContext, useCallback, useContext, useState, type SetStateAction } from 'react';

export type ScreenMemory = Map<string, unknown>;

/** The top route's memory; outside the shell (a component alone in a test) each use keeps its own. */
export const ScreenMemoryContext = createContext<ScreenMemory | null>(null);

/** useState whose value outlives the screen's unmounting while its route stays in the stack. `key` is unique within the screen. */
export function useRemembered<T>(key: string, initial: T): [T, (next: SetStateAction<T>) => void] {
  const shared = useContext(ScreenMemoryContext);
  const [own] = useState<ScreenMemory>(() => new Map());
  const memory = shared ?? own;
  const [value, setValue] = useState<T>(() => (memory.has(key) ? (memory.get(key) as T) : initial));
  const set = useCallback(
    (next: SetStateAction<T>) =>
      setValue((prev) => {
        const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
        memory.set(key, v);
        return v;
      }),
    [memory, key],
  );
  return [value, set];
}
