// The bundle's grapheme segmenter (scripts/grapheme-segmenter.mjs, given to Ink's tokenizers and
// wrap-ansi's string-width in place of the Intl.Segmenter each made as it loaded): whatever the
// string, the segments must be Intl's own, and for the TUI's own text no Intl.Segmenter is made.
import stringWidth from 'string-width';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createGraphemeSegmenter, simpleWidthRuns } from '../../../scripts/string-width-core.mjs';

const runs = simpleWidthRuns(stringWidth);
const intl = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const segments = (s: Iterable<{ segment: string; index: number; input: string }>) => [...s].map(({ segment, index, input }) => ({ segment, index, input }));

describe("the bundle's grapheme segmenter", () => {
  it('segments the TUI own rows without making an Intl.Segmenter', () => {
    const makeReal = vi.fn(() => new Intl.Segmenter());
    const fast = createGraphemeSegmenter(runs, makeReal);
    for (const row of ['', 'plain', '─'.repeat(100), '› Interns · signed in as sk-…', '● running  ○ stopped  ★ pinned', '⠙ Loading interns…', '漢字の名前', '\u001b[1m\u001b[36mintern-tui\u001b[39m\u001b[22m › Interns', '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007', 'a\tb\u0007c\u007f']) {
      expect(segments(fast.segment(row)), row).toEqual(segments(intl.segment(row)));
      for (let i = -1; i <= row.length; i++) expect(fast.segment(row).containing(i), `${row} at ${i}`).toEqual(intl.segment(row).containing(i));
    }
    expect(makeReal).not.toHaveBeenCalled();
  });

  it('gives anything else to a real Intl.Segmenter, made once on that first need', () => {
    const makeReal = vi.fn(() => new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
    const fast = createGraphemeSegmenter(runs, makeReal);
    for (const text of ['hi 👋🏽', 'e\u0301', 'a\r\nb', '\u1100\u1161', '👩‍💻 x', '\ud800', 'क्षि', '🇫🇷']) {
      expect(segments(fast.segment(text)), text).toEqual(segments(intl.segment(text)));
      expect(fast.segment(text).containing(1)).toEqual(intl.segment(text).containing(1));
    }
    expect(makeReal).toHaveBeenCalledTimes(1);
  });

  it("agrees with Intl on every BMP character between letters, beside itself, and in random strings", () => {
    const fast = createGraphemeSegmenter(runs, () => new Intl.Segmenter());
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [`a${ch}b`, ch + ch, `${ch}\u0301`, `\u0915\u094d${ch}`]) {
        const got = segments(fast.segment(text));
        const want = segments(intl.segment(text));
        if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `U+${c.toString(16)} in ${JSON.stringify(text)}`).toEqual(want);
      }
    }
    // Any mix of the TUI's characters, controls, escapes, marks, emoji and jamo.
    const part = fc.constantFrom('a', ' ', '─', '●', '漢', '›', 'é', 'e\u0301', '\u001b[1m', '\r', '\n', '\u200d', '👍', '\ufe0f', '\u1100', '\u1161', '\u0915', '\u094d', '\t', '\u00ad');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(segments(fast.segment(text))).toEqual(segments(intl.segment(text)));
      }),
      { numRuns: 2000 },
    );
  });
});
