// What the bundle gives Ink for its text caches (inkKeptCaches in bundling.mjs). Ink 6's Output made
// its caches (each line's styled characters, each string's width) afresh for every frame, so every
// frame tokenized every visible line again, character by character, even where nothing had
// changed: a key that moved the list's cursor paid for all thirty rows, and the details screen
// drawn again after a detach paid for all of it on code the flood had left cold (bench row 4).
// Here one set of caches serves every frame. measureText's cache, which Ink keeps for the whole
// process and never empties (every text ever laid out, an all-day session's every streamed line),
// is held to the same bound.
import { replaceEachOnce, withoutComments } from './rewrite.mjs';

/**
 * A Map for caches of what is on the screen: it keeps the last `limit` keys set and up to `limit`
 * before them, in two generations. A key read from the older one moves to the newer; when the
 * newer one is full, the older is dropped. So a frame's worth of keys that are read again stays,
 * and memory is bounded whatever the session shows.
 */
export class KeptMap {
  /** @param {number} limit */
  constructor(limit) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`KeptMap: limit must be a positive integer, not ${limit}`);
    this.limit = limit;
    this.young = new Map();
    this.old = new Map();
  }

  get(key) {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key, value) {
    if (this.young.size >= this.limit && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
    return this;
  }

  has(key) {
    return this.young.has(key) || this.old.has(key);
  }

  /** Keys held, at most twice the limit (a key in both generations counts twice). */
  get size() {
    return this.young.size + this.old.size;
  }
}

/** How many keys each cache keeps in a generation: several frames' worth of a full screen's text nodes. */
export const KEPT = { styledChars: 1024, widths: 4096, blockWidths: 512, measured: 1024 };

/** The rewrites of each Ink file (by name): [text, replacement], each text standing exactly once. */
const CUTS = {
  'output.js': [
    ['widths = new Map();', `widths = new __KeptMap(${KEPT.widths});`],
    ['blockWidths = new Map();', `blockWidths = new __KeptMap(${KEPT.blockWidths});`],
    ['styledChars = new Map();', `styledChars = new __KeptMap(${KEPT.styledChars});`],
    ['export default class Output {', 'const __sharedCaches = new OutputCaches();\nexport default class Output {'],
    ['caches = new OutputCaches();', 'caches = __sharedCaches;'],
  ],
  'measure-text.js': [['const cache = new Map();', `const cache = new __KeptMap(${KEPT.measured});`]],
};

/** The files of ink/build that keptCachesSource rewrites. */
export const KEPT_CACHE_FILES = /[\\/]ink[\\/]build[\\/](?:output|measure-text)\.js$/;

/**
 * `source` (ink/build/output.js or measure-text.js, named by `file`) with its caches kept: a
 * KeptMap each, imported from `keptMapUrl`, and Output's shared by every frame. An Ink release
 * that changed those lines, or uses a cache some other way, fails here, at build time.
 */
export function keptCachesSource(file, source, keptMapUrl) {
  const name = file.replace(/.*[\\/]/, '');
  const cuts = CUTS[name];
  if (!cuts) throw new Error(`ink-kept-caches: no rewrite for ${file}`);
  const contents = replaceEachOnce(source, cuts, `ink-kept-caches: Ink's build/${name} changed; this build cannot keep its caches`);
  // Only get and set (KeptMap's) may be asked of them.
  const other = /\b(?:cache|widths|blockWidths|styledChars)\.(?!get\(|set\()\w+/;
  if (other.test(withoutComments(contents))) throw new Error(`ink-kept-caches: Ink's build/${name} uses a cache beyond get and set`);
  return `import { KeptMap as __KeptMap } from ${JSON.stringify(keptMapUrl)};\n` + contents;
}
