/**
 * The one way to write a file another process may read while it is written (the sandbox's
 * manifest, the CLI's config, a code cache): whole or not at all; and the one way to make a
 * folder and its parents. Shared by the sandbox and the CLI (like version.ts), so it imports
 * nothing of either.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Writes beside `path` (0600) and renames over it, so a reader never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    chmodSync(tmp, 0o600); // a temp file left by a crashed process of the same pid kept its mode
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Makes `path` and any missing parent folders (`mode` for each one made), as
 * `mkdirSync(path, { recursive: true })` does but one level at a time: Node's recursive mkdir
 * never returns under a folder that refuses new entries with ENOENT, such as /proc (found with
 * `intern-tui sandbox --data-dir /proc/x`). Throws what mkdir throws, or ENOTDIR when `path` is a file.
 */
export function makeDirs(path: string, mode = 0o700): void {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    const found = statSync(at, { throwIfNoEntry: false });
    if (found) {
      if (!found.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
      break;
    }
    missing.push(at);
    if (dirname(at) === at) break;
    at = dirname(at);
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode });
    } catch (e) {
      // Made meanwhile by another process: fine, if it is a folder.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw e;
    }
  }
}
