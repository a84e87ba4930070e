/**
 * The sandbox's store loses no acknowledged write when its process is killed (kill -9): a writer
 * process inserts interns and prints each id once the insert has returned; it is killed at a
 * moment of its own (after a varying number of writes), and the store, opened again on the same
 * file (the WAL recovered), must hold every id printed. Cycles on one file, so each recovery
 * starts from the last one's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { Store } from '../../src/sandbox/store.js';

const CYCLES = 4;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the writer until it has acknowledged `writes` inserts, then SIGKILLs it: the ids it acknowledged. */
function writeThenKill(file: string, prefix: string, writes: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/storeWriter.ts'), file, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: string[] = [];
    let partial = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop()!;
      acked.push(...lines);
      if (acked.length >= writes && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(acked) : reject(new Error(`the writer ended without being killed: ${stderr}`))));
  });
}

test(`no acknowledged write is lost over ${CYCLES} kill -9 cycles`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-durability-'));
  dirs.push(dir);
  const file = join(dir, 'sandbox.db');
  const all: string[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const acked = await writeThenKill(file, `c${cycle}`, 50 + cycle * 150);
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
