/**
 * Row 6 of `npm run bench` (issue 39): a key typed into the chat prompt until the frame that shows
 * it, with a long transcript (100,000 lines: five turns of `run: seq 1 20000` as the sandbox
 * answers it) against an empty chat, in one process. The app is rendered in-process by
 * ink-testing-library (Ink's debug mode: every commit writes its whole frame), so the figure is
 * React, the layout and Ink's output, without a terminal: what the transcript's length can cost.
 * Each key is an `x` timed until a frame shows it in the prompt, then a backspace (not timed).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { conversationOf, newTurn, type Turn } from '../src/tui/screens/chatModel.js';
import { FakeApi, IDS } from '../test/component/fakeApi.js';

export const CHAT_KEYS = Number(process.env.BENCH_CHAT_KEYS ?? 200);
export const CHAT_LINES = Number(process.env.BENCH_CHAT_LINES ?? 100_000);
const WARM_KEYS = 20;
const LINES_A_TURN = 20_000;

/** A `run: seq 1 N` turn as the sandbox streams it: reasoning, the command's output in a code block, the exit status, usage. */
export function seqTurn(n: number, from = 1): Turn {
  const out = Array.from({ length: n }, (_, i) => String(from + i)).join('\n');
  return {
    ...newTurn(`run: seq ${from} ${from + n - 1}`),
    reasoning: `The prompt asks me to run \`seq ${from} ${from + n - 1}\` in my workspace shell. `,
    answer: `Running \`seq ${from} ${from + n - 1}\` in my workspace:\n\n\`\`\`\n${out}\n\`\`\`\n\nExit status 0.`,
    status: 'done',
    started: true,
    usage: { prompt_tokens: 12, completion_tokens: n, total_tokens: n + 12 },
  };
}

/** Turns holding `lines` lines of output in all. */
export function longTranscript(lines: number): Turn[] {
  const turns: Turn[] = [];
  for (let done = 0; done < lines; done += LINES_A_TURN) turns.push(seqTurn(Math.min(LINES_A_TURN, lines - done), done + 1));
  return turns;
}

const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export interface ChatKeys {
  /** Milliseconds from each key's write to the frame that shows it, sorted. */
  times: number[];
}

/** `keys` timed keystrokes in the chat prompt over `turns` (after a few untimed ones). */
async function keystrokes(turns: Turn[], keys: number): Promise<{ times: number[]; heapMb: number }> {
  // React as the built TUI has it (production): its development build keeps a timing entry for
  // every render, which grows the heap with the keys, not the transcript. Loaded here, after
  // NODE_ENV is set, for that reason.
  process.env.NODE_ENV ??= 'production';
  const { cleanup } = await import('ink-testing-library');
  const { renderApp } = await import('../test/component/render.js');
  const before = heapMb();
  const api = new FakeApi();
  conversationOf(api, IDS.runner).turns.push(...turns);
  const app = renderApp({ api, initial: { name: 'chat', id: IDS.runner } });
  app.resize({ columns: 120, rows: 40 });
  await app.waitFor(/^› {2}a prompt/m, 600_000);
  let want: RegExp | null = null;
  let seen: () => void = () => undefined;
  const write = app.stdout.write.bind(app.stdout);
  app.stdout.write = (frame: string) => {
    write(frame);
    if (want?.test(frame)) seen();
  };
  const one = async (key: string, shows: RegExp): Promise<number> => {
    const shown = new Promise<void>((res) => (seen = res));
    want = shows;
    const start = performance.now();
    await app.press(key);
    await shown;
    want = null;
    return performance.now() - start;
  };
  const times: number[] = [];
  for (let i = 0; i < WARM_KEYS + keys; i++) {
    const ms = await one('x', /^› x *$/m);
    if (i >= WARM_KEYS) times.push(ms);
    await one('backspace', /^› {2}a prompt/m);
  }
  // Measured with the chat still open: its layout, its rows, the transcript itself.
  const heap = heapMb() - before;
  app.unmount();
  cleanup();
  return { times: times.sort((a, b) => a - b), heapMb: heap };
}

export interface ChatRow {
  empty: number[];
  /** A transcript of one screenful (40 lines): what drawing a full screen costs, whatever lies above it. */
  screenful: number[];
  long: number[];
  lines: number;
  /** The heap the long chat held at its end (after a full collection) beyond what the process held before it opened: the transcript, its layout, the chat. */
  heapMb: number;
  rssMb: number;
}

/** The empty chat, then the long one, in this process. */
export async function chatKeystrokes(lines = CHAT_LINES, keys = CHAT_KEYS): Promise<ChatRow> {
  const empty = await keystrokes([], keys);
  const screenful = await keystrokes(longTranscript(40), keys);
  const long = await keystrokes(longTranscript(lines), keys);
  return { empty: empty.times, screenful: screenful.times, long: long.times, lines, heapMb: long.heapMb, rssMb: process.memoryUsage().rss / 2 ** 20 };
}
