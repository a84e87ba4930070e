/**
 * TextField's grapheme steps segment only the text between the hard boundaries around the cursor;
 * they must land where segmenting the whole text would, whatever surrounds them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphemeStart, nextGrapheme, prevGrapheme } from '../../../src/tui/components/TextField.js';

/** Pieces that join, or do not, across their neighbours under UAX #29. */
const PIECES = [
  'a', 'b', ' ', '#', '1', '\n', '\r', '\r\n', 'é', 'e\u0301', '\u0301', '\u200d', '👩', '💻', '👩‍💻', '🇫', '🇷', '🇫🇷', '🏽', '️',
  '©', '\u0600', '\u0915', '\u094d', '\u0937', 'ᄀ', 'ᅡ', 'ᆨ', '한', '日', '\u200b', 'ก', '\u0e33', '\ue000',
];

function boundaries(text: string): number[] {
  const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return [...seg.segment(text)].map((s) => s.index).concat(text.length);
}

describe('grapheme steps', () => {
  it('land on the boundaries of the whole text, from any code unit', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        const bounds = boundaries(text);
        for (let i = 0; i <= text.length; i++) {
          const before = bounds.filter((b) => b < i).at(-1) ?? 0;
          const after = bounds.find((b) => b > i) ?? text.length;
          const start = bounds.filter((b) => b <= i).at(-1)!;
          expect(prevGrapheme(text, i), `prev at ${i} of ${JSON.stringify(text)}`).toBe(before);
          expect(nextGrapheme(text, i), `next at ${i} of ${JSON.stringify(text)}`).toBe(after);
          expect(graphemeStart(text, i), `start at ${i} of ${JSON.stringify(text)}`).toBe(start);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('take a ZWJ emoji, a flag and a letter with its accent as one', () => {
    const text = 'x👩‍💻🇫🇷e\u0301';
    expect(prevGrapheme(text, text.length)).toBe(text.length - 2);
    expect(prevGrapheme(text, text.length - 2)).toBe(text.length - 6);
    expect(prevGrapheme(text, text.length - 6)).toBe(1);
    expect(nextGrapheme(text, 1)).toBe(6);
    // A run of flags pairs from its start, however long the run.
    const flags = 'ab' + '🇫🇷'.repeat(50);
    expect(prevGrapheme(flags, flags.length)).toBe(flags.length - 4);
    expect(nextGrapheme(flags, 2 + 4 * 25)).toBe(2 + 4 * 26);
  });
});
