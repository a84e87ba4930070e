/**
 * The embedded sandbox's worker as the bundle starts it (dist/sandbox-worker.js): it runs
 * dist/sandbox-worker.cjs, which is worker.ts bundled as CommonJS, through vm.Script with V8's
 * code cache, kept in the user's cache directory. Compiling the sandbox's code (fastify, zod,
 * the routes) took about 120 ms of the worker's start on every `npm start`; with the cache, the
 * worker was ready in about 190 ms instead of 320 (bench/README.md). Node 20 has no code cache for
 * ES modules, hence CommonJS for this one file. From source (tsx), thread.ts starts worker.ts
 * directly and nothing is cached.
 *
 * The cache is a file per build and Node version (its name holds a hash of both), written once
 * the sandbox is up, atomically, 0600 in a 0700 directory; V8 checks it again on load and a
 * rejected one is rewritten. Any failure to read or write it only costs the compile time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { workerData } from 'node:worker_threads';
import { writeFileAtomic } from './files.js';
import type { WorkerInput } from './thread.js';

const file = fileURLToPath(new URL('./sandbox-worker.cjs', import.meta.url));
const source = readFileSync(file, 'utf8');
const { codeCacheDir } = workerData as WorkerInput;
const key = createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 16);
const cachePath = codeCacheDir ? join(codeCacheDir, `sandbox-${key}.v8`) : undefined;

let cached: Buffer | undefined;
try {
  if (cachePath) cached = readFileSync(cachePath);
} catch {
  cached = undefined; // none yet
}

// Node's own CommonJS wrapper around the source: the function the call below gives its require and module.
const script = new Script(Module.wrap(source), { filename: file, cachedData: cached });
const mod: { exports: { started?: Promise<unknown> } } = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, createRequire(file), mod, file, dirname(file));

/** After the start, so the functions it compiled are in the cache too. */
function save(dir: string, path: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(path, script.createCachedData());
    // Older builds' and Node versions' caches are of no more use.
    for (const f of readdirSync(dir)) if (f.startsWith('sandbox-') && join(dir, f) !== path && !f.endsWith('.tmp')) rmSync(join(dir, f), { force: true });
  } catch {
    // A cache is an optimisation: a read-only or full disk costs the next start its compile time.
  }
}

if (codeCacheDir && cachePath && (cached === undefined || script.cachedDataRejected)) {
  void mod.exports.started?.then(() => save(codeCacheDir, cachePath), () => undefined);
}
