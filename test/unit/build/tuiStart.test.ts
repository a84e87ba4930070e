/**
 * What the TUI loads before its first frame: the modules src/tui/index.tsx imports statically,
 * which the CommonJS bundle (dist/tui.cjs) initialises at start, while what sits behind an
 * `import()` is initialised on first use. esbuild resolves the graph here (packages left
 * external, so each shows by name), as the build does.
 */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function graph(): Promise<{ statics: string[]; all: string[] }> {
  const { metafile } = await build({
    entryPoints: ['src/tui/index.tsx'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: 'tui-start-graph',
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = metafile.outputs;
  const entry = Object.keys(outputs).find((o) => outputs[o]!.entryPoint === 'src/tui/index.tsx')!;
  const seen = new Set<string>();
  const statics = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of Object.keys(outputs[out]!.inputs)) statics.add(i);
    for (const i of outputs[out]!.imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) statics.add(i.path);
      else visit(i.path);
    }
  };
  visit(entry);
  const all = Object.values(outputs).flatMap((o) => [...Object.keys(o.inputs), ...o.imports.filter((i) => i.external).map((i) => i.path)]);
  return { statics: [...statics], all };
}

describe('the TUI at start', () => {
  it('loads no Markdown parser, emulator, WebSocket or image decoder: they come with the chat, attach and the first icon', async () => {
    const { statics, all } = await graph();
    const later = ['marked', 'highlight.js', 'src/tui/highlight.ts', 'src/tui/highlightLoader.ts', '@xterm/headless', 'ws', 'pngjs', 'jpeg-js', 'src/tui/markdown.ts', 'src/tui/screens/ChatScreen.tsx', 'src/attach/', 'src/tui/components/decodeIcon.ts'];
    // The detach key's two constants are the keymap's (its help names the key), not attach code; the
    // mouse codec is the key splitter's (a report must never reach Ink as typed text); the set of
    // recordings being closed is what the TUI waits for on its way out.
    const atStart = new Set(['src/attach/detach.ts', 'src/attach/mouse.ts', 'src/attach/closing.ts']);
    for (const part of later) {
      expect(statics.filter((i) => (i === part || i.startsWith(part)) && !atStart.has(i)), part).toEqual([]);
      // Each is in the TUI's graph (behind an import()), so the check above is not vacuous.
      expect(all.some((i) => i === part || i.startsWith(part)), part).toBe(true);
    }
    // What a first frame needs is there.
    for (const part of ['ink', 'react', 'src/tui/app.tsx', 'src/tui/screens/InternList.tsx', 'src/tui/wrap.ts']) expect(statics, part).toContain(part);
  });
});
