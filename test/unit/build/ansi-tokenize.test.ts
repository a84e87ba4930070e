// The bundle's @alcalzone/ansi-tokenize (scripts/ansi-tokenize-fast.mjs): Ink's rows back into
// strings, neighbours with the same style without a diff. Whatever the styles, the string must be
// the package's own.
import * as real from '@alcalzone/ansi-tokenize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as fast from '../../../scripts/ansi-tokenize-fast.mjs';

const styled = (text: string) => real.styledCharsFromTokens(real.tokenize(text));

// SGR sequences Ink and chalk write (and a few they do not), OSC 8 links, and plain characters.
const sgr = fc.constantFrom(
  ...['0', '1', '2', '3', '4', '7', '9', '22', '23', '24', '27', '29', '31', '32', '36', '39', '41', '49', '90', '97', '38;5;196', '48;5;21', '38;2;10;20;30', '48;2;200;100;0'].map((c) => `\u001b[${c}m`),
);
const link = fc.constantFrom('\u001b]8;;https://example.com\u0007', '\u001b]8;;\u0007');
const char = fc.constantFrom('a', 'b', ' ', '─', '●', '漢', '›', 'é');
const text = fc.array(fc.oneof({ arbitrary: char, weight: 6 }, { arbitrary: sgr, weight: 3 }, { arbitrary: link, weight: 1 }), { maxLength: 60 }).map((parts) => parts.join(''));

describe("the bundle's styledCharsToString", () => {
  it('is the package itself but for that one function', () => {
    expect(fast.styledCharsFromTokens).toBe(real.styledCharsFromTokens);
    expect(fast.tokenize).toBe(real.tokenize);
    expect(fast.diffAnsiCodes).toBe(real.diffAnsiCodes);
    expect(fast.styledCharsToString).not.toBe(real.styledCharsToString);
  });

  it('answers what the package answers for the TUI own rows', () => {
    for (const row of [
      '',
      'plain text',
      '\u001b[1m\u001b[36mintern-tui\u001b[39m\u001b[22m › Interns',
      '\u001b[7m ›★ runner \u001b[27m\u001b[32m● running\u001b[39m',
      '\u001b[2m\u001b[1mbold and dim\u001b[22m then \u001b[1mbold\u001b[22m',
      '\u001b]8;;https://openrouter.ai\u0007link\u001b]8;;\u0007 after',
      '\u001b[38;2;1;2;3mtrue\u001b[48;5;200mcolour\u001b[0m reset',
    ]) {
      expect(fast.styledCharsToString(styled(row)), row).toBe(real.styledCharsToString(styled(row)));
    }
  });

  it('answers what the package answers for random rows, and for rows made of several writes', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        // Ink puts characters from several writes side by side in one row: their style lists come from different tokenizations.
        const chars = texts.flatMap(styled);
        expect(fast.styledCharsToString(chars)).toBe(real.styledCharsToString(chars));
      }),
      { numRuns: 2000 },
    );
  });
});
