// Bundles the CLI into one ESM file for fast start. Native modules stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['better-sqlite3', '@lydell/node-pty'],
  alias: { 'react-devtools-core': './scripts/react-devtools-stub.mjs' },
  banner: {
    js: "import { createRequire as __intern_createRequire } from 'node:module'; const require = __intern_createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
