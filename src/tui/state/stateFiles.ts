/**
 * What every file under the state folder (`stateDir` in src/cli/settings.ts: prompt history,
 * conversations, recordings) shares: 0700 folders, 0600 files, a cap on what is read, and a
 * problem said in one line rather than thrown. No React: the CLI and the TUI both use it.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { explainFileError, makeDirs } from '../../files.js';

/** The most of one state file read (a conversation of 100,000 transcript lines is a few MB). */
export const STATE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Makes `path` (and its parents) 0700; one that exists with room for others is narrowed to 0700. */
export function privateDir(path: string): void {
  makeDirs(path, 0o700);
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o700);
  } catch {
    // Not ours to change (another owner): it is used as it is.
  }
}

/** Why a state file was not written, in a few words: the error's code (ENOSPC, EACCES), else its message. */
export const notSaved = (e: unknown): string => `not saved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;

export type LinesRead = { lines: string[]; problem?: undefined } | { lines?: undefined; problem: string };

/** A state file's lines (none when it does not exist), or why it cannot be read, in a few words. */
export function readLines(path: string, maxBytes = STATE_FILE_MAX_BYTES): LinesRead {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return { lines: [] };
    if (!st.isFile()) return { problem: 'not a regular file' };
    if (st.size > maxBytes) return { problem: `larger than ${maxBytes} bytes` };
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return { lines };
  } catch (e) {
    return { problem: explainFileError(e) };
  }
}
