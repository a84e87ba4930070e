/**
 * Keystroke echo, measured for several paths in the same window (rows 2 and 7).
 *
 * Each path is a `Typist`: something that types a key at a shell prompt and sees its echo come
 * back (intern-tui's screen, tmux's client, the service's bare client, attach NAME with and
 * without the recorder). The paths take turns a line at a time (LINE_KEYS keys, then ctrl+u), the
 * order of the turns rotated every line, until each has typed `samples` keys. Measured one after
 * the other, a figure and its reference saw different minutes of a shared machine: row 2's p99
 * moved from 4.8 to 15.8 ms between runs of one build, its reference from 2.2 to 8.3, and row 7's
 * recording-off p99 (the reference) was 13.0 ms in one run and 3.8 in the next. Taking turns, a
 * busy second lands on every path alike.
 */
import { performance } from 'node:perf_hooks';
import type { PtyScreen } from '../test/e2e/harness.js';

/** Keys on one line before it is erased: the 100-column screens never wrap it. */
export const LINE_KEYS = 40;

/** One path whose echo is timed. Each path types at a prompt of its own (its own terminal). */
export interface Typist {
  /** Resolves once its prompt is on an empty line, ready for the first key. */
  ready(): Promise<void>;
  /** Types `ch`, `typed` being the line before it; resolves once the echo is seen. */
  key(ch: string, typed: string): Promise<void>;
  /** Erases the line (ctrl+u) and resolves once it is empty again. */
  clear(): Promise<void>;
}

/**
 * A typist on a screen parsed by the bench (intern-tui's, tmux's client's, attach NAME's): the
 * echo is seen when the cursor's line reads `prompt typed`.
 */
export function screenTypist(screen: PtyScreen, prompt: string): Typist {
  return {
    ready: () => screen.whenParsed(() => screen.cursorLine() === prompt, 10_000, 'the prompt on an empty line'),
    key: (ch, typed) => {
      const want = `${prompt} ${typed}${ch}`;
      const seen = screen.whenParsed(() => screen.cursorLine() === want, 5_000, `the echo of ${ch}`);
      screen.write(ch);
      return seen;
    },
    clear: () => {
      // ctrl+u: the line discipline erases the line.
      screen.write('\x15');
      return screen.whenParsed(() => screen.cursorLine() === prompt, 5_000, 'the line to clear');
    },
  };
}

/**
 * Each typist's echo times in milliseconds, sorted, in the typists' order: `samples` keys each,
 * `keyGapMs` apart (40 a second, faster than anyone types: sent back to back, each echo would
 * wait out the frame cap of the one before), a line per turn. The time runs from the key's write
 * to its echo seen; each line is erased before the next turn, so every typist ends on an empty
 * prompt.
 */
export async function interleavedEchoes<const T extends readonly Typist[]>(typists: T, samples: number, keyGapMs: number): Promise<{ [K in keyof T]: number[] }> {
  const times = typists.map((): number[] => []);
  for (const t of typists) await t.ready();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  for (let line = 0; line * LINE_KEYS < samples; line++) {
    const keys = Math.min(LINE_KEYS, samples - line * LINE_KEYS);
    for (let turn = 0; turn < typists.length; turn++) {
      const who = (line + turn) % typists.length;
      const t = typists[who]!;
      let typed = '';
      for (let i = 0; i < keys; i++) {
        await new Promise((r) => setTimeout(r, keyGapMs));
        const ch = alphabet[(line * LINE_KEYS + i) % alphabet.length]!;
        const start = performance.now();
        await t.key(ch, typed);
        times[who]!.push(performance.now() - start);
        typed += ch;
      }
      await t.clear();
    }
  }
  return times.map((xs) => xs.sort((a, b) => a - b)) as { [K in keyof T]: number[] };
}
