/**
 * Bulk actions on 200 interns (issue 41): a sandbox process (the built CLI), 200 interns created,
 * then the bulk runner the TUI uses (src/tui/state/bulk.ts) provisions them all, suspends them all
 * and deletes them all, at BULK_CONCURRENCY and, for comparison, one at a time and eight at a time.
 * Each line prints the time, how many row updates were reported (each row's start and end), what
 * came to each row, and how many answers were a 5xx (the budget: none) or a 429. The client makes
 * one attempt per request here (maxAttempts 1), so no 5xx is hidden by a retry.
 *
 * Run: `npm run build && BENCH_ONLY=bulk npx tsx bench/run.ts`, or `npx tsx bench/bulk.ts`.
 * BENCH_BULK_COUNT (default 200).
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ApiError, createClient } from '../src/client/index.js';
import type { InternApi } from '../src/client/types.js';
import type { Intern } from '../src/contract/intern.js';
import { BULK_CONCURRENCY, type BulkPlan, type InternAction, internPlan, runBulk } from '../src/tui/state/bulk.js';
import { startSandboxProcess } from '../test/e2e/harness.js';

const COUNT = Number(process.env.BENCH_BULK_COUNT ?? 200);

interface Tally {
  fives: number;
  limited: number;
}

/** The plan with each failure's status counted. */
function counting<T>(plan: BulkPlan<T>, tally: Tally): BulkPlan<T> {
  return {
    ...plan,
    act: (item, opts) =>
      plan.act(item, opts).catch((e: unknown) => {
        if (e instanceof ApiError && e.status >= 500) tally.fives++;
        if (e instanceof ApiError && e.status === 429) tally.limited++;
        throw e;
      }),
  };
}

async function timed<T>(what: string, plan: BulkPlan<T>, concurrency: number): Promise<{ ok: boolean; line: string }> {
  const tally: Tally = { fives: 0, limited: 0 };
  let updates = 0;
  const start = performance.now();
  const end = await runBulk(counting({ ...plan, concurrency }, tally), () => updates++).done;
  const ms = performance.now() - start;
  const c = end.counts;
  const line = `${what.padEnd(22)} ×${concurrency}: ${ms.toFixed(0).padStart(6)} ms · ${(end.rows.length / (ms / 1000)).toFixed(0)} rows/s · ${updates} progress updates · done ${c.done}, failed ${c.failed}, skipped ${c.skipped} · 5xx ${tally.fives} · 429 ${tally.limited}`;
  const firstFailure = end.rows.find((r) => r.state === 'failed');
  return { ok: tally.fives === 0 && c.failed === 0, line: firstFailure ? `${line} (first failure: ${firstFailure.label}: ${firstFailure.note})` : line };
}

async function all(api: InternApi): Promise<Intern[]> {
  const rows: Intern[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.listInterns({ limit: 500, starting_after: after });
    rows.push(...page.data);
    if (!page.has_more || !page.next_cursor) return rows;
    after = page.next_cursor;
  }
}

/** Every line printed, and whether every row went through with no 5xx. */
export async function bulkRows(print: (line: string) => void = console.log): Promise<boolean> {
  const sb = await startSandboxProcess();
  let ok = true;
  try {
    const m = sb.manifest;
    const api = createClient({ baseUrl: m.base_url, credentials: { api_key: m.credentials.api_key }, maxAttempts: 1 });
    const names = Array.from({ length: COUNT }, (_, n) => `bulk-${String(n).padStart(3, '0')}`);
    const created = await timed(
      `create ${COUNT}`,
      { items: names, idOf: (n) => n, labelOf: (n) => n, act: (n, opts) => api.createIntern({ name: n }, opts) },
      BULK_CONCURRENCY,
    );
    print(created.line);
    ok &&= created.ok;
    const ours = async () => (await all(api)).filter((i) => i.name.startsWith('bulk-'));
    /** Until every one has settled (provisioning takes the sandbox's steps). */
    const settle = async (status: string) => {
      const deadline = Date.now() + 120_000;
      while (!(await ours()).every((i) => i.status === status)) {
        if (Date.now() > deadline) throw new Error(`the interns did not all become ${status}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    for (const concurrency of [1, BULK_CONCURRENCY, 8]) {
      for (const action of ['provision', 'suspend'] as InternAction[]) {
        const rows = await ours();
        const r = await timed(`${action} ${rows.length}`, internPlan(api, action, rows), concurrency);
        print(r.line);
        ok &&= r.ok;
        await settle(action === 'provision' ? 'running' : 'stopped');
      }
    }
    const del = await timed(`delete ${COUNT}`, internPlan(api, 'delete', await ours()), BULK_CONCURRENCY);
    print(del.line);
    ok &&= del.ok;
  } finally {
    await sb.stop();
  }
  print(`bulk: ${ok ? 'every row done, no 5xx' : 'FAILED: a row failed or a 5xx came'} · load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  return ok;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ok = await bulkRows();
  process.exitCode = ok ? 0 : 1;
}
