import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ByokCreateSchema,
  EffectiveSecretSchema,
  LIMITS,
  VaultSecretCopySchema,
  VaultSecretWriteSchema,
  checkByokKey,
  checkSecretName,
  checkSecretValue,
  contextSize,
  normaliseHost,
  perMillion,
  validateHosts,
} from '../../../src/contract/index.js';

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);
const hostname = fc.array(label, { minLength: 1, maxLength: 5 }).map((ls) => ls.join('.')).filter((h) => h.length <= 253);

describe('secret names', () => {
  it.each([
    ['a', true],
    ['github_token', true],
    ['aws2_secret_key', true],
    ['x'.repeat(255), true],
    ['x'.repeat(256), false],
    ['', false],
    ['_token', false],
    ['token_', false],
    ['two__underscores', false],
    ['1password', false],
    ['Upper', false],
    ['with-hyphen', false],
    ['with space', false],
  ])('%j valid: %s', (name, ok) => {
    expect(checkSecretName(name) === null).toBe(ok);
  });

  it('property: a valid name never has a leading, trailing or double underscore, or anything but [a-z0-9_]', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab_9Z-.'.split('')), maxLength: 12 }), (name) => {
        const ok = checkSecretName(name) === null;
        const expected = /^[a-z]/.test(name) && /^[a-z0-9_]+$/.test(name) && !name.endsWith('_') && !name.includes('__');
        expect(ok).toBe(expected);
      }),
    );
  });
});

describe('hosts', () => {
  it.each([
    ['API.Example.com.', 'api.example.com'],
    ['  github.com ', 'github.com'],
    ['localhost', 'localhost'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('normalises %j to %j', (input, host) => {
    expect(normaliseHost(input)).toEqual({ host });
  });

  it.each([
    ['', /empty/],
    ['https://api.example.com', /scheme/],
    ['api.example.com:443', /port/],
    ['api.example.com/v1', /path/],
    ['*.example.com', /wildcard/],
    ['user@example.com', /user information/],
    ['a..b', /empty label/],
    ['-a.com', /letters, digits and inner hyphens/],
    ['a_b.com', /letters, digits and inner hyphens/],
    [`${'a'.repeat(64)}.com`, /at most 63/],
    [`${'a.'.repeat(127)}com`, /at most 253/],
    ['[::1]', /port/],
    ['.', /not a hostname/],
  ])('refuses %j', (input, why) => {
    const r = normaliseHost(input);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toMatch(why);
  });

  it('collapses duplicates after normalisation and needs 1 to 100', () => {
    expect(validateHosts(['A.com', 'a.com.', 'b.com'])).toEqual({ hosts: ['a.com', 'b.com'] });
    expect(validateHosts([])).toHaveProperty('error');
    const many = Array.from({ length: LIMITS.secretHosts.max + 1 }, (_, i) => `h${i}.example.com`);
    expect((validateHosts(many) as { error: string }).error).toMatch(/at most 100/);
    expect(validateHosts(many.slice(0, 100))).toHaveProperty('hosts');
    // Counted as given: 100 hosts and a duplicate of one are 101.
    expect((validateHosts([...many.slice(0, 100), 'H0.example.com.']) as { error: string }).error).toMatch(/at most 100/);
  });

  it('property: any valid hostname, in any case and with a trailing dot, normalises to its lower-case form', () => {
    fc.assert(
      fc.property(hostname, fc.boolean(), fc.boolean(), (h, upper, dot) => {
        const input = `${upper ? h.toUpperCase() : h}${dot ? '.' : ''}`;
        expect(normaliseHost(input)).toEqual({ host: h });
      }),
    );
  });

  it('property: a scheme, a port, a path or a wildcard is always refused', () => {
    fc.assert(
      fc.property(
        hostname,
        fc.constantFrom((h: string) => `https://${h}`, (h: string) => `${h}:8080`, (h: string) => `${h}/x`, (h: string) => `*.${h}`),
        (h, dress) => {
          expect(normaliseHost(dress(h))).toHaveProperty('error');
        },
      ),
    );
  });
});

describe('vault bodies', () => {
  it('a write needs a value of 1 to 65536 characters and at least one host; unknown fields are refused', () => {
    expect(VaultSecretWriteSchema.safeParse({ value: 'v', hosts: ['a.com'] }).success).toBe(true);
    expect(VaultSecretWriteSchema.safeParse({ value: '', hosts: ['a.com'] }).success).toBe(false);
    expect(VaultSecretWriteSchema.safeParse({ value: 'v'.repeat(65_537), hosts: ['a.com'] }).success).toBe(false);
    expect(VaultSecretWriteSchema.safeParse({ value: 'v', hosts: [] }).success).toBe(false);
    expect(VaultSecretWriteSchema.safeParse({ value: 'v', hosts: ['a.com'], extra: 1 }).success).toBe(false);
  });
  it("an effective secret's scope is an open enum: one the notes do not name is read, not refused", () => {
    const row = { name: 'org_token', hosts: null, fingerprint: null, created_at: 't' };
    expect(EffectiveSecretSchema.safeParse({ ...row, scope: 'organization' }).success).toBe(true);
    expect(EffectiveSecretSchema.safeParse({ ...row, scope: 'intern' }).success).toBe(true);
  });
  it('a copy names 1 to 100 unique valid names', () => {
    expect(VaultSecretCopySchema.safeParse({ names: ['a', 'b'] }).success).toBe(true);
    expect(VaultSecretCopySchema.safeParse({ names: [] }).success).toBe(false);
    expect(VaultSecretCopySchema.safeParse({ names: ['a', 'a'] }).success).toBe(false);
    expect(VaultSecretCopySchema.safeParse({ names: ['Bad'] }).success).toBe(false);
  });
});

describe('perMillion', () => {
  it.each([
    ['0', 'free'],
    ['0.000003', '$3.00'],
    ['0.00000015', '$0.150'],
    ['0.00015', '$150'],
    ['nope', '?'],
  ])('%s per token is %s per million', (price, shown) => {
    expect(perMillion(price)).toBe(shown);
  });
});

describe('contextSize', () => {
  it.each([
    [512, '512'],
    [8192, '8k'],
    [131072, '131k'],
    [999_499, '999k'],
    [999_999, '1M'],
    [1_000_000, '1M'],
    [1_048_576, '1.05M'],
    [2_000_000, '2M'],
  ])('%i tokens read %s', (tokens, shown) => {
    expect(contextSize(tokens)).toBe(shown);
  });
});

describe('a secret\'s characters (vault values and BYOK keys alike)', () => {
  it('keeps tabs and line breaks (a provider\'s JSON key) and refuses NUL, ESC and the other C0 controls, naming the code, not the value', () => {
    const json = '{\r\n\t"type": "service_account",\n\t"private_key": "-----BEGIN PRIVATE KEY-----\\nabc\\n"\n}\n';
    expect(checkSecretValue(json)).toBeNull();
    expect(checkByokKey(json)).toBeNull();
    expect(checkSecretValue('hunter\x002')).toBe('must not hold control characters other than tabs and line breaks (U+0000 at character 7)');
    expect(checkByokKey('sk-\x1b[Dabc')).toMatch(/U\+001B at character 4/);
    expect(checkByokKey('sk-\x1b[Dabc')).not.toMatch(/sk-/);
    expect(checkByokKey('')).toBe('must not be empty');
    // The clients refuse them; the sandbox, as the service, takes what the spec takes (1 character or more).
    expect(VaultSecretWriteSchema.safeParse({ value: 'a\x07b', hosts: ['example.com'] }).success).toBe(true);
    expect(VaultSecretWriteSchema.safeParse({ value: '', hosts: ['example.com'] }).success).toBe(false);
    expect(ByokCreateSchema.safeParse({ provider: 'openai', key: 'sk-\x00' }).success).toBe(true);
    expect(ByokCreateSchema.safeParse({ provider: 'openai', key: '' }).success).toBe(false);
    expect(ByokCreateSchema.safeParse({ provider: 'openai', key: json }).success).toBe(true);
  });
});
