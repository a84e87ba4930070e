/**
 * `import()` of a package or a Node built-in, for code that may run from V8's code cache. Node 20
 * drops a `vm.Script`'s `importModuleDynamically` when the script is built from cached data, so
 * every `import()` in a file codeCache.ts runs failed with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING
 * from the second run on (the cache written by the first): HTTPS requests to the service, the
 * keychain, node-pty in the embedded sandbox. runCompiled installs an importer from a module Node
 * loaded itself; anywhere else (ES modules, tests) this is plain `import()`. The lint forbids an
 * `import()` of a package or a built-in anywhere but here. Imports nothing.
 */
type Importer = (specifier: string) => Promise<unknown>;

const IMPORTER = Symbol.for('intern-tui.importExternal');
const holder = globalThis as { [IMPORTER]?: Importer };

export function importExternal<T>(specifier: string): Promise<T> {
  const importer = holder[IMPORTER];
  return (importer ? importer(specifier) : import(specifier)) as Promise<T>;
}

/** For runCompiled: the importer the code it runs is to use, in this thread. */
export function setImporter(importer: Importer): void {
  holder[IMPORTER] = importer;
}
