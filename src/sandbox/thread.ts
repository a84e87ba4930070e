/**
 * `startSandbox` in a worker thread: the same sandbox, started on another core. The TUI's
 * embedded sandbox runs here, so loading fastify and SQLite, seeding the demo data and
 * spawning terminals do not hold up the first frame on a 2-core machine. This file is light
 * (node:worker_threads, and secretSource.ts, which imports nothing); the sandbox itself loads inside the worker.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { takeSecretFromEnv } from './secretSource.js';
import type { RunningSandbox, SandboxOptions } from './types.js';

export type ToWorker = { type: 'close' };
export type FromWorker =
  | ({ type: 'ready' } & Pick<RunningSandbox, 'baseUrl' | 'origin' | 'manifest' | 'workspacesDir'>)
  | { type: 'error'; message: string }
  | { type: 'closed'; error?: string }
  /** A warning of the worker's process (a deprecation, say), to be emitted by the main thread's. */
  | { type: 'warning'; name: string; message: string; code?: string };

/** Options that cross the thread boundary: everything but the functions (the worker's notes come as warnings). */
export type ThreadSandboxOptions = Omit<SandboxOptions, 'log' | 'notice'>;

/** The worker's data: the sandbox's options, and where the bundle's worker keeps its code cache (compiled.ts). */
export interface WorkerInput {
  options: ThreadSandboxOptions;
  codeCacheDir?: string;
}

/**
 * The worker's file: `worker.ts` beside this one from source; in the bundle `dist/sandbox-worker.cjs`
 * (compiled.ts, which runs worker.ts's CommonJS bundle with a code cache; this code sits in
 * `dist/chunks/`, or in `dist/tui.cjs`).
 */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('./worker.ts', here);
  const beside = new URL('./sandbox-worker.cjs', here);
  return existsSync(fileURLToPath(beside)) ? beside : new URL('../sandbox-worker.cjs', here);
}

export function startSandboxThread(options: ThreadSandboxOptions = {}, cache: { codeCacheDir?: string } = {}): Promise<RunningSandbox> {
  // The secret's variables are taken here, in the main thread: the worker's environment is a copy of
  // this one's, and a program the main thread starts later must not inherit them either.
  const fromEnv = takeSecretFromEnv();
  if (fromEnv.note) process.emitWarning(fromEnv.note, { type: 'SandboxNotice' });
  const input: WorkerInput = { options: { ...options, secret: options.secret ?? fromEnv.source }, ...cache };
  const worker = new Worker(workerUrl(), { workerData: input });
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(new Error(`the embedded sandbox did not start: ${message}`));
    };
    worker.once('error', (e) => fail(e.message));
    worker.once('exit', (code) => fail(`its thread exited (code ${code})`));
    worker.on('message', (m: FromWorker) => {
      // The worker's warnings are the main thread's to print, or to hold while the TUI has the
      // screen (tui/terminal.ts, holdWarnings): printed from the worker, they came out over it.
      if (m.type === 'warning') return process.emitWarning(m.message, { type: m.name, code: m.code });
      if (m.type === 'error') return fail(m.message);
      if (m.type !== 'ready' || settled) return;
      settled = true;
      const { type: _ready, ...info } = m;
      let closing: Promise<void> | undefined;
      resolve({
        ...info,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            worker.on('message', (c: FromWorker) => {
              if (c.type === 'closed') void worker.terminate().then(() => done());
            });
            worker.once('exit', () => done());
            worker.postMessage({ type: 'close' } satisfies ToWorker);
          })),
      });
    });
  });
}
