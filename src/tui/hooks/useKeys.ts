/**
 * Key handling. One subscription at the root dispatches every key to the
 * handlers registered by mounted components. Handlers register during render,
 * not in an effect, so a field that has just appeared already receives the next
 * key, and each call reaches the handler of the latest render.
 */
import { type Key, useInput, useStdin } from 'ink';
import { createContext, createElement, type ReactNode, useCallback, useContext, useId, useLayoutEffect, useRef, useState } from 'react';
import { splitKeys } from '../keyParse.js';

type Entry = { handler: { current: (input: string, key: Key) => void }; active: { current: boolean }; text: boolean };
type Registry = Map<string, Entry>;

const KeysContext = createContext<Registry | null>(null);

/**
 * False inside a subtree React keeps mounted but hidden (the screen under a full-screen route, in
 * app.tsx's `<Activity mode="hidden">`). React still renders such a subtree, at low priority, but
 * runs none of its effects: a handler registered as it renders would take keys unseen, and one
 * unmounted while hidden would never leave the registry. Hidden, nothing registers; the layout
 * effect registers it again when the subtree is shown.
 */
export const KeysShown = createContext(true);

/**
 * Mount once at the root: the single input subscription.
 *
 * React commits a state change a few milliseconds after the handler that made
 * it, so two keys read close together would both meet the screen as it was
 * before the first. The provider therefore delivers one key per commit: after
 * each key it bumps its own counter, whose commit also carries every update
 * the key made, and the next key goes out once that commit is done. A run of
 * printable characters read at once (keys typed faster than a frame) is split
 * into single keys the same way, unless a text field is taking text, in which
 * case a paste stays whole. So `/` then `b` filters; it does not jump to BYOK.
 */
export function KeysProvider({ children }: { children: ReactNode }) {
  const registry = useRef<Registry>(new Map()).current;
  const queue = useRef<[string, Key][]>([]).current;
  const waiting = useRef(false);
  const [delivered, setDelivered] = useState(0);
  const { isRawModeSupported } = useStdin();
  const anyActive = useCallback(() => [...registry.values()].some((e) => e.active.current), [registry]);
  const pump = useCallback(() => {
    const next = queue.shift();
    if (!next) return;
    if (!anyActive()) {
      queue.length = 0;
      return;
    }
    // Marked before the handlers run, so a handler that throws cannot leave the queue stuck.
    waiting.current = true;
    setDelivered((n) => n + 1);
    for (const entry of [...registry.values()]) if (entry.active.current) entry.handler.current(...next);
  }, [queue, registry, anyActive]);
  useLayoutEffect(() => {
    if (!waiting.current) return;
    waiting.current = false;
    if (queue.length > 0) setImmediate(pump);
  }, [delivered, queue, pump]);
  const dispatch = useCallback(
    (input: string, key: Key) => {
      if (!anyActive()) return;
      const textTaken = [...registry.values()].some((e) => e.text && e.active.current);
      const idle = queue.length === 0 && !waiting.current;
      queue.push(...splitKeys(input, key, textTaken));
      if (idle) pump();
    },
    [registry, queue, pump, anyActive],
  );
  useInput(dispatch, { isActive: Boolean(isRawModeSupported) });
  return createElement(KeysContext.Provider, { value: registry }, children);
}

/** Handles keys while `active`; never throws without a TTY. A text field passes `{ text: true }` to take pasted runs whole. */
export function useKeys(handler: (input: string, key: Key) => void, active = true, opts: { text?: boolean } = {}): void {
  const text = opts.text ?? false;
  const registry = useContext(KeysContext);
  const shown = useContext(KeysShown);
  const { isRawModeSupported } = useStdin();
  const id = useId();
  const handlerRef = useRef(handler);
  const activeRef = useRef(active);
  handlerRef.current = handler;
  activeRef.current = active;
  if (registry && shown && !registry.has(id)) registry.set(id, { handler: handlerRef, active: activeRef, text });
  // A layout effect: its cleanup runs within the commit, so a field that just left the screen
  // is out of the registry before the pump lets the next key go.
  useLayoutEffect(() => {
    if (!registry) return;
    registry.set(id, { handler: handlerRef, active: activeRef, text });
    return () => {
      registry.delete(id);
    };
  }, [registry, id, text]);
  // Outside a KeysProvider (a component rendered on its own), subscribe directly.
  const direct = useCallback((input: string, key: Key) => {
    if (activeRef.current) handlerRef.current(input, key);
  }, []);
  useInput(direct, { isActive: !registry && Boolean(isRawModeSupported) });
}
