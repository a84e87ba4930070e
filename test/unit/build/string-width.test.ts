// The bundle's string-width (scripts/string-width-fast.mjs): a table built from string-width itself
// answers for simple text, the real one for everything else. Whatever the path, the width must be
// string-width's.
import fc from 'fast-check';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { createStringWidth, NOT_SIMPLE, simpleWidthRuns } from '../../../scripts/string-width-core.mjs';

const runs = simpleWidthRuns(stringWidth);
const loadReal = vi.fn(() => stringWidth);
const fast = createStringWidth(runs, loadReal, stripAnsi);

describe("the bundle's string-width", () => {
  it('measures the TUI own characters from its table, without loading string-width', () => {
    loadReal.mockClear();
    const fresh = createStringWidth(runs, loadReal, stripAnsi);
    for (const text of ['─'.repeat(100), '› Interns · signed in as sk-…', '● running  ○ stopped  ★ pinned', '⠙ Loading interns…', '漢字の名前', '\u001b[1m\u001b[36mintern-tui\u001b[39m\u001b[22m › Interns']) {
      expect(fresh(text), text).toBe(stringWidth(text));
    }
    expect(loadReal).not.toHaveBeenCalled();
    // A character outside the table goes to string-width (an emoji: width 2).
    expect(fresh('hi 👋')).toBe(stringWidth('hi 👋'));
    expect(loadReal).toHaveBeenCalledTimes(1);
  });

  it('the table covers most of the BMP, and marks surrogates, C1 controls and Hangul as not simple', () => {
    const table = new Uint8Array(0x10000).fill(NOT_SIMPLE);
    for (let i = 0; i < runs.length; i += 2) table.fill(runs[i + 1]!, runs[i]!, runs[i + 2] ?? 0x10000);
    expect(table.filter((v) => v !== NOT_SIMPLE).length).toBeGreaterThan(40_000);
    for (const c of [0x1b, 0x9b, 0xd800, 0xdfff, 0x1100, 0xac00, 0x200d, 0x0301, 0xfe0f]) expect(table[c], c.toString(16)).toBe(NOT_SIMPLE);
  });

  it('agrees with string-width on every BMP character alone', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (fast(ch) !== stringWidth(ch)) expect(fast(ch), `U+${c.toString(16)}`).toBe(stringWidth(ch));
    }
  });

  // Characters that make the segmentation or the width hard, beside simple ones.
  const pieces = [
    'a', ' ', 'Z', '─', '›', '·', '…', '●', 'é', 'ß', 'Ж', 'λ', 'א', 'ب', 'क', '漢', 'カ', 'ｶ', 'Ａ', '\u00ad',
    '\u0301', '\u200d', '\ufe0f', '\u20e3', '\u094d', '\u0e33', '\u1100', '\u1161', '\u11a8', '\uac00', '\u3099',
    '👋', '👋🏽', '👩‍💻', '🇫🇷', '🇫', '#', '1', '⌚', '▶', '◽', '☺', '\u0600', '\u0d4e', '\ud800', '\udc00',
    '\t', '\n', '\r', '\x7f', '\x85', '\x9b', '\x1b', '\x1b[31m', '\x1b[0m', '\x1b]8;;https://x.test\x07', '\x1b]8;;\x07', '\x9b1m',
  ];
  it('agrees with string-width on any mix of them', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(fast(text)).toBe(stringWidth(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('passes non-default options to string-width', () => {
    for (const text of ['±×÷ ─', '\x1b[31mred\x1b[0m']) {
      expect(fast(text, { ambiguousIsNarrow: false })).toBe(stringWidth(text, { ambiguousIsNarrow: false }));
      expect(fast(text, { countAnsiEscapeCodes: true })).toBe(stringWidth(text, { countAnsiEscapeCodes: true }));
    }
  });
});
