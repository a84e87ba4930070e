/**
 * Key handling. One subscription at the root dispatches every key to the
 * handlers registered by mounted components. Handlers register during render,
 * not in an effect, so a field that has just appeared already receives the next
 * key, and each call reaches the handler of the latest render.
 */
import { type Key, useInput, useStdin } from 'ink';
import { createContext, createElement, type ReactNode, useCallback, useContext, useId, useLayoutEffect, useRef, useState } from 'react';

type Entry = { handler: { current: (input: string, key: Key) => void }; active: { current: boolean }; text: boolean };
type Registry = Map<string, Entry>;

const KeysContext = createContext<Registry | null>(null);

/** A run Ink hands over whole: it splits escape sequences off, but not text from the control keys typed with it. */
const TYPED_CHUNK = /^[^\x1b]+$/u;
/** How Ink reports these keys when they come alone (it calls DEL "delete"). */
const CONTROL_KEYS: Record<string, { input: string; flags: Partial<Key> }> = {
  '\r': { input: '\r', flags: { return: true } },
  '\n': { input: '\r', flags: { return: true } },
  '\t': { input: '', flags: { tab: true } },
  '\x7f': { input: '', flags: { delete: true } },
  '\b': { input: '', flags: { backspace: true } },
};

/** The key flags of a single typed character. */
export function plainKey(ch: string): Key {
  return {
    upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
    home: false, end: false, return: false, escape: false, ctrl: false, shift: /[A-Z]/.test(ch), tab: false,
    backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
    ...CONTROL_KEYS[ch]?.flags,
  } as Key;
}

/** One control character as Ink reports it alone: enter, tab and backspace by name, ^A..^Z as ctrl+letter. */
function controlKey(ch: string): [string, Key] {
  const named = CONTROL_KEYS[ch];
  if (named) return [named.input, plainKey(ch)];
  const code = ch.charCodeAt(0);
  if (code >= 1 && code <= 26) {
    const letter = String.fromCharCode(code + 96);
    return [letter, { ...plainKey(letter), ctrl: true }];
  }
  return [ch, plainKey(ch)];
}

/**
 * Splits a chunk read at once into the keys it holds. Ink hands over "openai\r"
 * or "hex^S" (typed fast, or sent by a script) as one input; they are letters
 * and then an enter, or a ctrl+s. A run of printable characters stays whole
 * when a text field is taking text (a paste); otherwise each character is a
 * key of its own.
 */
export function splitKeys(input: string, key: Key, textTaken: boolean): [string, Key][] {
  const flagged = key.ctrl || key.meta || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow;
  if (flagged || [...input].length < 2 || !TYPED_CHUNK.test(input)) return [[input, key]];
  const keys: [string, Key][] = [];
  for (const part of input.match(/[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+/gu) ?? []) {
    if (/^[\x00-\x1f\x7f]$/.test(part)) keys.push(controlKey(part));
    else if (textTaken) keys.push([part, plainKey(part)]);
    else for (const ch of part) keys.push([ch, plainKey(ch)]);
  }
  return keys;
}

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
  const { isRawModeSupported } = useStdin();
  const id = useId();
  const handlerRef = useRef(handler);
  const activeRef = useRef(active);
  handlerRef.current = handler;
  activeRef.current = active;
  if (registry && !registry.has(id)) registry.set(id, { handler: handlerRef, active: activeRef, text });
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
