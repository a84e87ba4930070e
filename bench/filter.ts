/**
 * The one filter at 100x (issue 41): a broad query typed into the intern list, key by key, at 5,000
 * interns against 50. Every intern's name contains "intern", so each key of `intern` matches every
 * row: the worst case for a filter whose cost should follow the screen. Run: `npx tsx bench/filter.ts`
 * (not part of `npm run bench`: no budget is set for it yet; the figures are in bench/README.md).
 *
 * - model: `fuzzyFilter` and the marks of one screenful of rows (what the table draws), in-process;
 *   the first key of a round after a new list of rows pays the index, so the list is indexed once
 *   before the timed rounds (as the screen's is, once its pages are loaded).
 * - screen: the app rendered in-process by ink-testing-library (Ink's debug mode: each commit
 *   writes its whole frame), production React, 120x40; each key timed from its write until a frame
 *   shows the filter's text: `/`, then `intern` a key at a time, then backspace to nothing.
 */
import { loadavg, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Intern } from '../src/contract/intern.js';
import { intern } from '../test/component/fakeApi.js';

const ROUNDS = Number(process.env.BENCH_FILTER_ROUNDS ?? 10);
const SCREEN_ROUNDS = Number(process.env.BENCH_FILTER_SCREEN_ROUNDS ?? 3);
const QUERY = process.env.BENCH_FILTER_QUERY ?? 'intern';
const SCREEN_ROWS = 36;
// None that moves on its own: the list would refresh itself (a new list of rows) while keys are timed.
const STATUSES = ['running', 'stopped', 'failed', 'destroy_failed'] as const;
const MODELS = ['anthropic/claude-sonnet-4', 'openai/gpt-4.1', 'google/gemini-2.5-pro', null];

/** `n` interns named `intern-0` and on, in several statuses and models, one in three with a description. */
export function manyInterns(n: number): Intern[] {
  return Array.from({ length: n }, (_, i) =>
    intern({
      id: `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `intern-${i}`,
      status: STATUSES[i % STATUSES.length],
      model: MODELS[i % MODELS.length] ?? null,
      description: i % 3 === 0 ? `Nightly builds for team ${i % 17}, watches the release branch` : null,
      hostname: i % 5 === 1 ? null : `intern-${i}.interns.test`,
    }),
  );
}

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(2)} ms p99 ${percentile(s, 99).toFixed(2)} ms (max ${s.at(-1)!.toFixed(2)}, ${s.length} keys)`;
};

/** The queries a round types: the query's prefixes up, then down again (backspace), to nothing. */
function keysOf(query: string): string[] {
  const up = [...query].map((_, i) => query.slice(0, i + 1));
  return [...up, ...up.slice(0, -1).reverse(), ''];
}

async function model(n: number): Promise<{ typed: number[]; back: number[]; perQuery: Map<string, number[]> }> {
  const { fuzzyFilter } = await import('../src/tui/fuzzy.js');
  const { filterFields } = await import('../src/tui/screens/internColumns.js');
  const all = manyInterns(n);
  let rows = all;
  const draw = (query: string) => {
    const found = fuzzyFilter(rows, query, filterFields);
    // What the table asks of one screenful: each row's marks.
    let cells = 0;
    for (const m of found.slice(0, SCREEN_ROWS)) cells += m.marks.size;
    return cells;
  };
  const typed: number[] = [];
  const back: number[] = [];
  const perQuery = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS + 1; round++) {
    // Each round a new list (as a reload makes), indexed before the timed keys by a query that
    // matches nothing: what the filter remembers of one round's words does not help the next's.
    rows = [...all];
    draw('zzz');
    let last = '';
    for (const q of keysOf(QUERY)) {
      const start = performance.now();
      draw(q);
      const ms = performance.now() - start;
      if (round > 0) {
        (q.length > last.length ? typed : back).push(ms);
        perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
      }
      last = q;
    }
  }
  return { typed, back, perQuery };
}

/**
 * One round on a fresh app (a fresh list of rows: what the filter remembers of a round's words is
 * the list's, and would make the next round's keys cheaper than a first typing is).
 */
async function screenRound(n: number, typed: number[], back: number[]): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const { cleanup } = await import('ink-testing-library');
  const { renderApp } = await import('../test/component/render.js');
  const { FakeApi } = await import('../test/component/fakeApi.js');
  const api = new FakeApi();
  api.interns = manyInterns(n);
  const app = renderApp({ api });
  // The filter's own line (the footer's starts with "/ filter" too, unindented).
  const open = (f: string) => /^[› ] \/ filter/m.test(f);
  app.resize({ columns: 120, rows: 40 });
  await app.waitFor('intern-0', 60_000);
  // A filter loads every page: once, before the timed rounds, until the title says there are no more.
  await app.press('/', 'z', 'z', 'z');
  await app.waitFor(new RegExp(`0 of ${n} · `), 600_000);
  await app.press('esc');
  await app.waitFor((f) => !open(f), 60_000);
  let want: ((f: string) => boolean) | null = null;
  let seen: () => void = () => undefined;
  const write = app.stdout.write.bind(app.stdout);
  app.stdout.write = (frame: string) => {
    write(frame);
    if (want?.(frame)) seen();
  };
  const one = async (key: string, shows: (f: string) => boolean): Promise<number> => {
    const shown = new Promise<void>((res) => (seen = res));
    want = shows;
    const start = performance.now();
    await app.press(key);
    // A frame that never comes would leave nothing for the event loop to wait on: say which.
    const late = setTimeout(() => {
      console.error(`no frame for ${JSON.stringify(key)} after 60 s:\n${app.frame()}`);
      process.exit(1);
    }, 60_000);
    await shown;
    clearTimeout(late);
    want = null;
    return performance.now() - start;
  };
  const field = (q: string) => (f: string) => new RegExp(`^[› ] / filter +${q === '' ? 'name, model' : q}(?![a-z0-9-])`, 'm').test(f);
  await one('/', open);
  let last = '';
  for (const q of keysOf(QUERY)) {
    const ms = await one(q.length > last.length ? q.at(-1)! : 'backspace', field(q));
    (q.length > last.length ? typed : back).push(ms);
    last = q;
  }
  app.unmount();
  cleanup();
}

/** `SCREEN_ROUNDS` rounds, after one not timed (the code warms up). */
async function screen(n: number): Promise<{ typed: number[]; back: number[] }> {
  await screenRound(n, [], []);
  const typed: number[] = [];
  const back: number[] = [];
  for (let round = 0; round < SCREEN_ROUNDS; round++) await screenRound(n, typed, back);
  return { typed, back };
}

const load = () => `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`;
console.log(`filter bench · node ${process.version} · query "${QUERY}" · ${ROUNDS} rounds (screen ${SCREEN_ROUNDS}) · ${load()}`);
for (const n of [50, 5000]) {
  const m = await model(n);
  console.log(`model  ${String(n).padStart(5)} interns: typed ${summary(m.typed)} · backspace ${summary(m.back)}`);
  if (n === 5000) console.log(`       by query (median ms): ${[...m.perQuery].map(([q, xs]) => `${q || '∅'} ${percentile([...xs].sort((a, b) => a - b), 50).toFixed(1)}`).join(', ')}`);
}
if (process.env.BENCH_FILTER_SCREEN !== '0') {
  for (const n of [50, 5000]) {
    const s = await screen(n);
    console.log(`screen ${String(n).padStart(5)} interns: typed ${summary(s.typed)} · backspace ${summary(s.back)}`);
  }
}
console.log(load());
