/**
 * The embedded sandbox's worker as the bundle starts it (dist/sandbox-worker.cjs): it runs
 * dist/sandbox.cjs, which is worker.ts bundled as CommonJS, through src/codeCache.ts with
 * V8's code cache, kept in the user's cache directory. Compiling the sandbox's code (fastify, zod,
 * the routes) took about 120 ms of the worker's start on every `npm start`; with the cache, the
 * worker was ready in about 190 ms instead of 320 (bench/README.md). From source (tsx), thread.ts
 * starts worker.ts directly and nothing is cached.
 */
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import { runCompiled } from '../codeCache.js';
import type { WorkerInput } from './thread.js';

const { codeCacheDir } = workerData as WorkerInput;
const compiled = runCompiled<{ served?: Promise<unknown> }>(fileURLToPath(new URL('./sandbox.cjs', import.meta.url)), 'sandbox', codeCacheDir);
// Once the sandbox has served its start (worker.ts), so the functions that compiled are in the cache too.
void compiled.exports.served?.then(() => compiled.saveCache(), () => undefined);
