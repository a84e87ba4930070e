/**
 * The sandbox's store loses no acknowledged write when its process is killed (kill -9): a writer
 * process inserts interns and prints each id once the insert has returned; it is killed at a
 * moment of its own (after a varying number of writes), and the store, opened again on the same
 * file (the WAL recovered), must hold every id printed. Cycles on one file, so each recovery
 * starts from the last one's.
 *
 * Once, in CI under heavy load, this test hung until its timeout. The cause was the writer, not
 * the store: it printed its acks with process.stdout.write in a loop that never yielded. Node
 * writes to a child's pipe (a socket here) asynchronously on Linux, so the first line the socket
 * could not take at once (about 280 small writes fill it) waited for an event-loop turn that never
 * came, and every later ack with it. When this process was descheduled for some tens of
 * milliseconds while the writer ran, the acks stopped for good a few hundred past the last one read
 * (short of the 350 or 500 of the last cycles); the writer went on inserting at full speed, growing
 * by tens of MB a second, and nothing killed it when the test timed out. The writer now hands each
 * ack to the kernel before its next insert (test/support/storeWriter.ts); the second test stops
 * reading for a while and fails without that. The store has nothing to wait on: libsql's busy
 * timeout is 0, so a lock held by another process fails the writer at once (SQLITE_BUSY, exit code
 * 1), and WAL recovery after a kill is bounded. (Store.close leaves libsql's connection open until
 * its statements are garbage-collected, so this process still has the file open while the next
 * writer runs: an idle reader, which blocks no writer.) Each writer run has a deadline well under
 * the test's timeout: past it the writer is killed and the test fails saying what it saw (acks,
 * the writer's state and stderr, how it ended); afterEach kills any writer still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { Store } from '../../src/sandbox/store.js';

const CYCLES = 4;
/** Per writer run; a cycle takes well under a second on an idle machine, seconds under heavy load. */
const CYCLE_DEADLINE_MS = 25_000;
const dirs: string[] = [];
const writers = new Set<Writer>();
afterEach(async () => {
  // A failed or timed-out test leaves no writer behind (one whose acks stalled would insert for ever).
  await Promise.all([...writers].map((w) => w.dispose()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcess;
  acked: string[];
  /** Resolves once `acked` holds at least n ids; rejects, describing the writer, at the deadline or when it ends first. */
  acks(n: number): Promise<void>;
  /** SIGKILLs it; resolves once it has exited by that signal (rejects, describing it, otherwise). */
  kill(): Promise<void>;
  /** Drops its deadlines, SIGKILLs it if it runs and waits for it to exit: for afterEach. */
  dispose(): Promise<void>;
}

/** The Linux scheduler's state of a process ("R (running)", "S (sleeping)", "T (stopped)"...), for a failure's message. */
function processState(pid: number | undefined): string {
  try {
    return /^State:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function startWriter(file: string, prefix: string, what: string): Writer {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/storeWriter.ts'), file, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked: string[] = [];
  let partial = '';
  let stderr = '';
  let firstAck: number | undefined;
  let killing = false;
  let ended: string | undefined;
  const waiters = new Set<() => void>();
  const deadlines = new Set<NodeJS.Timeout>();
  const wake = (): void => waiters.forEach((w) => w());
  const describe = (problem: string, wanted: number): Error =>
    new Error(
      `${what}: ${problem}. It had acknowledged ${acked.length} of ${wanted} writes (last: ${acked.at(-1) ?? 'none'}; ` +
        `first after ${firstAck === undefined ? '-' : firstAck - started} ms) in ${Date.now() - started} ms. ` +
        `Its stderr: ${stderr.trim() ? stderr.trim().slice(-2000) : '(empty)'}`,
    );
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    if (lines.length > 0) firstAck ??= Date.now();
    acked.push(...lines);
    wake();
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('error', (e) => {
    ended ??= `it could not be run (${e.message})`;
    wake();
  });
  // 'close', not 'exit': its stdout and stderr have been read to the end.
  child.on('close', (code, signal) => {
    ended ??= code !== null ? `it exited with code ${code}` : `it ended by ${signal}${killing ? ' (sent by this test)' : ''}`;
    wake();
  });

  /** Waits for `done` (checked at each event of the writer's), failing on `ended` or at the deadline, when it kills the writer. */
  const until = (done: () => boolean, wanted: number, atDeadline: () => string, onEnd: () => Error | undefined): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (done()) finish();
        else if (ended !== undefined) finish(onEnd());
      };
      const finish = (err?: Error): void => {
        clearTimeout(deadline);
        deadlines.delete(deadline);
        waiters.delete(check);
        if (err) reject(err);
        else resolve();
      };
      const deadline = setTimeout(() => {
        const problem = atDeadline();
        killing = true;
        child.kill('SIGKILL');
        finish(describe(problem, wanted));
      }, CYCLE_DEADLINE_MS);
      deadlines.add(deadline);
      waiters.add(check);
      check();
    });

  const writer: Writer = {
    child,
    acked,
    acks: (n) =>
      until(
        () => acked.length >= n,
        n,
        () => `the writer did not reach ${n} acks within ${CYCLE_DEADLINE_MS / 1000} s; it was still running (${processState(child.pid)}, pid ${child.pid}) and has been killed`,
        () => describe(`the writer ended before ${n} acks: ${ended}`, n),
      ),
    kill: () => {
      killing = true;
      child.kill('SIGKILL');
      const wanted = acked.length;
      return until(
        () => false,
        wanted,
        () => `the writer did not end within ${CYCLE_DEADLINE_MS / 1000} s of its SIGKILL (${processState(child.pid)})`,
        () => (child.signalCode === 'SIGKILL' ? undefined : describe(`the writer ended before its SIGKILL landed: ${ended}`, wanted)),
      );
    },
    dispose: async () => {
      deadlines.forEach((d) => clearTimeout(d));
      writers.delete(writer);
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      killing = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
  writers.add(writer);
  return writer;
}

/** Runs the writer until it has acknowledged `writes` inserts, then SIGKILLs it: the ids it acknowledged. */
async function writeThenKill(file: string, cycle: number, writes: number): Promise<string[]> {
  const writer = startWriter(file, `c${cycle}`, `cycle ${cycle + 1} of ${CYCLES}`);
  await writer.acks(writes);
  await writer.kill();
  return writer.acked;
}

test(`no acknowledged write is lost over ${CYCLES} kill -9 cycles`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-durability-'));
  dirs.push(dir);
  const file = join(dir, 'sandbox.db');
  const all: string[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const acked = await writeThenKill(file, cycle, 50 + cycle * 150);
    expect(acked.length).toBeGreaterThanOrEqual(50 + cycle * 150);
    all.push(...acked);
    const store = new Store(file);
    try {
      const missing = all.filter((id) => store.intern(id) === undefined);
      expect(missing).toEqual([]);
    } finally {
      store.close();
    }
  }
}, 120_000);

test('the writer still acknowledges every insert after this process has not read its output for a while', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-durability-'));
  dirs.push(dir);
  const file = join(dir, 'sandbox.db');
  const writer = startWriter(file, 'lag', 'the lagging reader');
  await writer.acks(1);
  const store = new Store(file);
  let inserted: number;
  try {
    // This process stops reading (its event loop blocked, as when CI deschedules it) until the
    // writer has stopped inserting (it waits for its acks to be read) or has run far ahead of
    // what was read (the stall: its acks no longer leave it). Polling the rows is the wait.
    const count = (): number => (store.db.prepare('SELECT count(*) AS n FROM interns').get() as { n: number }).n;
    const tick = new Int32Array(new SharedArrayBuffer(4));
    const ahead = writer.acked.length + 3000;
    const deadline = Date.now() + CYCLE_DEADLINE_MS;
    let last = -1;
    for (inserted = count(); inserted !== last && inserted < ahead && Date.now() < deadline; inserted = count()) {
      last = inserted;
      Atomics.wait(tick, 0, 0, 20);
    }
  } finally {
    store.close();
  }
  // Every insert it made meanwhile is acknowledged once this process reads again.
  await writer.acks(inserted);
  await writer.kill();
  expect(writer.acked.length).toBeGreaterThanOrEqual(inserted);
}, 60_000);
