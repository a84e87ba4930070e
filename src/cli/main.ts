/**
 * The `intern-tui` command. `--version` and `--help` are answered here, with nothing else loaded
 * (each module of the bundle is a file to find, read and compile; the registry and the parser are
 * six of them); everything else is dispatch.ts.
 */
import { VERSION } from '../version.js';

/** The top-level help, rendered at build time from the registry (scripts/build.mjs); absent from source. */
declare const __INTERN_TUI_HELP__: string | undefined;
const HELP = typeof __INTERN_TUI_HELP__ === 'string' ? __INTERN_TUI_HELP__ : undefined;

const argv = process.argv.slice(2);
const [only] = argv;
if (argv.length === 1 && (only === '--version' || only === '-v')) process.stdout.write(`intern-tui ${VERSION}\n`);
else if (argv.length === 1 && HELP !== undefined && (only === '--help' || only === '-h' || only === 'help')) process.stdout.write(HELP);
else await (await import('./dispatch.js')).dispatch(argv);
