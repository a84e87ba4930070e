/**
 * The sandbox in a worker thread (see thread.ts): starts it with the options it was given, posts
 * what a client needs to reach it, and closes it when asked. Its database, HTTP server and
 * terminals live in this thread, so their start-up runs on another core than the TUI's first frame.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from './index.js';
import type { FromWorker, ToWorker, WorkerInput } from './thread.js';

const port = parentPort;
if (port === null) throw new Error('sandbox/worker.ts runs only as a worker thread');
const post = (m: FromWorker) => port.postMessage(m);

/** Settles once the sandbox is up (or failed to start): compiled.ts then saves its code cache. */
export const started = startSandbox((workerData as WorkerInput).options).then(
  (sandbox) => {
    post({ type: 'ready', baseUrl: sandbox.baseUrl, origin: sandbox.origin, manifest: sandbox.manifest, workspacesDir: sandbox.workspacesDir });
    port.on('message', (m: ToWorker) => {
      if (m.type !== 'close') return;
      sandbox.close().then(
        () => post({ type: 'closed' }),
        (e: unknown) => post({ type: 'closed', error: (e as Error).message }),
      );
    });
  },
  (e: unknown) => post({ type: 'error', message: (e as Error).message }),
);
