/** makeDirs (src/files.ts): folders and their parents, one level at a time. */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/files.js';

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
