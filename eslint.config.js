// Lint rules: the recommended sets, plus the architecture's import boundaries,
// so that a layer that reaches into another fails `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const boundary = (group, message) => ({ group, message });
// zod's named export `z` is its whole namespace object, which the bundler cannot tree-shake.
const ZOD_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
  message: "Import zod as a namespace (import * as z from 'zod'): the named export keeps all of zod, about 350 KB, in the bundle.",
};
// A schema built where its module loads costs every start that loads the module, whether or not it
// ever parses: the contract's 200-odd schemas took 16-20 ms on each of the TUI's and the embedded
// sandbox's threads (bench/README.md, rows c and d). A top-level schema is built on its first use.
const EAGER_SCHEMA = {
  selector:
    ":matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > CallExpression.init:has(MemberExpression[object.name='z']):not([callee.object.name='z'][callee.property.name='lazy'])",
  message: "Build a module's schema on first use: z.lazy(() => z.object(...)). Built as the module loads, it costs every start that loads it.",
};
const EXTERNAL_IMPORT_MESSAGE =
  'Load a package or a Node built-in with importExternal (src/importExternal.ts): an import() in a file run from V8\'s code cache fails in Node 20.';
const EXTERNAL_IMPORT = [
  { selector: "ImportExpression[source.type='Literal'][source.value=/^[^.]/]", message: EXTERNAL_IMPORT_MESSAGE },
  { selector: "ImportExpression[source.type!='Literal']", message: EXTERNAL_IMPORT_MESSAGE },
];
// Node's recursive mkdir never returns under a folder like /proc: src/files.ts's makeDirs is the one way.
const RECURSIVE_MKDIR = {
  selector: "CallExpression:matches([callee.name=/^mkdir(Sync)?$/], [callee.property.name=/^mkdir(Sync)?$/]) > ObjectExpression > Property[key.name='recursive']",
  message: 'Make folders with makeDirs (src/files.ts): Node\'s recursive mkdir loops forever under /proc and the like.',
};
// Ink lays a border side out only when borderStyle changes: a side switched on or off after the first
// render was drawn but not laid out, and the TUI threw drawing a border taller than its box.
const BORDER_SIDE = {
  selector: "JSXAttribute[name.name=/^border(Top|Bottom|Left|Right)$/] > JSXExpressionContainer > :not(Literal)",
  message: 'Give a border side a constant (true or false): Ink does not lay out a side switched after the first render. Draw a rule that comes and goes as text.',
};
// Commands reach stdout and stderr only through Output (ctx.out), which strips control characters
// from what the service sent: a write that must remember to sanitise is one that will forget.
const COMMAND_STREAMS = {
  selector: "MemberExpression[property.name=/^(stdout|stderr)$/]",
  message: 'Write through ctx.out (say, note, list, object, done...): it strips control characters from what the service sent, so no command can forget to.',
};
// The Text primitive cleans the strings among its children, but not those a component child draws:
// a component that returns a fragment of strings puts them inside its parent's Text unseen (a
// table cell's text went out raw that way). Such a component draws its own Text, or sanitises and says so.
const FRAGMENT_STRINGS = {
  selector: ":matches(ReturnStatement, ArrowFunctionExpression) > JSXFragment > JSXExpressionContainer > :matches(Identifier, MemberExpression, TemplateLiteral, Literal, BinaryExpression, CallExpression[callee.property.name!='map'])",
  message: 'A component that returns strings in a fragment escapes the Text primitive around it: wrap them in <Text> (src/tui/components/Text.tsx), or sanitise them and disable this line with the reason.',
};
const tuiPatterns = [
  boundary(['**/sandbox/**', '**/cli/**'], 'The TUI never imports the sandbox or the CLI.'),
  boundary(['**/client/index.js', '**/client/http.js'], 'The TUI is handed an InternApi; building a client is the CLI\'s job.'),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-control-regex': 'off',
      'no-restricted-syntax': ['error', ZOD_NAMESPACE],
    },
  },
  {
    // Code run from V8's code cache loses its import(): packages and built-ins go through importExternal.
    files: ['src/**'],
    ignores: ['src/importExternal.ts', 'src/codeCache.ts'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMESPACE, EAGER_SCHEMA, RECURSIVE_MKDIR, BORDER_SIDE, ...EXTERNAL_IMPORT] },
  },
  {
    // attach passes the remote terminal's bytes through to the user's terminal (its own lines are
    // sanitised); replay paints a recording from the emulator's cells (its title sanitised); completion writes a shell script and candidate lines whose tabs are separators
    // (the names it offers pass the contract's name rules first).
    files: ['src/cli/commands/**'],
    ignores: ['src/cli/commands/attach.ts', 'src/cli/commands/replay.ts', 'src/cli/commands/completion.ts'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMESPACE, EAGER_SCHEMA, RECURSIVE_MKDIR, BORDER_SIDE, ...EXTERNAL_IMPORT, COMMAND_STREAMS] },
  },
  {
    files: ['src/importExternal.ts', 'src/codeCache.ts'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMESPACE, EAGER_SCHEMA, RECURSIVE_MKDIR] },
  },
  {
    files: ['src/tui/**/*.{ts,tsx}', 'test/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/tui/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMESPACE, EAGER_SCHEMA, RECURSIVE_MKDIR, BORDER_SIDE, ...EXTERNAL_IMPORT, FRAGMENT_STRINGS] },
  },
  // The layers of docs/architecture.md, one block each.
  {
    files: ['src/tui/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: tuiPatterns,
        paths: [{ name: 'ink', importNames: ['Text', 'Transform'], message: 'Draw text with src/tui/components/Text.tsx: it sanitises every string.' }],
      }],
    },
  },
  {
    // The text primitive itself wraps Ink's Text.
    files: ['src/tui/components/Text.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: tuiPatterns }] },
  },
  {
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['**/client/**', '**/tui/**', '**/cli/**'], 'The sandbox never imports the client, the TUI or the CLI.'),
        boundary(['**/attach/**', '!**/attach/protocol.js'], "The sandbox uses only attach's protocol codec."),
        boundary(['react', 'react/*', 'ink', 'ink-*'], 'The sandbox has no React.'),
      ] }],
    },
  },
  {
    files: ['src/client/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['react', 'react/*', 'ink', 'ink-*'], 'The client never imports React.'),
        boundary(['**/tui/**', '**/sandbox/**', '**/cli/**', '**/attach/**'], 'The client imports only the contract.'),
      ] }],
    },
  },
  {
    files: ['src/attach/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['react', 'react/*', 'ink', 'ink-*'], 'attach never imports React.'),
        boundary(['**/tui/**', '**/sandbox/**', '**/cli/**', '**/client/**'], 'attach imports only the contract.'),
      ] }],
    },
  },
  {
    files: ['src/contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['react', 'react/*', 'ink', 'ink-*'], 'The contract never imports React.'),
        boundary(['**/tui/**', '**/sandbox/**', '**/cli/**', '**/client/**', '**/attach/**'], 'The contract imports nothing else in src/ (zod only).'),
      ] }],
    },
  },
);
