/**
 * Attach recordings on disk: where they go (`recordings/` under the state folder, 0700, each file
 * 0600), how a new one is named (`<intern>-<UTC time>.cast`), and the list the replay screen shows
 * (intern, date, length, size), read from each file's first and last lines only, so a long
 * recording costs no more to list than a short one. No React: the CLI and the TUI both use it.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseCast, CastError } from '../../attach/asciicast.js';
import { Recorder, type RecorderOptions } from '../../attach/recorder.js';
import { explainFileError } from '../../files.js';
import { privateDir } from './stateFiles.js';

export const RECORDINGS = 'recordings';
export const CAST_EXTENSION = '.cast';
/** How much of a recording's start and end is read to list it. */
const HEAD_BYTES = 4 << 10;
const TAIL_BYTES = 16 << 10;

/** Where recordings go under the state folder (settings.ts's stateDir); null when there is none. */
export const recordingsDir = (stateDir: string | null): string | null => (stateDir === null ? null : join(stateDir, RECORDINGS));

/** A file name's part for an intern: its name as the service allows it, anything else as `_`. */
const fileWord = (name: string): string => name.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_').slice(0, 80) || 'intern';

/** `<intern>-<UTC time>.cast`, the time as 2026-11-28T12-59-03Z (no colons: some file systems refuse them). */
export function recordingName(intern: string, at: Date = new Date()): string {
  return `${fileWord(intern)}-${at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}${CAST_EXTENSION}`;
}

/**
 * Starts a recording: at `file` when given, else a new file in `dir` (made 0700). Throws what
 * opening it throws (an existing file is refused: a recording never overwrites one).
 */
export function startRecording(opts: Omit<RecorderOptions, 'path'> & { file?: string; dir: string | null; intern: string }): Recorder {
  let path = opts.file;
  if (path === undefined) {
    if (opts.dir === null) throw new Error('no folder for recordings: set HOME or XDG_STATE_HOME, or give a file');
    privateDir(opts.dir);
    path = join(opts.dir, recordingName(opts.intern));
  }
  return new Recorder({ ...opts, path });
}

/** Why a recording could not be started, in one line. */
export function recordingProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return 'the file exists: give another name, or remove it first';
  return e instanceof Error && !code ? e.message : explainFileError(e);
}

export interface RecordingEntry {
  file: string;
  path: string;
  /** From the file's name (else its title). */
  intern: string;
  /** When it began (its header's timestamp), ms since the epoch; null when the header has none. */
  started: number | null;
  /** Seconds, to its last event. */
  length: number;
  bytes: number;
  /** Why it cannot be played, in one line (it is still listed, so it can be deleted). */
  problem?: string;
}

/** The recordings in `dir`, newest first; a missing folder is an empty list. */
export function listRecordings(dir: string): RecordingEntry[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(CAST_EXTENSION));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return files.map((file) => describeRecording(dir, file)).sort((a, b) => (b.started ?? 0) - (a.started ?? 0) || b.file.localeCompare(a.file));
}

function describeRecording(dir: string, file: string): RecordingEntry {
  const path = join(dir, file);
  const m = /^(.*)-\d{4}-\d\d-\d\dT[\d-]+Z\.cast$/.exec(file);
  const entry: RecordingEntry = { file, path, intern: m?.[1] ?? file.slice(0, -CAST_EXTENSION.length), started: null, length: 0, bytes: 0 };
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) return { ...entry, problem: 'not a regular file' };
    entry.bytes = st.size;
    const head = readAt(fd, 0, Math.min(HEAD_BYTES, st.size));
    const { header } = parseCast(head.slice(0, head.indexOf('\n') + 1 || undefined));
    if (header.timestamp !== undefined) entry.started = header.timestamp * 1000;
    const from = Math.max(0, st.size - TAIL_BYTES);
    const lines = readAt(fd, from, st.size - from).split('\n').filter((l) => l.startsWith('['));
    const last = lines.at(-1);
    if (last) {
      try {
        const time = (JSON.parse(last) as unknown[])[0];
        if (typeof time === 'number') entry.length = time;
      } catch {
        // Cut off while it was written: the line before it.
        const before = lines.at(-2);
        const time = before ? (JSON.parse(before) as unknown[])[0] : 0;
        if (typeof time === 'number') entry.length = time;
      }
    }
    return entry;
  } catch (e) {
    return { ...entry, problem: e instanceof CastError ? e.message : explainFileError(e) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readAt(fd: number, at: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, at);
  return buf.subarray(0, n).toString('utf8');
}

export function deleteRecording(path: string): void {
  rmSync(path, { force: true });
}
