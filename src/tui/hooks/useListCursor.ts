import type { Key } from 'ink';
import { matches } from '../keymap.js';
import { useRemembered } from './useRemembered.js';

/**
 * Cursor movement over a list by the keymap's list bindings; answers whether the key was used.
 * The cursor stays where it was when the screen comes back (useRemembered; `name` tells two lists
 * of one screen apart).
 */
export function useListCursor(length: number, pageSize: number, name = 'cursor') {
  const [raw, setIndex] = useRemembered(name, 0);
  // Clamped where it is read: a list that shrank keeps the cursor on its last row.
  const last = Math.max(0, length - 1);
  const index = Math.min(raw, last);
  const handle = (input: string, key: Key): boolean => {
    if (matches('down', input, key)) setIndex(Math.min(last, index + 1));
    else if (matches('up', input, key)) setIndex(Math.max(0, index - 1));
    else if (matches('top', input, key)) setIndex(0);
    else if (matches('bottom', input, key)) setIndex(last);
    else if (matches('pageDown', input, key)) setIndex(Math.min(last, index + pageSize));
    else if (matches('pageUp', input, key)) setIndex(Math.max(0, index - pageSize));
    else return false;
    return true;
  };
  // Clamped: the remembered row is past what is loaded yet (back from the details before the later
  // pages came again); the cursor waits on the last row for it.
  return { index, setIndex, handle, clamped: raw !== index };
}

/** The window of rows to draw so the cursor stays visible. */
export function windowOf(index: number, length: number, height: number): [number, number] {
  const h = Math.max(1, height);
  const start = Math.max(0, Math.min(index - Math.floor(h / 2), length - h));
  return [start, Math.min(length, start + h)];
}
