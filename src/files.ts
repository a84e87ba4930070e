/**
 * The one way to write a file another process may read while it is written (the sandbox's
 * manifest, the CLI's config, a code cache): whole or not at all. Shared by the sandbox and the
 * CLI (like version.ts), so it imports nothing of either.
 */
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';

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
