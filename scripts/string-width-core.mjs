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

/** The runs as a table: each BMP code unit's width, NOT_SIMPLE where the table does not answer. */
export function widthTable(runs) {
  const table = new Uint8Array(0x10000).fill(NOT_SIMPLE);
  for (let i = 0; i < runs.length; i += 2) table.fill(runs[i + 1], runs[i], i + 2 < runs.length ? runs[i + 2] : 0x10000);
  return table;
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
    table ??= widthTable(runs);
    // ESC and CSI are not in the table, so what is left after one stripping is measured here only
    // when it holds no escape character; else string-width itself measures the original.
    const text = input.includes('\u001B') || input.includes('\u009B') ? stripAnsi(input) : input;
    const width = fast(text);
    return width >= 0 ? width : slow(input, options);
  };
}

/**
 * What `new Intl.Segmenter(locales, options)` (graphemes) gives, without making one until a string
 * needs it: the first Intl.Segmenter of a process loads ICU's break rules, about 15 ms on a quiet
 * machine and several times that on a busy one, and Ink's tokenizers and wrap-ansi's string-width
 * each made one as they loaded, before the TUI's first frame. A string of printable ASCII, C0
 * controls but CR (which joins a following LF), and the table's simple characters is one grapheme
 * per code unit: a simple character breaks from whatever is next to it (simpleWidthRuns tests it
 * between two letters and beside itself; ASCII letters and controls join nothing under the
 * grapheme rules). Such a string is segmented here, as Intl would segment it; any other goes to
 * `makeReal()`'s segmenter, made on that first need.
 */
export function createGraphemeSegmenter(runs, makeReal) {
  let table;
  let real;
  const simple = (text) => {
    table ??= widthTable(runs);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80 ? c === 0x0d : table[c] === NOT_SIMPLE) return false;
    }
    return true;
  };
  return {
    segment(input) {
      const text = String(input);
      return simple(text) ? new SimpleSegments(text) : (real ??= makeReal()).segment(text);
    },
  };
}

/** Intl's Segments for a string of one grapheme per code unit: iterable, and `containing(index)`. */
class SimpleSegments {
  constructor(input) {
    this.input = input;
  }

  containing(index) {
    const i = Math.trunc(Number(index ?? 0)) || 0;
    return i >= 0 && i < this.input.length ? { segment: this.input[i], index: i, input: this.input } : undefined;
  }

  *[Symbol.iterator]() {
    const input = this.input;
    for (let i = 0; i < input.length; i++) yield { segment: input[i], index: i, input };
  }
}
