// Bundles the CLI into ESM for fast start: code splitting keeps each command's code out of start-up. Native modules stay
// external. The TUI command and the embedded sandbox's worker are each bundled as one CommonJS file, for V8's code
// cache (src/codeCache.ts; at the end).
// How each bundle is made (its esbuild options, the plugins that replace or patch packages) is
// scripts/bundling.mjs's.
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { BINARIES_OF, common, production, requireBanner, root, sandboxPlugins, tui } from './bundling.mjs';

/**
 * The top-level help, rendered now from the same registry (src/cli/args.ts's HELP), so main.ts can
 * print `--help` without loading the registry and the parser at run time. From source (the tests
 * run the CLI through tsx too), main.ts finds no constant and dispatch.ts prints the same HELP.
 */
async function renderedHelp() {
  // Beside node_modules, so the packages it imports (left external) resolve; removed at once.
  const file = root + `node_modules/.cache/intern-tui-help-${process.pid}.mjs`;
  await build({ absWorkingDir: root, entryPoints: ['src/cli/args.ts'], outfile: file, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  let HELP;
  try {
    ({ HELP } = await import(pathToFileURL(file).href));
  } finally {
    rmSync(file, { force: true });
  }
  if (typeof HELP !== 'string' || !HELP.includes('Usage:')) throw new Error('build: could not render the help text');
  return HELP;
}

/**
 * What each output file holds and imports (minified code has no path comments), every build's in
 * one dist/meta.json: the e2e tests of the start-up path and of bundling.mjs's replacements read it.
 * Not packaged (package.json lists the files it ships).
 */
const meta = { inputs: {}, outputs: {} };
function keepMeta(result) {
  Object.assign(meta.inputs, result.metafile.inputs);
  Object.assign(meta.outputs, result.metafile.outputs);
}

// Chunk names carry hashes: clear the last build's, so dist (and the package) holds only this one.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  ...common,
  ...tui,
  // One entry (dist/cli.js) plus chunks loaded by import(): `--help` loads only the registry.
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  // The version and the help for main.ts, which answers --version and --help with no other module loaded;
  // and the TUI as dist/tui.cjs (built below) for tuiBundle.ts.
  define: {
    ...production,
    __INTERN_TUI_VERSION__: JSON.stringify(JSON.parse(readFileSync(root + 'package.json', 'utf8')).version),
    __INTERN_TUI_HELP__: JSON.stringify(await renderedHelp()),
    __INTERN_TUI_CJS__: 'true',
  },
  banner: requireBanner,
}).then(keepMeta);

// Two parts of the bundle as single CommonJS files, for src/codeCache.ts: V8's code cache (vm.Script's
// cachedData) takes scripts, and Node 20 has none for ES modules. Neither has a top-level await.
/** A CommonJS file in which `import.meta.url` is the file's own URL. */
const cjsWithOwnUrl = {
  format: 'cjs',
  define: { ...production, 'import.meta.url': '__intern_import_meta_url' },
  banner: { js: "var __intern_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
};
// The TUI (src/cli/tuiEntry.ts; tuiBundle.ts runs it): everything its start reaches, the screens it loads later too
// (thread.ts finds the sandbox's worker file by its own URL).
await build({
  ...common,
  ...tui,
  ...cjsWithOwnUrl,
  entryPoints: ['src/cli/tuiEntry.ts'],
  outfile: 'dist/tui.cjs',
}).then(keepMeta);
// The embedded sandbox: its worker thread (src/sandbox/thread.ts) starts dist/sandbox-worker.cjs,
// compiled.ts, which runs the sandbox itself, dist/sandbox.cjs (worker.ts), with V8's code cache.
// CommonJS both: a worker whose file is an ES module sets up Node's ES module loader first, about
// 10 ms of every start.
await build({
  ...common,
  plugins: sandboxPlugins,
  entryPoints: ['src/sandbox/worker.ts'],
  outfile: 'dist/sandbox.cjs',
  format: 'cjs',
  define: production,
}).then(keepMeta);
await build({
  ...common,
  ...cjsWithOwnUrl,
  entryPoints: ['src/sandbox/compiled.ts'],
  outfile: 'dist/sandbox-worker.cjs',
}).then(keepMeta);
// The attach recorder's worker thread (src/attach/recorder.ts starts it from beside dist/tui.cjs, or
// from dist/chunks/ one folder up): small, and CommonJS for the same reason as the sandbox's worker.
await build({
  ...common,
  entryPoints: ['src/attach/recordWorker.ts'],
  outfile: 'dist/record-worker.cjs',
  format: 'cjs',
}).then(keepMeta);
writeFileSync(root + 'dist/meta.json', JSON.stringify(meta));
checkAscii(['dist/tui.cjs', 'dist/sandbox.cjs', 'dist/sandbox-worker.cjs']);
// `open` (bundled) runs the xdg-open it ships from beside its own file, the system's when there is
// none there: beside the chunk that holds it (the CLI's) and beside dist/tui.cjs (the TUI's).
for (const dir of ['dist/', 'dist/chunks/']) {
  copyFileSync(root + 'node_modules/open/xdg-open', root + dir + 'xdg-open');
  chmodSync(root + dir + 'xdg-open', 0o755);
}
checkDependencies();

/**
 * The files run with V8's code cache are read whole at every start: one character outside ASCII (esbuild
 * writes strings escaped, but a regex literal as it is) and Node decodes all of it as UTF-8 into a
 * two-byte string, twice the memory, which the hash and the compile then go through (a warm read of
 * dist/tui.cjs took 38 ms instead of 10 on the busy machine). Write `\u2026` in the source instead.
 */
function checkAscii(files) {
  for (const file of files) {
    const bytes = readFileSync(root + file);
    const at = bytes.findIndex((b) => b > 0x7f);
    if (at !== -1) {
      console.error(`build: ${file} holds a character outside ASCII at byte ${at}: ${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 8).toString('utf8'))}`);
      process.exit(1);
    }
  }
}

/** The package a bare specifier names: `@scope/name` or `name` (`name/sub/path` too). */
function packageOf(specifier) {
  return specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/**
 * What an installed intern-tui loads from node_modules at run time must be its `dependencies`, and
 * they must be nothing more (the install pulls each with its tree; the bundle holds the rest):
 * every bare specifier the bundle requires or imports (esbuild's metafile: what it left external),
 * and every `importExternal('...')` in the sources bundled (packages loaded at run time by name).
 * A bundled package's optional peer (ws's bufferutil, required inside a try) is no need.
 */
function checkDependencies() {
  const pkg = JSON.parse(readFileSync(root + 'package.json', 'utf8'));
  const declared = new Set(Object.keys(pkg.dependencies ?? {}));
  const needed = new Map();
  const need = (specifier, by) => {
    if (isBuiltin(specifier) || specifier.startsWith('.') || specifier.startsWith('/')) return;
    needed.set(packageOf(specifier), by);
  };
  for (const [file, output] of Object.entries(meta.outputs)) for (const i of output.imports) if (i.external) need(i.path, file);
  const optionalPeers = new Set();
  for (const input of Object.keys(meta.inputs)) {
    const m = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) {
      const meta_ = JSON.parse(readFileSync(root + input.slice(0, m.index + m[0].length) + 'package.json', 'utf8'));
      for (const [peer, how] of Object.entries(meta_.peerDependenciesMeta ?? {})) if (how.optional) optionalPeers.add(peer);
    } else if (input.startsWith('src/')) {
      const source = readFileSync(root + input, 'utf8');
      for (const [, specifier] of source.matchAll(/importExternal\s*(?:<[\s\S]*?>)?\(\s*['"]([^'"]+)['"]/g)) need(specifier, input);
    }
  }
  for (const peer of optionalPeers) if (!declared.has(peer)) needed.delete(peer);
  // A bundled package's binary packages come with it: the package is what to depend on.
  for (const name of BINARIES_OF) {
    const prefix = `@${name}/`;
    const binaries = [...needed.keys()].filter((n) => n.startsWith(prefix));
    if (binaries.length > 0 || Object.keys(meta.inputs).some((i) => i.includes(`node_modules/${name}/`))) {
      for (const n of binaries) needed.delete(n);
      needed.set(name, 'its binary package, loaded by the bundled ' + name);
    }
  }
  const problems = [];
  for (const [name, by] of needed) if (!declared.has(name)) problems.push(`the bundle loads ${name} at run time (${by}), which package.json's dependencies lacks`);
  for (const name of declared) if (!needed.has(name)) problems.push(`package.json's dependencies lists ${name}, which the bundle does not load from node_modules: move it to devDependencies`);
  if (problems.length > 0) {
    for (const p of problems) console.error(`build: ${p}`);
    process.exit(1);
  }
}
