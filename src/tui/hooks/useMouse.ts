/**
 * The mouse for components. `MouseProvider` (once, at the root) hears the key splitter's mouse
 * reports (stdinSplitter.ts: they never reach Ink) and routes each to the box it falls in
 * (mouse.ts); `useMouse(ref, handler)` makes a box listen, in its own cells. As the key queue
 * does (useKeys.ts), the provider hands out one report per commit, so a second wheel notch read
 * in the same chunk as the first meets the screen the first one made, not the one before it.
 */
import { type DOMElement, useStdin } from 'ink';
import { createContext, createElement, type ReactNode, type RefObject, useCallback, useContext, useLayoutEffect, useRef, useState } from 'react';
import type { MouseReport } from '../../attach/mouse.js';
import { TuiContext } from '../context.js';
import { type MouseEvent, MouseRouter, placeOf } from '../mouse.js';

const MouseContext = createContext<MouseRouter | null>(null);

/** Mount once, near the root; `now` is the clock double-clicks are timed by (tests set it). */
export function MouseProvider({ children, now }: { children: ReactNode; now?: () => number }) {
  const router = useRef<MouseRouter | null>(null);
  router.current ??= new MouseRouter(now);
  const { stdin } = useStdin();
  const queue = useRef<MouseReport[]>([]).current;
  const waiting = useRef(false);
  const [delivered, setDelivered] = useState(0);
  const pump = useCallback(() => {
    const next = queue.shift();
    if (!next) return;
    waiting.current = true;
    setDelivered((n) => n + 1);
    router.current!.dispatch(next);
  }, [queue]);
  useLayoutEffect(() => {
    if (!waiting.current) return;
    waiting.current = false;
    if (queue.length > 0) setImmediate(pump);
  }, [delivered, queue, pump]);
  useLayoutEffect(() => {
    const onMouse = (report: MouseReport) => {
      const idle = queue.length === 0 && !waiting.current;
      queue.push(report);
      if (idle) pump();
    };
    stdin.on('mouse', onMouse);
    return () => void stdin.off('mouse', onMouse);
  }, [stdin, queue, pump]);
  return createElement(MouseContext.Provider, { value: router.current }, children);
}

/**
 * Hands `handler` the mouse reports that fall in the box `ref` holds, in its cells (from its top
 * left). Listens while `active`; left out, while the screen has the keyboard (no overlay open).
 * Outside a MouseProvider (component tests of a part alone), it does nothing.
 */
export function useMouse(ref: RefObject<DOMElement | null>, handler: (event: MouseEvent) => void, active?: boolean): void {
  const router = useContext(MouseContext);
  const tui = useContext(TuiContext);
  const handlerRef = useRef(handler);
  const activeRef = useRef(true);
  handlerRef.current = handler;
  activeRef.current = active ?? tui?.active ?? true;
  useLayoutEffect(() => {
    if (!router) return;
    return router.add({
      place: () => (ref.current ? placeOf(ref.current) : null),
      handle: (event) => handlerRef.current(event),
      active: () => activeRef.current,
    });
  }, [router, ref]);
}
