// How the product is bundled: the esbuild options and plugins every bundle of scripts/build.mjs shares,
// here so that a bench that must measure the code users run (bench/run.ts, row 8) bundles it the same way.
import { readFileSync } from 'node:fs';
import { simpleWidthRuns } from './string-width-core.mjs';
import { KEPT_CACHE_FILES, keptCachesSource } from './ink-kept-caches.mjs';
import { replaceEachOnce, withoutComments } from './rewrite.mjs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Left to node_modules: the native modules (libsql's JavaScript is bundled, its binary, one
 * `@libsql/<platform>` package, is not: see libsqlTarget). These, and what the bundled code loads
 * with importExternal, are package.json's `dependencies`, and nothing else is: the bundle holds
 * the rest (checked at the end of build.mjs, `checkDependencies`).
 */
export const NATIVE = ['@libsql/*', '@lydell/node-pty', '@napi-rs/keyring'];
/** Dependencies the bundle holds the JavaScript of, whose binary packages (their optionalDependencies) it loads by a name made at run time. */
export const BINARIES_OF = ['libsql'];

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

/** What every bundle shares: Node 20, minified, native modules left out, metafiles kept. */
export const common = {
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
export const tui = {
  alias: { 'react-devtools-core': './scripts/react-devtools-stub.mjs' },
  plugins: [libsqlTarget, fastifyLazyRequires, yogaSync, stringWidthFast, ansiTokenizeFast, inkNoDevtools, inkKeptCaches, lazySegmenter],
};
/** The sandbox's own bundle: no Ink or React in it, but the table-backed string-width (the real one makes an Intl.Segmenter as it loads: see lazySegmenter). */
export const sandboxPlugins = [libsqlTarget, fastifyLazyRequires, stringWidthFast];
// React's production builds: the development ones (the default without this) check every render and run several times slower.
export const production = { 'process.env.NODE_ENV': '"production"' };
/** An ES module bundle's `require` (for what it leaves external, and CommonJS packages' own requires). */
export const requireBanner = { js: "import { createRequire as __intern_createRequire } from 'node:module'; const require = __intern_createRequire(import.meta.url);" };
