/**
 * Runs one of the bundle's CommonJS files with V8's code cache: the functions a start compiled
 * are kept in the user's cache directory, so the next start deserialises them instead of
 * parsing and compiling the source again. Node 20 caches no ES modules, so the parts of the
 * bundle whose start matters are built a second time as single CommonJS files
 * (scripts/build.mjs): the embedded sandbox's worker (`sandbox.cjs`, run by
 * src/sandbox/compiled.ts) and the TUI (`tui.cjs`, run by src/cli/legacy.ts).
 *
 * A cache is a file per bundled file, build and Node version (its name holds a hash of the
 * source, the version and the architecture), written atomically, 0600 in a 0700 directory,
 * when there was none or V8 refused the one there; V8 checks it again on every load. Any
 * failure to read or write it only costs the compile time. Shared by the sandbox and the CLI
 * (like version.ts), so it imports nothing of either.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';
import { writeFileAtomic } from './files.js';

export interface CompiledFile<T> {
  /** What the file's module.exports holds once it has run. */
  exports: T;
  /** What became of the cache: none to read (or no directory), V8 took it, or V8 refused it. */
  cache: 'absent' | 'accepted' | 'rejected';
  /**
   * Writes the cache if there was none or V8 refused it: call it once the work worth caching has
   * run (the functions compiled by then are what the next start finds compiled).
   */
  saveCache(): void;
}

/**
 * Runs `file` (CommonJS, in this thread's context) with the cache named `name` in `cacheDir`
 * (no cache without a directory). Its dynamic import()s (packages left external) go to Node's
 * own loader, as they would from an ES module.
 */
export function runCompiled<T>(file: string, name: string, cacheDir: string | undefined): CompiledFile<T> {
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 16);
  const cachePath = cacheDir ? join(cacheDir, `${name}-${key}.v8`) : undefined;
  let cached: Buffer | undefined;
  try {
    if (cachePath) cached = readFileSync(cachePath);
  } catch {
    cached = undefined; // none yet
  }
  // Node's own CommonJS wrapper around the source: the function the call below gives its require and module.
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData: cached,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod: { exports: T } = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, createRequire(file), mod, file, dirname(file));
  const cache = cached === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  let wanted = cachePath !== undefined && cache !== 'accepted';
  return {
    exports: mod.exports,
    cache,
    saveCache: () => {
      if (!wanted || !cacheDir || !cachePath) return;
      wanted = false;
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        writeFileAtomic(cachePath, script.createCachedData());
        // Older builds' and Node versions' caches of this file are of no more use.
        for (const f of readdirSync(cacheDir)) {
          if (f.startsWith(`${name}-`) && join(cacheDir, f) !== cachePath && !f.endsWith('.tmp')) rmSync(join(cacheDir, f), { force: true });
        }
      } catch {
        // A cache is an optimisation: a read-only or full disk costs the next start its compile time.
      }
    },
  };
}
