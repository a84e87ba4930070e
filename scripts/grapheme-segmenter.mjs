// What the bundle gives Ink's tokenizers (@alcalzone/ansi-tokenize, slice-ansi) and wrap-ansi's
// string-width in place of the `new Intl.Segmenter(...)` each ran as it loaded (the lazySegmenter
// plugin in bundling.mjs): the same segments, with no Intl.Segmenter made until a string needs one
// (why: createGraphemeSegmenter in string-width-core.mjs). The table is string-width-fast.mjs's.
import { SIMPLE_WIDTH_RUNS } from 'string-width-table';
import { createGraphemeSegmenter } from './string-width-core.mjs';

/** `new Intl.Segmenter(locales, options)` for graphemes, made on first need. */
export function graphemeSegmenter(locales, options) {
  if (options !== undefined && options.granularity !== undefined && options.granularity !== 'grapheme') return new Intl.Segmenter(locales, options);
  return createGraphemeSegmenter(SIMPLE_WIDTH_RUNS, () => new Intl.Segmenter(locales, options));
}
