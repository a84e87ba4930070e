// Lint rules: the recommended sets, plus the architecture's import boundaries,
// so that a layer that reaches into another fails `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const boundary = (group, message) => ({ group, message });

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
    },
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
    files: ['src/tui/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [boundary(['**/sandbox/**'], 'The TUI never imports the sandbox.')] }],
    },
  },
  {
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['**/client/**', '**/tui/**'], 'The sandbox never imports the client or the TUI.'),
        boundary(['react', 'ink', 'ink-*'], 'The sandbox has no React.'),
      ] }],
    },
  },
  {
    files: ['src/client/**', 'src/attach/**', 'src/contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        boundary(['react', 'react/*', 'ink', 'ink-*'], 'client, attach and contract never import React.'),
        boundary(['**/tui/**', '**/sandbox/**', '**/cli/**'], 'client, attach and contract stay below the UI and the sandbox.'),
      ] }],
    },
  },
);
