// The bundle's Ink keeps its text caches across frames, bounded (scripts/ink-kept-caches.mjs,
// inkKeptCaches in scripts/bundling.mjs). Ink's own build/output.js and measure-text.js are rewritten
// here as the build rewrites them, and must draw exactly what the package draws.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT, KeptMap, keptCachesSource } from '../../../scripts/ink-kept-caches.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const INK = join(ROOT, 'node_modules', 'ink', 'build');
const KEPT_URL = pathToFileURL(join(ROOT, 'scripts', 'ink-kept-caches.mjs')).href;

describe('KeptMap', () => {
  it('keeps at most twice its limit, whatever is set', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 500 }), (limit, keys) => {
        const map = new KeptMap<number, string>(limit);
        for (const k of keys) {
          map.set(k, `v${k}`);
          expect(map.size).toBeLessThanOrEqual(2 * limit);
          expect(map.get(k)).toBe(`v${k}`); // what was just set is there
        }
      }),
    );
  });

  it('keeps what is read again as newer keys come (a frame read every frame stays)', () => {
    const map = new KeptMap<string, number>(4);
    for (const k of ['a', 'b', 'c', 'd']) map.set(k, 1);
    for (let frame = 0; frame < 10; frame++) {
      // Each frame reads its rows (and sets them where they were dropped), and draws one new row.
      for (const k of ['a', 'b']) if (map.get(k) === undefined) map.set(k, 1);
      map.set(`new${frame}`, 1);
      expect(map.has('a') && map.has('b')).toBe(true);
    }
    // Keys neither read nor set for two generations are gone.
    expect(map.has('c') || map.has('d') || map.has('new0')).toBe(false);
  });

  it('takes only a positive whole limit', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new KeptMap(bad)).toThrow(RangeError);
  });
});

describe("Ink's caches rewritten (keptCachesSource)", () => {
  // Written beside node_modules, so that the rewritten files' own imports resolve as Ink's do.
  const dir = join(ROOT, 'node_modules', '.cache', `ink-kept-caches-${process.pid}`);
  type OutputClass = new (o: { width: number; height: number }) => {
    write(x: number, y: number, text: string, o: { transformers: unknown[] }): void;
    clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
    unclip(): void;
    get(): { output: string; height: number };
    caches: { styledChars: { size: number } };
  };
  let Real: OutputClass;
  let Kept: OutputClass;
  let realMeasure: (text: string) => { width: number; height: number };
  let keptMeasure: typeof realMeasure;

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    for (const name of ['output', 'measure-text']) {
      const file = join(INK, `${name}.js`);
      writeFileSync(join(dir, `${name}.mjs`), keptCachesSource(file, readFileSync(file, 'utf8'), KEPT_URL));
    }
    Real = (await import(pathToFileURL(join(INK, 'output.js')).href)).default;
    Kept = (await import(pathToFileURL(join(dir, 'output.mjs')).href)).default;
    realMeasure = (await import(pathToFileURL(join(INK, 'measure-text.js')).href)).default;
    keptMeasure = (await import(pathToFileURL(join(dir, 'measure-text.mjs')).href)).default;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sgr = fc.constantFrom('\u001b[1m', '\u001b[22m', '\u001b[31m', '\u001b[39m', '\u001b[7m', '\u001b[27m', '\u001b[38;5;196m', '\u001b[0m');
  const char = fc.constantFrom('a', 'b', ' ', '─', '●', '漢', '›', 'é');
  const line = fc.array(fc.oneof({ arbitrary: char, weight: 5 }, { arbitrary: sgr, weight: 2 }), { maxLength: 30 }).map((p) => p.join(''));
  const write = fc.record({ x: fc.integer({ min: 0, max: 20 }), y: fc.integer({ min: 0, max: 8 }), text: fc.array(line, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n')) });
  const frame = fc.record({ clipped: fc.boolean(), writes: fc.array(write, { maxLength: 8 }) });

  const draw = (Output: OutputClass, f: { clipped: boolean; writes: { x: number; y: number; text: string }[] }) => {
    const output = new Output({ width: 30, height: 10 });
    if (f.clipped) output.clip({ x1: 2, x2: 25, y1: 1, y2: 8 });
    for (const w of f.writes) output.write(w.x, w.y, w.text, { transformers: [] });
    if (f.clipped) output.unclip();
    return output.get();
  };

  it('draws every frame of a sequence as the package draws it', () => {
    // One sequence of frames through the same shared caches: a line cached by one frame serves the next.
    fc.assert(fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
      for (const f of frames) expect(draw(Kept, f)).toEqual(draw(Real, f));
    }));
  });

  it('shares one set of caches between frames, and bounds it', () => {
    const a = new Kept({ width: 10, height: 1 });
    const b = new Kept({ width: 10, height: 1 });
    expect(a.caches).toBe(b.caches);
    expect(new Real({ width: 10, height: 1 }).caches).not.toBe(new Real({ width: 10, height: 1 }).caches);
    for (let i = 0; i < 3 * KEPT.styledChars; i++) {
      const output = new Kept({ width: 20, height: 1 });
      output.write(0, 0, `line ${i}`, { transformers: [] });
      output.get();
    }
    expect(a.caches.styledChars.size).toBeLessThanOrEqual(2 * KEPT.styledChars);
  });

  it('measures text as the package does', () => {
    fc.assert(fc.property(fc.array(line, { maxLength: 4 }).map((l) => l.join('\n')), (text) => {
      expect(keptMeasure(text)).toEqual(realMeasure(text));
    }));
  });

  it('fails the build when Ink changed the lines it rewrites', () => {
    const file = join(INK, 'output.js');
    const source = readFileSync(file, 'utf8');
    expect(() => keptCachesSource(file, source.replace('caches = new OutputCaches();', 'caches = makeCaches();'), KEPT_URL)).toThrow(/changed/);
    expect(() => keptCachesSource(file, source.replace('    getStringWidth(text) {', '    drop() { this.widths.clear(); }\n    getStringWidth(text) {'), KEPT_URL)).toThrow(/beyond get and set/);
    expect(() => keptCachesSource(join(INK, 'render.js'), source, KEPT_URL)).toThrow(/no rewrite/);
  });
});
