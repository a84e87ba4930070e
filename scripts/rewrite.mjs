// How the build's plugins rewrite a package's code (bundling.mjs, ink-kept-caches.mjs): exact texts
// replaced, each where it stands once, so that a package release that changed them fails the
// build rather than the program at run time.

/**
 * `source` with each `[from, to]` of `cuts` replaced, in order; each `from` must stand exactly once
 * where it is replaced, or the build fails with `failure` and the text it did not find once.
 */
export function replaceEachOnce(source, cuts, failure) {
  let contents = source;
  for (const [from, to] of cuts) {
    if (contents.split(from).length !== 2) throw new Error(`${failure} (${JSON.stringify(from)})`);
    contents = contents.replace(from, to);
  }
  return contents;
}

/** `source` without its comments, for a check that a name is used nowhere else in the code. */
export function withoutComments(source) {
  return source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
}
