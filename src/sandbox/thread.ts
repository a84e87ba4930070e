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

export type ToWorker = { type: 'start'; options: ThreadSandboxOptions } | { type: 'close' };
export type FromWorker =
  | ({ type: 'ready' } & Pick<RunningSandbox, 'baseUrl' | 'origin' | 'manifest' | 'workspacesDir'>)
  | { type: 'error'; message: string }
  | { type: 'closed'; error?: string }
  /** A warning of the worker's process (a deprecation, say), to be emitted by the main thread's. */
  | { type: 'warning'; name: string; message: string; code?: string };

/** Options that cross the thread boundary: everything but the functions (the worker's notes come as warnings). */
export type ThreadSandboxOptions = Omit<SandboxOptions, 'log' | 'notice'>;

/** The worker's data: where the bundle's worker keeps its code cache (compiled.ts). Its options come in the 'start' message. */
export interface WorkerInput {
  codeCacheDir?: string;
}

/**
 * A worker thread that has begun to boot and load the sandbox's code, and does nothing else until
 * it is started: loading has no effect outside the thread (no folder, no file, no port), so a
 * thread warmed for a start that then does not need the sandbox is simply ended.
 */
export interface WarmSandbox {
  /** Starts the sandbox in it, once: the running sandbox, or why it did not start. */
  start(options?: ThreadSandboxOptions): Promise<RunningSandbox>;
  /** Ends the thread, when the sandbox is not wanted after all (after start, close the sandbox instead). */
  cancel(): void;
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

/**
 * Boots a worker thread for the sandbox and has it load the sandbox's code while the caller decides
 * whether it wants one (the TUI's start, tuiBundle.ts, before dist/tui.cjs loads).
 */
export function warmSandboxThread(cache: { codeCacheDir?: string } = {}): WarmSandbox {
  // The secret's variables are taken here, in the main thread: the worker's environment is a copy of
  // this one's, and a program the main thread starts later must not inherit them either.
  const fromEnv = takeSecretFromEnv();
  const worker = new Worker(workerUrl(), { workerData: cache satisfies WorkerInput });
  type Ready = Omit<Extract<FromWorker, { type: 'ready' }>, 'type'>;
  let ready: (info: Ready) => void = () => undefined;
  let failed: (e: Error) => void = () => undefined;
  const up = new Promise<Ready>((resolve, reject) => ((ready = resolve), (failed = reject)));
  up.catch(() => undefined); // a thread warmed and then not wanted may fail unseen
  let settled = false;
  const fail = (message: string) => {
    if (settled) return;
    settled = true;
    void worker.terminate();
    failed(new Error(`the embedded sandbox did not start: ${message}`));
  };
  // Listened to from the start: a thread that fails while it loads fails the start that follows.
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
    ready(info);
  });
  let started: Promise<RunningSandbox> | undefined;
  return {
    start: (options = {}) => {
      if (started) return started;
      if (fromEnv.note) process.emitWarning(fromEnv.note, { type: 'SandboxNotice' });
      worker.postMessage({ type: 'start', options: { ...options, secret: options.secret ?? fromEnv.source } } satisfies ToWorker);
      let closing: Promise<void> | undefined;
      const close = () =>
        (closing ??= new Promise<void>((done) => {
          worker.on('message', (c: FromWorker) => {
            if (c.type === 'closed') void worker.terminate().then(() => done());
          });
          worker.once('exit', () => done());
          worker.postMessage({ type: 'close' } satisfies ToWorker);
        }));
      return (started = up.then((info) => ({ ...info, close })));
    },
    cancel: () => {
      if (started) return;
      settled = true;
      void worker.terminate();
    },
  };
}

export function startSandboxThread(options: ThreadSandboxOptions = {}, cache: { codeCacheDir?: string } = {}): Promise<RunningSandbox> {
  return warmSandboxThread(cache).start(options);
}
