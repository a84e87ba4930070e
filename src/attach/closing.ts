/**
 * Recordings being closed (recorder.ts adds each close while its worker writes the rest): the TUI
 * waits for them before the process ends (tui/index.tsx). A leaf, so that waiting loads no
 * recorder, worker or asciicast code at the TUI's start.
 */
const closing = new Set<Promise<void>>();

/** Counts a close until it settles. */
export function trackClose(done: Promise<void>): void {
  closing.add(done);
  const forget = () => void closing.delete(done);
  done.then(forget, forget);
}

/** Resolves once every recording closed so far is on disk. */
export function recordingsWritten(): Promise<void> {
  return Promise.all(closing).then(() => undefined);
}
