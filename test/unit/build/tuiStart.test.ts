/**
 * What the TUI loads before its first frame: the modules src/tui/index.tsx imports statically,
 * which the CommonJS bundle (dist/tui.cjs) initialises at start, while what sits behind an
 * `import()` is initialised on first use. esbuild resolves the graph here (packages left
 * external, so each shows by name), as the build does.
 */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function graph(entry = 'src/tui/index.tsx'): Promise<{ statics: string[]; all: string[] }> {
  const { metafile } = await build({
    entryPoints: [entry],
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
  const out = Object.keys(outputs).find((o) => outputs[o]!.entryPoint === entry)!;
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
  visit(out);
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

  it('sends the first screen\'s requests before loading Ink: the TUI command imports no Ink, React (and so no yoga) or screen statically', async () => {
    // dist/tui.cjs runs what tuiCommand.ts imports statically before the command itself, and so
    // before its requests go out; the TUI (index.tsx) comes by import() once they are on their way.
    const { statics, all } = await graph('src/cli/tuiCommand.ts');
    for (const part of ['ink', 'react', 'src/tui/index.tsx', 'src/tui/app.tsx', 'src/tui/components/']) {
      expect(statics.filter((i) => i === part || i.startsWith(part)), part).toEqual([]);
      expect(all.some((i) => i === part || i.startsWith(part)), part).toBe(true);
    }
    for (const part of ['src/client/prefetch.ts', 'src/client/http.ts']) expect(statics, part).toContain(part);
  });

  it("starts the sandbox's thread before the client and zod load: dist/tui.cjs's entry (tuiEntry.ts) imports them only when the command runs", async () => {
    const { statics, all } = await graph('src/cli/tuiEntry.ts');
    for (const part of ['src/cli/tuiCommand.ts', 'src/client/http.ts', 'src/client/index.ts', 'zod', 'ink', 'react', 'src/cli/settings.ts', 'src/sandbox/thread.ts']) {
      expect(statics.filter((i) => i === part || i.startsWith(part)), part).toEqual([]);
      expect(all.some((i) => i === part || i.startsWith(part)), part).toBe(true);
    }
    for (const part of ['src/cli/earlySandbox.ts', 'src/cli/finish.ts', 'src/tui/usedScreens.ts']) expect(statics, part).toContain(part);
  });
});
