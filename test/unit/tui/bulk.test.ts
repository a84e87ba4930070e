import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import type { CallOptions } from '../../../src/client/types.js';
import { BULK_ATTEMPTS, BULK_CONCURRENCY, type BulkProgress, internPlan, runBulk } from '../../../src/tui/state/bulk.js';

type Item = { id: string; name: string; status: string };
const items = (n: number, status = 'running'): Item[] => Array.from({ length: n }, (_, i) => ({ id: `id-${i}`, name: `intern-${i}`, status }));

/** A fake api whose calls wait until released, recording how many run at once. */
function gatedApi() {
  const calls: { id: string; opts: CallOptions | undefined; alongside: number }[] = [];
  let running = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const failWith = new Map<string, unknown>();
  const act = async (id: string, opts?: CallOptions) => {
    calls.push({ id, opts, alongside: running });
    running++;
    most = Math.max(most, running);
    await new Promise<void>((res) => waiting.push(res));
    running--;
    const e = failWith.get(id);
    if (e) throw e;
  };
  return {
    calls,
    failWith,
    most: () => most,
    waiting,
    /** Lets every call under way finish. */
    releaseAll: async () => {
      for (let i = 0; i < 1000 && (waiting.length > 0 || running > 0); i++) {
        waiting.splice(0).forEach((r) => r());
        await new Promise((r) => setImmediate(r));
      }
    },
    api: { suspendIntern: act, provisionIntern: act, deleteIntern: act },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the bulk runner', () => {
  it('acts on every row once, a few at a time, reporting each row as it moves', async () => {
    const fake = gatedApi();
    const seen: BulkProgress[] = [];
    const run = runBulk(internPlan(fake.api, 'suspend', items(10)), (p) => seen.push(p));
    await tick();
    expect(fake.calls).toHaveLength(BULK_CONCURRENCY);
    expect(run.progress().counts).toMatchObject({ running: BULK_CONCURRENCY, pending: 10 - BULK_CONCURRENCY });
    await fake.releaseAll();
    const end = await run.done;
    expect(end.finished).toBe(true);
    expect(end.counts.done).toBe(10);
    expect(fake.most()).toBe(BULK_CONCURRENCY);
    expect(fake.calls.map((c) => c.id).sort()).toEqual(items(10).map((i) => i.id).sort());
    // Each call asks the client for one try and at most one more.
    expect(fake.calls.every((c) => c.opts?.maxAttempts === BULK_ATTEMPTS)).toBe(true);
    // Every row was seen running, then done.
    for (const id of ['id-0', 'id-9']) {
      const states = seen.map((p) => p.rows.find((r) => r.id === id)!.state).filter((s, i, all) => s !== all[i - 1]);
      expect(states).toEqual(['pending', 'running', 'done']);
    }
  });

  it('skips a row whose status makes the action pointless, with the words s says of one intern, and sends nothing for it', async () => {
    const fake = gatedApi();
    const rows = [...items(1), { id: 'sleepy', name: 'sleeper', status: 'stopped' }];
    const run = runBulk(internPlan(fake.api, 'suspend', rows));
    await fake.releaseAll();
    const end = await run.done;
    expect(fake.calls.map((c) => c.id)).toEqual(['id-0']);
    expect(end.rows[1]).toMatchObject({ state: 'skipped', note: 'sleeper is stopped: only a running intern can be suspended' });
    expect(end.counts).toMatchObject({ done: 1, skipped: 1 });
  });

  it('a failure is listed with its reason, sanitised, and never sent again; the others go on', async () => {
    const fake = gatedApi();
    fake.failWith.set('id-1', new ApiError(409, 409, 'intern_busy', false, 'busy \x1b[31mnow\x1b[0m\nreally', 'POST /interns/{internId}/suspend'));
    fake.failWith.set('id-2', new ApiError(404, 404, 'not_found', false, 'Intern not found', 'POST /interns/{internId}/suspend'));
    const run = runBulk(internPlan(fake.api, 'suspend', items(4)));
    await fake.releaseAll();
    const end = await run.done;
    expect(end.rows[1]).toMatchObject({ state: 'failed', note: 'busy now really' });
    // Not found is a failure for a suspend, and "already gone" for a delete.
    expect(end.rows[2]).toMatchObject({ state: 'failed', note: 'Intern not found' });
    expect(end.counts).toMatchObject({ done: 2, failed: 2 });
    expect(fake.calls).toHaveLength(4);

    const del = gatedApi();
    del.failWith.set('id-0', new ApiError(404, 404, 'not_found', false, 'Intern not found', 'DELETE /interns/{internId}'));
    const gone = runBulk(internPlan(del.api, 'delete', items(1)));
    await del.releaseAll();
    expect((await gone.done).rows[0]).toMatchObject({ state: 'done', note: 'already gone' });
  });

  it('stop starts no more rows: those under way finish, the rest say they were not started', async () => {
    const fake = gatedApi();
    const run = runBulk(internPlan(fake.api, 'provision', items(10, 'stopped')));
    await tick();
    run.stop();
    expect(run.progress().stopping).toBe(true);
    expect(run.progress().counts).toMatchObject({ running: BULK_CONCURRENCY, stopped: 10 - BULK_CONCURRENCY });
    await fake.releaseAll();
    const end = await run.done;
    expect(fake.calls).toHaveLength(BULK_CONCURRENCY);
    expect(end.counts).toMatchObject({ done: BULK_CONCURRENCY, stopped: 10 - BULK_CONCURRENCY });
    expect(end.finished).toBe(true);
  });

  it('a 429 that comes back fails its row; the rest go one at a time, after the Retry-After it named', async () => {
    const fake = gatedApi();
    const limited = new ApiError(429, 429, 'rate_limited', true, 'rate limited (HTTP 429); try again in 2 s', 'POST /interns/{internId}/suspend');
    limited.retryAfterMs = 2000;
    fake.failWith.set('id-0', limited);
    const waits: number[] = [];
    const run = runBulk({ ...internPlan(fake.api, 'suspend', items(8)), sleep: async (ms) => void waits.push(ms) });
    await fake.releaseAll();
    const end = await run.done;
    expect(end.rows[0]).toMatchObject({ state: 'failed', note: 'rate limited (HTTP 429); try again in 2 s' });
    expect(end.counts).toMatchObject({ done: 7, failed: 1 });
    // Each action once: the limited row is not sent again.
    expect(fake.calls.filter((c) => c.id === 'id-0')).toHaveLength(1);
    expect(fake.calls).toHaveLength(8);
    // The first four went together; every one started after the 429 went alone.
    expect(fake.calls.slice(BULK_CONCURRENCY).map((c) => c.alongside)).toEqual([0, 0, 0, 0]);
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2000);
    expect(Math.max(...waits)).toBeGreaterThan(1500);
  });

  it('an empty plan finishes at once', async () => {
    const end = await runBulk(internPlan(gatedApi().api, 'delete', [])).done;
    expect(end).toMatchObject({ finished: true, rows: [] });
  });
});
