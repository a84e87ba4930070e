/** The sandbox's one way to write a file others may read while it is written: whole or not at all. */
import { renameSync, writeFileSync } from 'node:fs';

/** Writes beside `path` (0600) and renames over it, so a reader never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, path);
}
