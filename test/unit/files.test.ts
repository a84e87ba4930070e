/** src/files.ts: makeDirs (folders and their parents, one level at a time) and readRegularFile (a capped read). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainFileError, makeDirs, readRegularFile } from '../../src/files.js';

describe('makeDirs', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'intern-tui-dirs-'));

  it('makes the folder and its missing parents, each 0700, and takes one that exists', () => {
    const at = join(root(), 'a', 'b', 'c');
    makeDirs(at);
    expect(statSync(at).isDirectory()).toBe(true);
    expect(statSync(join(at, '..')).mode & 0o777).toBe(0o700);
    expect(() => makeDirs(at)).not.toThrow();
  });

  it('throws ENOTDIR for a file, and at once under /proc, where a recursive mkdir never returns', () => {
    const file = join(root(), 'f');
    writeFileSync(file, '');
    expect(() => makeDirs(file)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeDirs(join(file, 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    if (process.platform === 'linux') expect(() => makeDirs('/proc/intern-tui-nope/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('readRegularFile', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'intern-tui-read-'));
  const codeOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return [(e as NodeJS.ErrnoException).code, explainFileError(e)];
    }
    return ['read'];
  };

  it('reads a regular file up to the cap, and refuses one larger with the cap in words', () => {
    const file = join(dir(), 'v');
    writeFileSync(file, 'é'.repeat(8));
    expect(readRegularFile(file, 16)).toBe('é'.repeat(8));
    expect(codeOf(() => readRegularFile(file, 15))).toEqual(['EFBIG', 'larger than 15 bytes']);
  });

  it('refuses a device, a FIFO and a folder without opening them (a FIFO with no writer would block for ever)', () => {
    expect(codeOf(() => readRegularFile('/dev/zero', 1024))).toEqual(['ENOTREG', 'not a regular file (a device, a pipe or a socket)']);
    const fifo = join(dir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(codeOf(() => readRegularFile(fifo, 1024))[0]).toBe('ENOTREG');
    expect(codeOf(() => readRegularFile(dir(), 1024))).toEqual(['EISDIR', 'it is a folder']);
    expect(codeOf(() => readRegularFile(join(dir(), 'absent'), 1024))).toEqual(['ENOENT', 'no such file']);
  });
});
