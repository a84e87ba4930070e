/**
 * The one way to write a file another process may read while it is written (the sandbox's
 * manifest, the CLI's config, a code cache): whole or not at all; and the one way to make a
 * folder and its parents; and the one way to read a file a person names, with a cap. Shared by the
 * sandbox, the CLI and the TUI (like version.ts), so it imports nothing of any.
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
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
 * Appends `text` (whole lines, ending in a line break) to `path`, made 0600 if missing, in one
 * `write` on a descriptor opened with O_APPEND: two processes appending to the same file each land
 * whole, one after the other (Linux takes the file's lock for a write to a local file), so a log of
 * JSON lines written by two TUIs at once stays one line per event.
 */
export function appendLines(path: string, text: string, opts: { create?: boolean } = {}): void {
  // Without `create`, a file removed meanwhile (a conversation deleted by another TUI) throws ENOENT
  // rather than coming back as a file without its first line.
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | (opts.create === false ? 0 : constants.O_CREAT), 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    // A regular file takes the whole write; the loop is for a short write (a full disk throws instead).
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
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

/**
 * Reads a value a person named by path (a secret's value in the TUI): a regular file only, of at
 * most `maxBytes`. A device (`/dev/zero`), a FIFO or a folder is refused before it is opened, so
 * a mistyped path neither blocks the caller nor reads without end. Errors carry a `code`:
 * Node's own (ENOENT, EACCES...), ENOTREG for what is not a regular file, EFBIG for too large.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  const refuse = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}, read '${path}'`), { code, path });
  const st = statSync(path);
  if (st.isDirectory()) throw refuse('EISDIR', 'a folder');
  if (!st.isFile()) throw refuse('ENOTREG', 'not a regular file');
  if (st.size > maxBytes) throw refuse('EFBIG', `larger than ${maxBytes} bytes`);
  // O_NONBLOCK: should the path have become a FIFO since the stat, the open does not wait for a writer.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > maxBytes) throw refuse('EFBIG', `larger than ${maxBytes} bytes`);
    }
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOTREG: 'not a regular file (a device, a pipe or a socket)',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** Why a file could not be read, in words: `no such file`, `larger than 262144 bytes`... */
export function explainFileError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EFBIG') return String((e as Error).message).replace(/^EFBIG: (.*), read '.*'$/s, '$1');
  return (code && FILE_ERRORS[code]) ?? code ?? 'error';
}
