/** src/codeCache.ts: a CommonJS file run with V8's code cache, and what happens to the cache file. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCompiled } from '../../src/codeCache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'code-cache-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A small CommonJS module: what require, __filename and a dynamic import() give it. V8 keeps what
 * it compiled per process too, by source and file name: a test that needs it to read the cache
 * file again gives the same source another name.
 */
function writeModule(body = '', name = 'mod.cjs'): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `const path = require('node:path');
     exports.name = path.basename(__filename);
     exports.double = (n) => n * 2;
     exports.load = () => import('node:os').then((os) => typeof os.cpus);
     ${body}`,
  );
  return file;
}

const caches = () => readdirSync(join(dir, 'cache')).sort();

describe('runCompiled', () => {
  it('runs the file as CommonJS: require, __filename, exports and a dynamic import', async () => {
    const run = runCompiled<{ name: string; double: (n: number) => number; load: () => Promise<string> }>(writeModule(), 'mod', undefined);
    expect(run.exports.name).toBe('mod.cjs');
    expect(run.exports.double(21)).toBe(42);
    await expect(run.exports.load()).resolves.toBe('function');
    expect(run.cache).toBe('absent');
    run.saveCache(); // no directory: nothing to write, and no error
  });

  it('reads a file that is not ASCII as UTF-8 (the bundle is ASCII, and read as such)', () => {
    // The escapes are the TypeScript's: the file holds the characters themselves, in UTF-8.
    const run = runCompiled<{ text: string }>(writeModule("exports.text = 'caf\u00e9 \u2026 \u{1f600}';", 'utf8.cjs'), 'mod', undefined);
    expect(run.exports.text).toBe('caf\u00e9 \u2026 \u{1f600}');
    expect(runCompiled<{ name: string }>(writeModule('', 'ascii.cjs'), 'mod', undefined).exports.name).toBe('ascii.cjs');
  });

  it('writes the cache once, 0600 in a 0700 directory, and the next run takes it', () => {
    const file = writeModule();
    const cacheDir = join(dir, 'cache');
    const first = runCompiled<{ double: (n: number) => number }>(file, 'mod', cacheDir);
    expect(first.cache).toBe('absent');
    first.exports.double(1);
    first.saveCache();
    const [name] = caches();
    expect(name).toMatch(/^mod-[0-9a-f]{16}\.v8$/);
    expect(statSync(join(cacheDir, name!)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const second = runCompiled<{ double: (n: number) => number }>(writeModule('', 'second.cjs'), 'mod', cacheDir);
    expect(second.cache).toBe('accepted');
    expect(second.exports.double(4)).toBe(8);
    // Taken: there is nothing to rewrite.
    const before = statSync(join(cacheDir, name!)).mtimeMs;
    writeFileSync(join(cacheDir, 'marker'), '');
    second.saveCache();
    expect(statSync(join(cacheDir, name!)).mtimeMs).toBe(before);
  });

  it('rewrites a cache V8 refuses, and the code still runs', () => {
    const file = writeModule();
    const cacheDir = join(dir, 'cache');
    runCompiled(file, 'mod', cacheDir).saveCache();
    const [name] = caches();
    writeFileSync(join(cacheDir, name!), 'not a code cache');
    const run = runCompiled<{ double: (n: number) => number }>(writeModule('', 'again.cjs'), 'mod', cacheDir);
    expect(run.cache).toBe('rejected');
    expect(run.exports.double(5)).toBe(10);
    run.saveCache();
    expect(readFileSync(join(cacheDir, name!)).toString()).not.toBe('not a code cache');
    expect(runCompiled(writeModule('', 'third.cjs'), 'mod', cacheDir).cache).toBe('accepted');
  });

  it("removes older caches of the same file when it writes a new one, and leaves other files' caches", () => {
    const cacheDir = join(dir, 'cache');
    runCompiled(writeModule(), 'mod', cacheDir).saveCache();
    runCompiled(writeModule(), 'other', cacheDir).saveCache();
    const [oldMod, oldModParts, other, otherParts] = caches();
    expect(oldModParts).toBe(`${oldMod}.parts`);
    // A new build: another source, another cache name.
    runCompiled(writeModule('exports.newer = true;'), 'mod', cacheDir).saveCache();
    const now = caches();
    expect(now).toHaveLength(4);
    expect(now).toContain(other);
    expect(now).toContain(otherParts);
    expect(now).not.toContain(oldMod);
    expect(now).not.toContain(oldModParts);
  });

  it('writes the cache again when a run ran a part it was not written with, and remembers every part', () => {
    const cacheDir = join(dir, 'cache');
    const first = runCompiled<{ double: (n: number) => number }>(writeModule(), 'mod', cacheDir);
    first.saveCache([]);
    const [name, parts] = caches();
    expect(name).toMatch(/^mod-[0-9a-f]{16}\.v8$/);
    expect(parts).toBe(`${name}.parts`);
    expect(statSync(join(cacheDir, parts!)).mode & 0o777).toBe(0o600);
    const mtime = () => statSync(join(cacheDir, name!)).mtimeMs;
    const listed = () => JSON.parse(readFileSync(join(cacheDir, parts!), 'utf8')) as string[];
    expect(listed()).toEqual([]);
    // A run that opened the attach screen: written again, with it.
    let before = mtime();
    const second = runCompiled(writeModule('', 'second.cjs'), 'mod', cacheDir);
    expect(second.cache).toBe('accepted');
    second.saveCache(['attach']);
    expect(mtime()).not.toBe(before);
    expect(listed()).toEqual(['attach']);
    // Nothing new: left alone.
    before = mtime();
    runCompiled(writeModule('', 'third.cjs'), 'mod', cacheDir).saveCache(['attach']);
    expect(mtime()).toBe(before);
    // Another part: written again, and the first is still listed.
    runCompiled(writeModule('', 'fourth.cjs'), 'mod', cacheDir).saveCache(['chat']);
    expect(mtime()).not.toBe(before);
    expect(listed()).toEqual(['attach', 'chat']);
    // A damaged list counts as listing nothing, so the next part-using run writes both again.
    writeFileSync(join(cacheDir, parts!), 'not json');
    runCompiled(writeModule('', 'fifth.cjs'), 'mod', cacheDir).saveCache(['chat']);
    expect(listed()).toEqual(['chat']);
    expect(caches()).toEqual([name, parts]);
  });

  it('only costs the compile time when the cache cannot be written', () => {
    const file = writeModule();
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const run = runCompiled<{ double: (n: number) => number }>(file, 'mod', join(blocked, 'cache'));
    expect(() => run.saveCache()).not.toThrow();
    expect(run.exports.double(3)).toBe(6);
  });
});
