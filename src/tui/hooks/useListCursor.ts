import { useEffect, useState } from 'react';
import type { Key } from 'ink';
import { matches } from '../keymap.js';

/** Cursor movement over a list by the keymap's list bindings; answers whether the key was used. */
export function useListCursor(length: number, pageSize: number) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (index >= length && length > 0) setIndex(length - 1);
  }, [length, index]);
  const handle = (input: string, key: Key): boolean => {
    const last = Math.max(0, length - 1);
    if (matches('down', input, key)) setIndex((i) => Math.min(last, i + 1));
    else if (matches('up', input, key)) setIndex((i) => Math.max(0, i - 1));
    else if (matches('top', input, key)) setIndex(0);
    else if (matches('bottom', input, key)) setIndex(last);
    else if (matches('pageDown', input, key)) setIndex((i) => Math.min(last, i + pageSize));
    else if (matches('pageUp', input, key)) setIndex((i) => Math.max(0, i - pageSize));
    else return false;
    return true;
  };
  return { index: Math.min(index, Math.max(0, length - 1)), setIndex, handle };
}

/** The window of rows to draw so the cursor stays visible. */
export function windowOf(index: number, length: number, height: number): [number, number] {
  const h = Math.max(1, height);
  const start = Math.max(0, Math.min(index - Math.floor(h / 2), length - h));
  return [start, Math.min(length, start + h)];
}
