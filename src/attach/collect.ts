/**
 * A young-generation collection, asked for while a flood is held.
 *
 * Every message of a flood arrives in buffers of its own (the socket's reads,
 * then the WebSocket message they are joined into), dead as soon as the bytes
 * are skimmed, but their memory is given back only when V8 next scavenges.
 * A scavenge comes when the JavaScript heap's young generation fills, and a
 * held flood, mostly left unparsed, allocates too little on that heap for one
 * to come soon: 30 to 45 MB of dead buffers piled up before one did (peak
 * memory 15 to 20 MB over a TUI that parsed every byte; bench/README.md). A
 * scavenge costs about a millisecond there, so one is asked for every
 * COLLECT_EVERY_MS while output is held.
 *
 * `gc` exists only with --expose-gc; the flag is set at run time (a documented
 * use of v8.setFlagsFromString), the function taken from a fresh context, and
 * the flag unset again at once, on the first flood only: V8 refuses a code
 * cache written under other flags than its reader's, and the TUI writes its
 * cache at exit (src/codeCache.ts), so a session that had held a flood left the
 * next start to compile everything. The function keeps working. Where any of
 * it fails, nothing is collected early.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const COLLECT_EVERY_MS = 100;

type Collector = (options: { type: 'minor' | 'major' }) => void;
let collector: Collector | null | undefined;
let last = -Infinity;

function getCollector(): Collector | null {
  if (collector !== undefined) return collector;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    setFlagsFromString('--no-expose-gc');
    collector = typeof gc === 'function' ? (gc as Collector) : null;
  } catch {
    collector = null;
  }
  return collector;
}

/** Scavenges the young generation, at most once every COLLECT_EVERY_MS; true when it did. */
export function collectYoung(now = performance.now()): boolean {
  if (now - last < COLLECT_EVERY_MS) return false;
  const gc = getCollector();
  if (!gc) return false;
  last = now;
  gc({ type: 'minor' });
  return true;
}
