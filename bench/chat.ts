/**
 * Row 8 of `npm run bench` (issue 39): a key typed into the chat prompt until the frame that shows
 * it, with a long transcript (100,000 lines: five turns of `run: seq 1 20000` as the sandbox
 * answers it), against an empty chat and one a screenful long, in one process. The app is rendered
 * in-process by ink-testing-library (Ink's debug mode: every commit writes its whole frame), so the
 * figure is React, the layout and Ink's output, without a terminal: what the transcript's length
 * can cost. Each key is an `x` timed until a frame shows it in the prompt, then a backspace (not
 * timed). The three chats are open at once and take turns a key at a time, so each sees the same
 * machine and code as warm as the others' (measured one after the other, the empty chat, first,
 * ran on colder code: its median moved from 3 to 5 ms between runs).
 *
 * `npm run bench` runs this from a bundle made as the TUI's is (bench/chatMain.ts, bundled with
 * scripts/bundling.mjs's options): the Ink users run, with the bundle's replacements for its text
 * caches, string widths and ANSI tokenizer, and React's production build. Run from source, Ink is
 * the package's own, and a key cost three to five times as much.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { conversationOf, newTurn, type Turn } from '../src/tui/screens/chatModel.js';
import { cleanup } from 'ink-testing-library';
import { FakeApi, IDS } from '../test/component/fakeApi.js';
import { renderApp } from '../test/component/render.js';

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

/** A chat open on `turns`, with a key timed until the frame that shows it. */
async function openChat(turns: Turn[]) {
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
  /** One `x`, timed, and the backspace after it. */
  const key = async (): Promise<number> => {
    const ms = await one('x', /^› x *$/m);
    await one('backspace', /^› {2}a prompt/m);
    return ms;
  };
  return { key, close: () => app.unmount() };
}

export interface ChatRow {
  empty: number[];
  /** A transcript of one screenful (40 lines): what drawing a full screen costs, whatever lies above it. */
  screenful: number[];
  long: number[];
  lines: number;
  /** The heap the long chat held once open (after a full collection) beyond what the process held before it opened: the transcript, its layout, the chat. */
  heapMb: number;
  rssMb: number;
}

/** The empty chat, one a screenful long and the long one, open at once in this process, taking turns a key at a time. */
export async function chatKeystrokes(lines = CHAT_LINES, keys = CHAT_KEYS): Promise<ChatRow> {
  const empty = await openChat([]);
  const screenful = await openChat(longTranscript(40));
  // The heap the long chat holds: its turns, their layout, the chat (after a full collection each side).
  const before = heapMb();
  const long = await openChat(longTranscript(lines));
  const heap = heapMb() - before;
  const chats = [empty, screenful, long];
  const times: number[][] = chats.map(() => []);
  for (let i = 0; i < WARM_KEYS + keys; i++) {
    // The order turns every key, so none is always first after the others' frames.
    for (let k = 0; k < chats.length; k++) {
      const c = (i + k) % chats.length;
      const ms = await chats[c]!.key();
      if (i >= WARM_KEYS) times[c]!.push(ms);
    }
  }
  for (const c of chats) c.close();
  cleanup();
  const sorted = times.map((t) => t.sort((a, b) => a - b));
  return { empty: sorted[0]!, screenful: sorted[1]!, long: sorted[2]!, lines, heapMb: heap, rssMb: process.memoryUsage().rss / 2 ** 20 };
}
