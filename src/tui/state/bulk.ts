/**
 * One action over many rows (suspend, provision or delete the marked interns; delete the marked
 * BYOK keys or vault secrets), React-free: a few at a time, each row's progress reported as it
 * moves, each action sent once, and a stop that starts no more while those under way finish.
 *
 * Retries: the runner never sends a row's action again. Each call asks the client for at most
 * BULK_ATTEMPTS attempts, so the client's own rule (only what the service says may be tried again:
 * a 429 after its Retry-After, a retryable 5xx) sends it at most once more, never twice. A 429 that
 * comes back all the same fails its row, and the rest of the run goes one at a time, starting the
 * next row only once the Retry-After it named has passed.
 */
import { ApiError } from '../../client/errors.js';
import type { CallOptions, InternApi } from '../../client/types.js';
import type { Intern } from '../../contract/intern.js';
import { sanitize } from '../../text.js';
import { lifecycleRefusal } from '../lifecycle.js';

/** Rows acted on at once. The spec states no rate limit; the sandbox gave no 5xx at 200 rows (bench/README.md, "Bulk actions"). */
export const BULK_CONCURRENCY = 4;
/** One try, and one more only where the client's rule allows one (see above). */
export const BULK_ATTEMPTS = 2;
/** The wait after a 429 that named none. */
const DEFAULT_WAIT_MS = 1000;

export type BulkState = 'pending' | 'running' | 'done' | 'failed' | 'skipped' | 'stopped';

export interface BulkRow {
  readonly id: string;
  /** The row's name, sanitised. */
  readonly label: string;
  readonly state: BulkState;
  /** Why it failed or was skipped, sanitised; what it came to when done ("already gone"). */
  readonly note: string | null;
}

export interface BulkPlan<T> {
  items: readonly T[];
  idOf: (item: T) => string;
  /** Its name as the service gave it (sanitised here). */
  labelOf: (item: T) => string;
  /** Why the action would be pointless for this row now (a stopped intern to suspend), or null. */
  skip?: (item: T) => string | null;
  act: (item: T, opts: CallOptions) => Promise<unknown>;
  /** A 404 means the row is gone already: done (a delete), not failed. */
  goneIsDone?: boolean;
  concurrency?: number;
  /** For tests: waits out a Retry-After. */
  sleep?: (ms: number) => Promise<void>;
}

export type BulkCounts = Record<BulkState, number>;

export interface BulkProgress {
  rows: readonly BulkRow[];
  counts: BulkCounts;
  /** Nothing runs or will start: every row is done, failed, skipped or stopped. */
  finished: boolean;
  /** `stop` was called. */
  stopping: boolean;
}

/** A failure in one sanitised line, for the row's note. */
export function failureText(e: unknown): string {
  if (e instanceof Error) return sanitize(e.message) || sanitize(e.name);
  return sanitize(String(e));
}

export function countStates(rows: readonly BulkRow[]): BulkCounts {
  const counts: BulkCounts = { pending: 0, running: 0, done: 0, failed: 0, skipped: 0, stopped: 0 };
  for (const r of rows) counts[r.state]++;
  return counts;
}

export interface BulkRun {
  /** Starts no more rows; those under way finish (their rows then say so). */
  stop(): void;
  /** The last progress reported. */
  progress(): BulkProgress;
  /** Settles once the run has finished (never rejects). */
  done: Promise<BulkProgress>;
}

/** The rows before anything is sent: pending, or skipped with why (what the confirmation lists). */
export function planRows<T>(plan: BulkPlan<T>): BulkRow[] {
  return plan.items.map((item) => {
    const note = plan.skip?.(item) ?? null;
    return { id: plan.idOf(item), label: sanitize(plan.labelOf(item)), state: note ? 'skipped' : 'pending', note: note ? sanitize(note) : null };
  });
}

const defaultSleep = (ms: number) => new Promise<void>((res) => setTimeout(res, ms));

/** Starts the run at once; `onProgress` hears every change (a row starting, ending, the stop). */
export function runBulk<T>(plan: BulkPlan<T>, onProgress: (p: BulkProgress) => void = () => undefined): BulkRun {
  const sleep = plan.sleep ?? defaultSleep;
  let rows: BulkRow[] = planRows(plan);
  let stopping = false;
  let width = Math.max(1, plan.concurrency ?? BULK_CONCURRENCY);
  /** No row starts before this time (a 429's Retry-After). */
  let notBefore = 0;
  let last: BulkProgress;
  const report = () => {
    const counts = countStates(rows);
    last = { rows, counts, finished: counts.pending === 0 && counts.running === 0, stopping };
    onProgress(last);
  };
  const set = (i: number, state: BulkState, note: string | null) => {
    rows = rows.slice();
    rows[i] = { ...rows[i]!, state, note };
    report();
  };
  let nextIndex = 0;
  const take = (): number | null => {
    while (nextIndex < rows.length && rows[nextIndex]!.state !== 'pending') nextIndex++;
    return nextIndex < rows.length ? nextIndex++ : null;
  };
  const worker = async (slot: number): Promise<void> => {
    for (;;) {
      // A 429 narrowed the run: the slots past the width stop taking rows.
      if (stopping || slot >= width) return;
      const wait = notBefore - Date.now();
      if (wait > 0) {
        await sleep(wait);
        if (stopping) return;
      }
      const i = take();
      if (i === null) return;
      set(i, 'running', null);
      try {
        await plan.act(plan.items[i]!, { maxAttempts: BULK_ATTEMPTS });
        set(i, 'done', null);
      } catch (e) {
        if (plan.goneIsDone && e instanceof ApiError && e.status === 404) set(i, 'done', 'already gone');
        else {
          if (e instanceof ApiError && e.status === 429) {
            width = 1;
            notBefore = Date.now() + (e.retryAfterMs ?? DEFAULT_WAIT_MS);
          }
          set(i, 'failed', failureText(e));
        }
      }
    }
  };
  report();
  const slots = Array.from({ length: Math.min(width, rows.length) }, (_, slot) => worker(slot));
  const done = Promise.all(slots).then(() => {
    report();
    return last;
  });
  return {
    stop() {
      if (stopping) return;
      stopping = true;
      // The rows not started say so at once; those under way finish and say how.
      rows = rows.map((r) => (r.state === 'pending' ? { ...r, state: 'stopped' as const, note: 'not started (stopped)' } : r));
      report();
    },
    progress: () => last,
    done,
  };
}

/** What `s`, `p` and `D` do to marked interns. */
export type InternAction = 'suspend' | 'provision' | 'delete';

/** The run's words for each action, for the confirmation, the progress and the flash. */
export const INTERN_ACTION_WORDS: Record<InternAction, { verb: string; doing: string; done: string }> = {
  suspend: { verb: 'Suspend', doing: 'Suspending', done: 'suspended' },
  provision: { verb: 'Provision', doing: 'Provisioning', done: 'provisioning' },
  delete: { verb: 'Delete', doing: 'Deleting', done: 'being deleted' },
};

/**
 * The plan for an intern action: skipped where the intern's status makes it pointless, with the
 * same words `s`, `p` and `D` say of one intern (lifecycle.ts), rather than a request the service
 * answers 409.
 */
export function internPlan<T extends Pick<Intern, 'id' | 'name' | 'status'>>(
  api: Pick<InternApi, 'suspendIntern' | 'provisionIntern' | 'deleteIntern'>,
  action: InternAction,
  items: readonly T[],
): BulkPlan<T> {
  const send = { suspend: api.suspendIntern, provision: api.provisionIntern, delete: api.deleteIntern }[action].bind(api);
  return {
    items,
    idOf: (i) => i.id,
    labelOf: (i) => i.name,
    skip: (i) => lifecycleRefusal(action, i),
    act: (i, opts) => send(i.id, opts),
    goneIsDone: action === 'delete',
  };
}
