/**
 * The `intern-tui` command. `--version` and `--help` are answered here with no other module
 * loaded: their text is rendered at build time (scripts/build.mjs: the version from package.json,
 * the help from the registry), since each module of the bundle is a file to find, read and
 * compile. From source the constants are absent and dispatch.ts answers. Everything else is
 * dispatch.ts.
 */
declare const __INTERN_TUI_VERSION__: string | undefined;
declare const __INTERN_TUI_HELP__: string | undefined;

const argv = process.argv.slice(2);
// chalk (Ink's styles) reads process.argv for itself, and to it --no-color means no styles at all:
// no inverse selection, no bold, no cursor. The no-colour theme (src/tui/theme.ts) keeps those, as
// NO_COLOR does; the flag is this program's, read from `argv` above, so chalk no longer sees it.
for (let i = process.argv.indexOf('--no-color', 2); i !== -1; i = process.argv.indexOf('--no-color', 2)) process.argv.splice(i, 1);
const [only] = argv;
const built = typeof __INTERN_TUI_VERSION__ === 'string' && typeof __INTERN_TUI_HELP__ === 'string';
if (built && argv.length === 1 && (only === '--version' || only === '-v')) process.stdout.write(`intern-tui ${__INTERN_TUI_VERSION__}\n`);
else if (built && argv.length === 1 && (only === '--help' || only === '-h' || only === 'help')) process.stdout.write(__INTERN_TUI_HELP__);
// No arguments: the TUI, without the registry and the parser (tuiEntry.ts's quickTui).
else if (argv.length === 0) await (await import('./tuiBundle.js')).quickTui();
else await (await import('./dispatch.js')).dispatch(argv);
