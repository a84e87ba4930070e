/**
 * Defect 7 of issue 13: a BYOK label never reveals more than a few characters
 * of the key, whatever its length (`PROBE7-` used to give `PROBE7-...`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_LABEL, maskKey } from '../../../src/contract/byok.js';
import { labelFor } from '../../../src/sandbox/routes/byok.js';

const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'.split(''));
const keyOfLength = (n: number) => fc.array(keyChar, { minLength: n, maxLength: n }).map((a) => a.join(''));
/** A key of 1 to 64 characters, often with a provider-looking prefix. */
const anyKey = fc.oneof(
  fc.integer({ min: 1, max: 64 }).chain(keyOfLength),
  fc.tuple(fc.stringMatching(/^[a-zA-Z0-9]{1,8}-$/), fc.integer({ min: 0, max: 56 }).chain(keyOfLength)).map(([p, r]) => p + r),
);

/** The characters of `key` the label shows: the label without the ellipsis. */
function revealed(label: string): string {
  expect(label).toMatch(/^([A-Za-z]{1,3}-)?\.\.\.(.{4})?$/);
  return label.replace('...', '');
}

describe('key labels (defect 7)', () => {
  it('reveal nothing of a key shorter than the minimum, and at most a public prefix plus 4 characters of a longer one', () => {
    fc.assert(
      fc.property(anyKey, (key) => {
        const label = maskKey(key);
        const shown = revealed(label);
        const [, prefix = '', tail = ''] = /^([A-Za-z]{1,3}-)?\.\.\.(.*)$/.exec(label)!;
        if (key.length < KEY_LABEL.minLengthForTail) expect(label).toBe('...');
        expect(tail.length).toBeLessThanOrEqual(KEY_LABEL.tailChars);
        // The prefix is a provider's public marker (`sk-`), shown only on keys long enough to keep most hidden.
        if (prefix) expect(key.length).toBeGreaterThanOrEqual(KEY_LABEL.minLengthForPrefix);
        expect(shown.length * 2).toBeLessThanOrEqual(key.length);
        if (tail) expect(key.endsWith(tail)).toBe(true);
        if (prefix) expect(key.startsWith(prefix)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('holds for every length 1..64, also inside a JSON key carrying its region', () => {
    for (let n = 1; n <= 64; n++) {
      for (const key of [`PROBE7-${'x'.repeat(Math.max(0, n - 7))}`.slice(0, n), 'k'.repeat(n), `sk-${'a'.repeat(n)}`.slice(0, n)]) {
        for (const label of [maskKey(key), labelFor(JSON.stringify({ api_key: key, region: 'us' }))]) {
          const shown = revealed(label);
          expect(shown.length * 2, `${key} -> ${label}`).toBeLessThanOrEqual(key.length);
          if (key.length < KEY_LABEL.minLengthForTail) expect(label).toBe('...');
        }
      }
    }
  });

  it('the probe of issue 13: PROBE7- is not shown', () => {
    expect(maskKey('PROBE7-')).toBe('...');
    expect(labelFor('PROBE7-')).toBe('...');
  });
});
