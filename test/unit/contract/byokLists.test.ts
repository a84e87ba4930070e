import { describe, expect, it } from 'vitest';
import { checkByokList, parseByokList } from '../../../src/contract/byok.js';

const hash = 'a'.repeat(64);

describe('checkByokList', () => {
  it('passes no restriction and good items', () => {
    expect(checkByokList('allowed_models', null)).toBeNull();
    expect(checkByokList('allowed_models', parseByokList('openai/gpt-4o, anthropic/claude-sonnet-4:thinking'))).toBeNull();
    expect(checkByokList('allowed_api_key_hashes', [hash])).toBeNull();
    expect(checkByokList('allowed_user_ids', ['user_1', 'anything at all'])).toBeNull();
  });

  it('quotes the first bad item, says how many more, and the rule it breaks', () => {
    expect(checkByokList('allowed_models', ['a/b', 'bad model'])).toBe('"bad model" must look like author/slug (letters, digits and ~ . _ : @ + -), with an optional :variant');
    expect(checkByokList('allowed_api_key_hashes', ['x', hash, 'y', 'z'])).toBe('"x" (and 2 more) must be 64 lowercase hex characters (a SHA-256 digest)');
  });

  it('cuts a long bad item in its quote', () => {
    const long = `${'m'.repeat(60)} oops`;
    const said = checkByokList('allowed_models', [long])!;
    expect(said.startsWith(`"${'m'.repeat(39)}…"`)).toBe(true);
    expect(said).not.toContain('oops');
  });

  it('counts against the limit once every item is good', () => {
    expect(checkByokList('allowed_models', Array.from({ length: 100 }, (_, i) => `a/m${i}`))).toBeNull();
    expect(checkByokList('allowed_models', Array.from({ length: 101 }, (_, i) => `a/m${i}`))).toBe('at most 100 models, not 101');
    expect(checkByokList('allowed_api_key_hashes', Array.from({ length: 101 }, () => hash))).toBe('at most 100 hashes, not 101');
  });
});
