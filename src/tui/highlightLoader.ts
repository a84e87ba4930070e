/**
 * Loads the code highlighter (highlight.ts, with highlight.js) once, on first use, and tells who
 * waits for it. Light: only this is in the chat's code until a code block names a language.
 */
import type { Segment } from './wrap.js';

type HighlightLine = (line: string, lang: string) => Segment[] | null;

let loaded: HighlightLine | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads the highlighter once; `onHighlighterReady` listeners are told when it is there. */
export function wantHighlighter(): Promise<void> {
  loading ??= import('./highlight.js')
    .then((m) => {
      loaded = m.highlightLine;
      for (const l of listeners) l();
    })
    .catch(() => undefined); // Without it, code is drawn plain: nothing to tell the person.
  return loading;
}

/** Calls `listener` once the highlighter has loaded; returns the unsubscribe. */
export function onHighlighterReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The highlighter once loaded, else null. */
export const loadedHighlighter = (): HighlightLine | null => loaded;
