/**
 * `open` (sindresorhus), bundled: browser.ts loads this with a relative import() on first use, so the
 * package is no install dependency. The build puts the package's own `xdg-open` beside the bundle's
 * files (where `open` looks for it); where it is missing, `open` runs the system's.
 */
export { default } from 'open';
