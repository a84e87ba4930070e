// What the bundle gives Ink for `@alcalzone/ansi-tokenize` (see ansiTokenizeFast in bundling.mjs): the
// package itself, with one function answered faster. Ink's Output turns every row of every frame
// back into a string with styledCharsToString, which works out the SGR change between each two
// neighbouring characters with diffAnsiCodes: three Sets and four arrays per character, even when
// both have the same style, as nearly all neighbours do. About 35 ms of the TUI's start went there
// (and much of its garbage). Here neighbours with the same codes skip the diff, whose answer for
// them is always empty; every other pair still goes through the package's own diff, so the output
// is the same string (test/unit/build/ansi-tokenize.test.ts checks it against the package).
import { ansiCodesToString, diffAnsiCodes } from '@alcalzone/ansi-tokenize';

export * from '@alcalzone/ansi-tokenize';

/** Whether two reduced style lists are the same codes in the same order (then their diff is empty). */
function sameCodes(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode) return false;
  }
  return true;
}

export function styledCharsToString(chars) {
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (i === 0) {
      if (char.styles.length > 0) out += ansiCodesToString(char.styles);
    } else {
      const before = chars[i - 1].styles;
      if (!sameCodes(before, char.styles)) out += ansiCodesToString(diffAnsiCodes(before, char.styles));
    }
    out += char.value;
    // Reset what is still on at the end of the string.
    if (i === chars.length - 1 && char.styles.length > 0) out += ansiCodesToString(diffAnsiCodes(char.styles, []));
  }
  return out;
}
