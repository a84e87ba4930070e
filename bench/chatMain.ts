/**
 * Row 8's process (bench/chat.ts): `npm run bench` bundles this file as the TUI is bundled
 * (scripts/bundling.mjs) and runs it with node; it prints the row's figures as one line of JSON.
 */
import { chatKeystrokes } from './chat.js';

process.stdout.write(JSON.stringify(await chatKeystrokes()) + '\n');
