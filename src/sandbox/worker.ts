/**
 * The sandbox in a worker thread (see thread.ts): loads the sandbox's code, starts it with the
 * options of the 'start' message, posts what a client needs to reach it, and closes it when asked. Its database, HTTP server and
 * terminals live in this thread, so their start-up runs on another core than the TUI's first frame.
 */
import { parentPort } from 'node:worker_threads';
import { startSandbox } from './index.js';
import type { FromWorker, ThreadSandboxOptions, ToWorker } from './thread.js';

if (parentPort === null) throw new Error('sandbox/worker.ts runs only as a worker thread');
const port = parentPort;
const post = (m: FromWorker) => port.postMessage(m);

// This thread's warnings go to the main thread, which prints them when the screen is its own.
process.removeAllListeners('warning');
process.on('warning', (w: Error & { code?: string }) => post({ type: 'warning', name: w.name, message: w.message, code: w.code }));

/**
 * How long after the sandbox is up its start is taken to be over: the TUI's first requests (the
 * intern list) are served by then.
 */
const WARM_MS = 1000;

let warm: () => void = () => undefined;
/**
 * Settles once the sandbox has served its start: WARM_MS after it is up, or when it is asked to
 * close if that comes first (or it failed to start). compiled.ts then saves its code cache, so
 * the functions the first requests compiled are in it too: saved as soon as the sandbox was up,
 * the cache left out the first request's path, which then took about 30 ms against 4.
 */
export const served = new Promise<void>((resolve) => (warm = resolve));

// The sandbox's notes at start (terminals that cannot be confined) are warnings of the main thread's too.
const notice = (line: string) => post({ type: 'warning', name: 'SandboxNotice', message: line });

/** Started when thread.ts says so: until then this thread has only loaded the sandbox's code. */
function start(options: ThreadSandboxOptions): void {
  startSandbox({ ...options, notice }).then(
    (sandbox) => {
      post({ type: 'ready', baseUrl: sandbox.baseUrl, origin: sandbox.origin, manifest: sandbox.manifest, workspacesDir: sandbox.workspacesDir });
      setTimeout(warm, WARM_MS).unref();
      port.on('message', (m: ToWorker) => {
        if (m.type !== 'close') return;
        warm();
        sandbox.close().then(
          () => post({ type: 'closed' }),
          (e: unknown) => post({ type: 'closed', error: (e as Error).message }),
        );
      });
    },
    (e: unknown) => {
      warm();
      post({ type: 'error', message: (e as Error).message });
    },
  );
}

const waiting = (m: ToWorker) => {
  if (m.type !== 'start') return;
  port.off('message', waiting);
  start(m.options);
};
port.on('message', waiting);
