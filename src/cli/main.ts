/**
 * The `intern-tui` command. `--version` is answered here, with nothing else loaded (each module
 * of the bundle is a file to find, read and compile: about 25 ms of a 75 ms start went to the
 * registry and the parser `--version` does not use); everything else is dispatch.ts.
 */
import { VERSION } from '../version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) process.stdout.write(`intern-tui ${VERSION}\n`);
else await (await import('./dispatch.js')).dispatch(argv);
