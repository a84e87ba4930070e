// The fast path of the bundle's string-width (see string-width-fast.mjs): a string made only of
// printable ASCII and "simple" BMP characters is measured from a table; anything else goes to the
// real string-width. Pure, so the unit test can check it against the real one.

/** Marks a character the table does not answer for. */
export const NOT_SIMPLE = 255;

/**
 * The table, as runs: [first code unit, value, first code unit, value, ...], each value holding
 * until the next run. Built at build time from the real string-width and Intl.Segmenter (below).
 */
export function simpleWidthRuns(realWidth) {
  const segmenter = new Intl.Segmenter();
  const graphemes = (s) => {
    let n = 0;
    for (const _ of segmenter.segment(s)) n++;
    return n;
  };
  // Hangul jamo and syllables join one another (L+V, LV+T, ...): the tests below catch the jamo, and
  // the syllables are kept on the real path too, as a precaution, since they join with the jamo.
  const hangul = (c) => (c >= 0x1100 && c <= 0x11ff) || (c >= 0xa960 && c <= 0xa97f) || (c >= 0xac00 && c <= 0xd7ff);
  const runs = [];
  let previous = -1;
  for (let c = 0; c < 0x10000; c++) {
    let value = NOT_SIMPLE;
    // Simple: outside ASCII, C1 controls (0x9B starts an escape sequence), surrogates and Hangul,
    // and its own grapheme whatever is around it: it neither joins the character before (an
    // extender, a joiner, a spacing mark) nor the one after (a prepended mark), nor itself. A
    // string of such characters is then one grapheme per character, and string-width, which sums
    // its graphemes' widths, gives the sum of theirs.
    if (c >= 0xa0 && !(c >= 0xd800 && c <= 0xdfff) && !hangul(c)) {
      const ch = String.fromCharCode(c);
      if (graphemes(`a${ch}a`) === 3 && graphemes(ch + ch) === 2) {
        const w = realWidth(ch);
        if (w >= 0 && w <= 2) value = w;
      }
    }
    if (value !== previous) runs.push(c, value);
    previous = value;
  }
  return runs;
}

/**
 * string-width's signature: the table's answer where it has one, else `loadReal()`'s. Escape
 * sequences are stripped once with `stripAnsi` first, as string-width does (Ink measures styled text).
 */
export function createStringWidth(runs, loadReal, stripAnsi) {
  let table;
  let real;
  const slow = (input, options) => (real ??= loadReal())(input, options);
  // The width from the table, or -1 when a character is not in it.
  const fast = (text) => {
    let width = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c <= 0x7e) {
        width++;
        continue;
      }
      const w = table[c];
      if (w === NOT_SIMPLE) return -1;
      width += w;
    }
    return width;
  };
  return function stringWidth(input, options) {
    if (typeof input !== 'string' || input.length === 0) return 0;
    if (options !== undefined && (options.ambiguousIsNarrow === false || options.countAnsiEscapeCodes === true)) return slow(input, options);
    if (table === undefined) {
      table = new Uint8Array(0x10000).fill(NOT_SIMPLE);
      for (let i = 0; i < runs.length; i += 2) table.fill(runs[i + 1], runs[i], i + 2 < runs.length ? runs[i + 2] : 0x10000);
    }
    // ESC and CSI are not in the table, so what is left after one stripping is measured here only
    // when it holds no escape character; else string-width itself measures the original.
    const text = input.includes('\u001B') || input.includes('\u009B') ? stripAnsi(input) : input;
    const width = fast(text);
    return width >= 0 ? width : slow(input, options);
  };
}
