import pkg from '../package.json' with { type: 'json' };

/** The package version, bundled into the CLI at build time. */
export const VERSION: string = pkg.version;
export const USER_AGENT = `intern-tui/${VERSION}`;
