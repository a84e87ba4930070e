/**
 * The shape of src/cli (issue 42, item 8): the registry describes, the dispatcher loads, and
 * commands import neither, so no import circle runs through them; every file stays under 400
 * lines. The imports are read with TypeScript's parser (test/support/imports.ts): static and
 * `import()`, type-only ones too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunner } from '../../../src/cli/loaders.js';
import { COMMANDS } from '../../../src/cli/registry.js';
import { cycles, importEdges, importGraph, named, reachable } from '../../support/imports.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'cli');
const at = (path: string) => join(CLI, path);
const rel = (files: Iterable<string>) => named(CLI, files);

const isCommand = (f: string) => f.startsWith(at('commands/'));
const isRegistry = (f: string) => f === at('registry.ts') || f.startsWith(at('registry/'));
/** The dispatcher: it resolves a command line to a spec and loads the command's code. */
const DISPATCHER = ['dispatch.ts', 'run.ts', 'loaders.ts'].map(at);
const imports = importEdges(CLI);

describe('src/cli imports no circle', () => {
  it('has no cycle among what loads at run time (static imports and import())', () => {
    expect(cycles(importGraph(imports, (e) => !e.typeOnly)).map(rel)).toEqual([]);
  });

  it('has none with type-only imports counted, but the config schema\'s types that settings.ts reads', () => {
    // config.ts (zod) imports ConfigError from settings.ts, which loads without zod and takes only
    // the schema's types back: erased by TypeScript, so nothing loads in a circle (the test above).
    expect(cycles(importGraph(imports)).map(rel)).toEqual([['config.ts', 'settings.ts']]);
  });

  it('commands import neither the registry nor the dispatcher, not even a type', () => {
    const wrong = imports.edges
      .filter((e) => isCommand(e.from) && (isRegistry(e.to) || DISPATCHER.includes(e.to)))
      .map((e) => `${rel([e.from])[0]} imports ${rel([e.to])[0]}`);
    expect(wrong).toEqual([]);
  });

  it("the registry reaches no command's code: it names modules, the dispatcher's table loads them", () => {
    const graph = importGraph(imports);
    const registry = imports.files.filter(isRegistry);
    expect(registry.length).toBeGreaterThan(1);
    for (const f of registry) {
      const reached = [...reachable(graph, f)];
      expect(rel(reached.filter((r) => isCommand(r) || DISPATCHER.includes(r) || r === at('legacy.ts'))), rel([f])[0]).toEqual([]);
    }
    // The table does load them (the check above is not vacuous).
    expect(rel([...reachable(graph, at('loaders.ts'))].filter(isCommand))).toContain('commands/interns.ts');
  });

  it("loads every command's runner by the name the registry gives, and refuses a name its module lacks", async () => {
    for (const c of COMMANDS) expect(typeof (await loadRunner(c)), `${c.noun} ${c.verb ?? ''}`).toBe('function');
    await expect(loadRunner({ module: 'interns', runner: 'lst' })).rejects.toThrow('the interns module has no runner "lst"');
  });
});

describe('src/cli files', () => {
  it('are each under 400 lines', () => {
    const files = imports.files;
    expect(files.length).toBeGreaterThan(40);
    const long = files
      .map((f) => [rel([f])[0], readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines >= 400)
      .map(([f, lines]) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
