import { describe, expect, it } from 'vitest';
import { PROVIDERS, checkKnownProvider, describeRegionRule, findProvider, maskKey, regionRuleOf, resolveDeclaredRegion } from '../../../src/contract/index.js';
import { providerOf } from '../../../src/contract/providers.js';

describe('provider catalogue', () => {
  it('holds the 109 published slugs, each a valid slug', () => {
    expect(PROVIDERS).toHaveLength(109);
    expect(new Set(PROVIDERS.map((p) => p.slug)).size).toBe(109);
    expect(findProvider('amazon-bedrock')).toBeDefined();
    expect(findProvider('not-a-provider')).toBeUndefined();
    expect(checkKnownProvider('anthropic')).toBeNull();
    expect(checkKnownProvider('not-a-provider')).toContain('not a provider of the catalogue');
  });
  it('reads a typed provider as the slug it means: any case; with a prefix allowed, the one slug it starts', () => {
    expect(providerOf('OpenAI')).toBe('openai');
    expect(providerOf(' anthropic ')).toBe('anthropic');
    expect(providerOf('anth')).toBeNull();
    expect(providerOf('anth', true)).toBe('anthropic');
    // "am" starts amazon-bedrock, amazon-nova and ambient: no guess.
    expect(providerOf('am', true)).toBeNull();
    expect(providerOf('', true)).toBeNull();
    expect(providerOf('opnai', true)).toBeNull();
  });
  it('keeps region rules as data', () => {
    expect(regionRuleOf('openai').kind).toBe('from_key');
    expect(regionRuleOf('fireworks').kind).toBe('from_key');
    expect(regionRuleOf('azure')).toEqual({ kind: 'only', regions: ['europe', 'us'] });
    expect(regionRuleOf('anthropic').kind).toBe('global');
    expect(regionRuleOf('unknown-slug').kind).toBe('global');
    expect(describeRegionRule(regionRuleOf('azure'))).toContain('europe or us');
  });
});

describe('declared region', () => {
  const keyIn = (region: string) => JSON.stringify({ api_key: 'sk-abc', region });
  it.each([
    ['openai', undefined, keyIn('europe'), { region: 'europe' }],
    ['openai', 'europe', keyIn('europe'), { region: 'europe' }],
    ['openai', 'us', keyIn('europe'), 'error'],
    // Null declares no region, whatever the key carries (4.7: null clears it); left out, the key's region.
    ['openai', null, keyIn('us'), { region: null }],
    ['openai', 'us', 'sk-plain-key', 'error'],
    ['openai', 'global', 'sk-plain-key', { region: 'global' }],
    ['openai', undefined, 'sk-plain-key', { region: null }],
    ['fireworks', 'global', keyIn('global'), { region: 'global' }],
    ['openai', undefined, '{"api_key": ""}', 'error'],
    ['openai', undefined, '{not json', 'error'],
    ['azure', 'europe', 'k', { region: 'europe' }],
    ['azure', 'us', 'k', { region: 'us' }],
    ['azure', 'global', 'k', 'error'],
    ['azure', null, 'k', { region: null }],
    ['azure', undefined, 'k', { region: null }],
    ['anthropic', 'global', 'k', { region: 'global' }],
    ['anthropic', null, 'k', { region: null }],
    ['anthropic', undefined, 'k', { region: null }],
    ['anthropic', 'europe', 'k', 'error'],
    ['anthropic', 'us', 'k', 'error'],
    ['groq', 'us', 'k', 'error'],
  ] as const)('%s declared %j with key %j', (provider, declared, key, expected) => {
    const r = resolveDeclaredRegion(provider, declared, key);
    if (expected === 'error') expect(r).toHaveProperty('error');
    else expect(r).toEqual(expected);
  });
});

describe('a provider that accepts only us (kept as data)', () => {
  const usOnly = { kind: 'only', regions: ['us'] } as const;
  it.each([
    ['us', { region: 'us' }],
    [null, { region: null }],
    [undefined, { region: null }],
    ['europe', 'error'],
    ['global', 'error'],
  ] as const)('declared %j', (declared, expected) => {
    const r = resolveDeclaredRegion('some-provider', declared, 'k', usOnly);
    if (expected === 'error') expect(r).toHaveProperty('error');
    else expect(r).toEqual(expected);
  });
});

describe('maskKey', () => {
  it('shows at most a prefix and the last four characters', () => {
    expect(maskKey('sk-proj-abcdefghijklmnop')).toBe('sk-...mnop');
    expect(maskKey('short')).toBe('...');
    const secret = 'gsk_0123456789abcdef0123';
    expect(maskKey(secret)).not.toContain('456789');
  });
});
