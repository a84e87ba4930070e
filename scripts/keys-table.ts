// Rewrites README.md's key table from the keymap: `npm run docs:keys`.
import { readFileSync, writeFileSync } from 'node:fs';
import { keyTable, withKeyTable } from '../src/tui/keymapDoc.js';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withKeyTable(before, keyTable());
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? 'README.md key table is up to date\n' : 'README.md key table rewritten\n');
