// Bundles the CLI into ESM for fast start: code splitting keeps each command's code out of start-up. Native modules stay
// external. The TUI command and the embedded sandbox's worker are each bundled as one CommonJS file, for V8's code
// cache (src/codeCache.ts; at the end).
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';
import { simpleWidthRuns } from './string-width-core.mjs';
import { KEPT_CACHE_FILES, keptCachesSource } from './ink-kept-caches.mjs';
import { replaceEachOnce, withoutComments } from './rewrite.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Left to node_modules: the native modules (libsql's JavaScript is bundled, its binary, one
 * `@libsql/<platform>` package, is not: see libsqlTarget). These, and what the bundled code loads
 * with importExternal, are package.json's `dependencies`, and nothing else is: the bundle holds
 * the rest (checked at the end, `checkDependencies`).
 */
const NATIVE = ['@libsql/*', '@lydell/node-pty', '@napi-rs/keyring'];
/** Dependencies the bundle holds the JavaScript of, whose binary packages (their optionalDependencies) it loads by a name made at run time. */
const BINARIES_OF = ['libsql'];

/**
 * libsql, bundled (into the sandbox's worker, and so into V8's code cache with it), picks its
 * binary package with @neon-rs/load's `currentTarget()`, which on Linux takes a whole diagnostic
 * report (`process.report.getReport()`, a quarter of loading libsql in the worker's profile) to
 * tell glibc from musl, and then asks detect-libc (which reads ldd, cheaply) the same question. The
 * bundle asks detect-libc first and takes the report only when it has no answer; its
 * `require(\`@libsql/${target}\`)` stays a run-time require, resolved from dist/ (where npm puts
 * libsql's platform packages beside intern-tui's). A libsql release that changes that code fails
 * the build here.
 */
const libsqlTarget = {
  name: 'libsql-target',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const from = 'let target = currentTarget();';
      const native = 'return require(`@libsql/${target}`);';
      if (source.split(from).length !== 2 || source.split(native).length !== 2) throw new Error("libsql-target: libsql's index.js changed; this build cannot pick its binary without the diagnostic report");
      const to =
        "const family = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64') ? familySync() : null;\n" +
        '  let target = family === GLIBC ? `linux-${process.arch}-gnu` : family === MUSL ? `linux-${process.arch}-musl` : currentTarget();';
      return { loader: 'js', contents: source.replace(from, to) };
    });
  },
};

/**
 * Ink's `yoga-layout` becomes scripts/yoga-sync.mjs, which instantiates the same wasm synchronously
 * (why: see that file). The shim reaches into the package's dist (its `exports` allow only the
 * entry), and the wasm's inlined base64 moves to an export so the shim can decode it without a
 * second copy. A yoga-layout release that changes that file fails the build here, not at run time.
 */
const yogaDist = root + 'node_modules/yoga-layout/dist/';
const yogaSync = {
  name: 'yoga-sync',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, (args) =>
      args.importer.endsWith('yoga-sync.mjs') ? undefined : { path: root + 'scripts/yoga-sync.mjs' });
    b.onResolve({ filter: /^yoga-layout\/(binaries|src)\// }, (args) => ({ path: yogaDist + args.path.slice('yoga-layout/'.length) }));
    b.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, () => {
      const source = readFileSync(yogaDist + 'binaries/yoga-wasm-base64-esm.js', 'utf8');
      const inline = /H="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/g;
      const found = [...source.matchAll(inline)];
      if (found.length !== 1) throw new Error(`yoga-sync: expected one inlined wasm in yoga-layout, found ${found.length}`);
      return {
        loader: 'js',
        contents:
          source.replace(inline, 'H="data:application/octet-stream;base64,"+YOGA_WASM_BASE64') +
          `\nexport const YOGA_WASM_BASE64 = ${JSON.stringify(found[0][1])};\n`,
      };
    });
  },
};

/**
 * Ink's `@alcalzone/ansi-tokenize` becomes scripts/ansi-tokenize-fast.mjs: the package, with a faster
 * styledCharsToString (why: see that file), which imports the package itself.
 */
const ansiTokenizeFast = {
  name: 'ansi-tokenize-fast',
  setup(b) {
    b.onResolve({ filter: /^@alcalzone\/ansi-tokenize$/ }, (args) =>
      args.importer.endsWith('ansi-tokenize-fast.mjs') ? undefined : { path: root + 'scripts/ansi-tokenize-fast.mjs' });
  },
};

/**
 * Ink's reconciler awaits at top level, only when DEV=true, to connect React's devtools (which the bundle
 * leaves out: react-devtools-core is a stub) and read its own package.json for them. Those two branches
 * go, so the TUI can be bundled as CommonJS; a release that changes them fails the build here.
 */
const inkNoDevtools = {
  name: 'ink-no-devtools',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const cuts = [
        ["if (isDev()) {\n    try {\n        await import('./devtools.js');", "if (false) {\n    try {\n        undefined;"],
        ['isDev()\n    ? await loadPackageJson()', 'false\n    ? undefined'],
      ];
      const contents = replaceEachOnce(readFileSync(args.path, 'utf8'), cuts, "ink-no-devtools: Ink's reconciler changed; this build cannot take out its devtools awaits");
      return { loader: 'js', contents };
    });
  },
};

/**
 * Ink's text caches (ink/build/output.js and measure-text.js) become scripts/ink-kept-caches.mjs's
 * KeptMap, bounded, and Output's are shared by every frame rather than made for each (why: see
 * that file). An Ink release that changes those lines fails the build there.
 */
const inkKeptCaches = {
  name: 'ink-kept-caches',
  setup(b) {
    b.onLoad({ filter: KEPT_CACHE_FILES }, (args) => ({
      loader: 'js',
      contents: keptCachesSource(args.path, readFileSync(args.path, 'utf8'), root + 'scripts/ink-kept-caches.mjs'),
    }));
  },
};

/**
 * What fastify loads as it loads for work the sandbox never asks of it: its server.js, node:https
 * and node:http2, for the servers it makes only when asked for TLS or HTTP/2; its plugin-utils.js,
 * semver (some forty regular expressions built as it loads), to check the fastify version a plugin
 * asks for, and the sandbox registers no plugin that asks. In the embedded sandbox's worker thread
 * (which takes Node's own modules from no startup snapshot) that was on the path of `npm start`'s
 * time to the list: here each is required where it is used. A fastify release that changes those
 * lines, or uses the modules elsewhere in those files, fails the build here.
 */
const FASTIFY_LAZY = [
  {
    file: 'server.js',
    names: ['https', 'http2'],
    cuts: [
      ["const https = require('node:https')\n", ''],
      ["const http2 = require('node:http2')\n", ''],
      ['http2.createSecureServer(', "require('node:http2').createSecureServer("],
      ['http2.createServer(', "require('node:http2').createServer("],
      ['https.createServer(', "require('node:https').createServer("],
    ],
  },
  {
    file: 'plugin-utils.js',
    names: ['semver'],
    cuts: [
      ["const semver = require('semver')\n", ''],
      ['semver.gt(this.version, semver.coerce(requiredVersion))', "require('semver').gt(this.version, require('semver').coerce(requiredVersion))"],
      ['semver.satisfies(this.version,', "require('semver').satisfies(this.version,"],
    ],
  },
];
const fastifyLazyRequires = {
  name: 'fastify-lazy-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]fastify[\\/]lib[\\/](?:server|plugin-utils)\.js$/ }, (args) => {
      const lazy = FASTIFY_LAZY.find((l) => args.path.endsWith(l.file));
      const contents = replaceEachOnce(readFileSync(args.path, 'utf8'), lazy.cuts, `fastify-lazy-requires: fastify's lib/${lazy.file} changed; this build cannot load ${lazy.names.join(' and ')} lazily`);
      // Nothing else may use them: `name.` outside comments, other than as a property.
      const uses = new RegExp(`(?<![\\w.])(?:${lazy.names.join('|')})\\.`);
      if (uses.test(withoutComments(contents))) throw new Error(`fastify-lazy-requires: lib/${lazy.file} uses ${lazy.names.join(' or ')} elsewhere`);
      return { loader: 'js', contents };
    });
  },
};

// Chunk names carry hashes: clear the last build's, so dist (and the package) holds only this one.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * The hoisted string-width (8, used by Ink, cli-truncate, widest-line and src/text.ts) becomes
 * scripts/string-width-fast.mjs, whose table of simple characters is generated here from that same
 * string-width (why: see that file). wrap-ansi's own string-width 7 is left as it is.
 */
const realStringWidth = root + 'node_modules/string-width/index.js';
const stringWidthFast = {
  name: 'string-width-fast',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'as-is') return undefined;
      const found = await b.resolve('string-width', { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'as-is' });
      return found.path === realStringWidth ? { path: root + 'scripts/string-width-fast.mjs' } : found;
    });
    b.onResolve({ filter: /^string-width-real$/ }, () => ({ path: realStringWidth }));
    b.onResolve({ filter: /^string-width-table$/ }, () => ({ path: 'string-width-table', namespace: 'string-width-table' }));
    b.onLoad({ filter: /.*/, namespace: 'string-width-table' }, async () => {
      const { default: realWidth } = await import(realStringWidth);
      return { loader: 'js', contents: `export const SIMPLE_WIDTH_RUNS = ${JSON.stringify(simpleWidthRuns(realWidth))};` };
    });
  },
};

/**
 * Ink's tokenizers (@alcalzone/ansi-tokenize, slice-ansi) and wrap-ansi's string-width 7 each make an
 * Intl.Segmenter as they load, which the TUI's start paid before its first frame (the first one of
 * a process loads ICU's break rules). Each `new Intl.Segmenter(...)` there becomes
 * scripts/grapheme-segmenter.mjs's, which gives the same segments and makes the real one when a
 * string first needs it. A release of one of them that changes that line fails the build here.
 */
const SEGMENTER_USERS = /[\\/]node_modules[\\/](?:@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize|slice-ansi[\\/]tokenize-ansi|wrap-ansi[\\/]node_modules[\\/]string-width[\\/]index)\.js$/;
const lazySegmenter = {
  name: 'lazy-segmenter',
  setup(b) {
    b.onLoad({ filter: SEGMENTER_USERS }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const made = /new Intl\.Segmenter\(([^)]*)\)/g;
      const found = [...source.matchAll(made)];
      if (found.length !== 1 || !/^\s*$|granularity:\s*["']grapheme["']/.test(found[0][1])) throw new Error(`lazy-segmenter: ${args.path} no longer makes one grapheme Intl.Segmenter as it loads`);
      return {
        loader: 'js',
        contents: `import { graphemeSegmenter as __graphemeSegmenter } from ${JSON.stringify(root + 'scripts/grapheme-segmenter.mjs')};\n` + source.replace(made, '__graphemeSegmenter($1)'),
      };
    });
  },
};

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
 * one dist/meta.json: the e2e tests of the start-up path and of the replacements above read it.
 * Not packaged (package.json lists the files it ships).
 */
const meta = { inputs: {}, outputs: {} };
function keepMeta(result) {
  Object.assign(meta.inputs, result.metafile.inputs);
  Object.assign(meta.outputs, result.metafile.outputs);
}

/** What every bundle shares: Node 20, minified, native modules left out, metafiles kept. */
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  external: NATIVE,
  logLevel: 'warning',
  metafile: true,
  plugins: [libsqlTarget, fastifyLazyRequires],
};
/** What every bundle holding the TUI shares: the replacements above, and no React devtools. */
const tui = {
  alias: { 'react-devtools-core': './scripts/react-devtools-stub.mjs' },
  plugins: [libsqlTarget, fastifyLazyRequires, yogaSync, stringWidthFast, ansiTokenizeFast, inkNoDevtools, inkKeptCaches, lazySegmenter],
};
// React's production builds: the development ones (the default without this) check every render and run several times slower.
const production = { 'process.env.NODE_ENV': '"production"' };

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
  banner: {
    js: "import { createRequire as __intern_createRequire } from 'node:module'; const require = __intern_createRequire(import.meta.url);",
  },
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
  // The table-backed string-width too: the real one makes an Intl.Segmenter as it loads (see lazySegmenter).
  plugins: [libsqlTarget, fastifyLazyRequires, stringWidthFast],
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
