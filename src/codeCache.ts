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
 * when there was none or V8 refused the one there; V8 checks it again on every load. Beside it
 * (`.parts`) are the parts of the program (screens loaded when first opened) the sessions that
 * wrote it had run: a session that ran one they had not writes it again, so that a cache first
 * written by a session that only listed interns comes to hold the attach screen once one attaches. Any
 * failure to read or write it only costs the compile time. Shared by the sandbox and the CLI
 * (like version.ts), so it imports nothing of either.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';
import { writeFileAtomic, makeDirs } from './files.js';
import { setImporter } from './importExternal.js';

export interface CompiledFile<T> {
  /** What the file's module.exports holds once it has run. */
  exports: T;
  /** What became of the cache: none to read (or no directory), V8 took it, or V8 refused it. */
  cache: 'absent' | 'accepted' | 'rejected';
  /**
   * Writes the cache if there was none, V8 refused it, or this run ran `parts` the cache was not
   * written with: call it once the work worth caching has run (the functions compiled by then are
   * what the next start finds compiled).
   */
  saveCache(parts?: readonly string[]): void;
}

/**
 * Runs `file` (CommonJS, in this thread's context) with the cache named `name` in `cacheDir`
 * (no cache without a directory). Its dynamic import()s (packages left external) go to Node's
 * own loader, as they would from an ES module.
 */
export function runCompiled<T>(file: string, name: string, cacheDir: string | undefined): CompiledFile<T> {
  const bytes = readFileSync(file);
  // The bundle's files are ASCII (scripts/build.mjs checks), so their bytes are their characters:
  // read as bytes, hashed as bytes and decoded as Latin-1 (a copy), the 1.3 MB of dist/tui.cjs take
  // 19-28 ms of a start, where decoding it as UTF-8 and hashing the string took 31-44 (bench/README.md).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const key = createHash('sha256').update(bytes).update(process.version).update(process.arch).digest('hex').slice(0, 16);
  const cachePath = cacheDir ? join(cacheDir, `${name}-${key}.v8`) : undefined;
  let cached: Buffer | undefined;
  try {
    if (cachePath) cached = readFileSync(cachePath);
  } catch {
    cached = undefined; // none yet
  }
  quietLoaderWarning();
  // The file's import()s of packages go through importExternal: from cached data, its own fail.
  setImporter((specifier) => import(specifier));
  // Node's own CommonJS wrapper around the source: the function the call below gives its require and module.
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData: cached,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod: { exports: T } = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, createRequire(file), mod, file, dirname(file));
  const cache = cached === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  const partsPath = cachePath && `${cachePath}.parts`;
  // The parts the cache holds; none is known of a cache that is not there or was refused.
  const written = new Set(cache === 'accepted' && partsPath ? readParts(partsPath) : []);
  let saved = false;
  return {
    exports: mod.exports,
    cache,
    saveCache: (parts = []) => {
      if (saved || !cacheDir || !cachePath || !partsPath) return;
      if (cache === 'accepted' && parts.every((p) => written.has(p))) return;
      saved = true;
      try {
        makeDirs(cacheDir);
        writeFileAtomic(cachePath, script.createCachedData());
        writeFileAtomic(partsPath, JSON.stringify([...new Set([...written, ...parts])].sort()));
        // Older builds' and Node versions' caches of this file are of no more use.
        const current = new Set([cachePath, partsPath]);
        for (const f of readdirSync(cacheDir)) {
          if (f.startsWith(`${name}-`) && !current.has(join(cacheDir, f)) && !f.endsWith('.tmp')) rmSync(join(cacheDir, f), { force: true });
        }
      } catch {
        // A cache is an optimisation: a read-only or full disk costs the next start its compile time.
      }
    },
  };
}

let quieted = false;

/**
 * Node 20 calls `USE_MAIN_CONTEXT_DEFAULT_LOADER` experimental, and says so on stderr the first
 * time a file run here imports a package left out of it (the keyring at the TUI's start, node-pty
 * in the sandbox's worker): two lines written over the TUI's screen. That warning, in this thread,
 * is dropped; every other goes on as Node would print it.
 */
function quietLoaderWarning(): void {
  if (quieted) return;
  quieted = true;
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && text.includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    return (emit as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}

/** The parts a cache was written with (see the top of this file): none when the list is missing or not one. */
function readParts(path: string): string[] {
  try {
    const parts: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return Array.isArray(parts) ? parts.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
