import { describe, expect, it } from 'vitest';
import {
  ByokCreateSchema,
  ByokCredentialSchema,
  ByokUpdateSchema,
  InternSchema,
  InternUpdateSchema,
  checkApiKeyHash,
  checkModel,
  checkName,
  connectionKind,
  describeIssues,
  fillPath,
  isRegionalHost,
} from '../../../src/contract/index.js';

const hex64 = 'a'.repeat(64);

describe('intern name', () => {
  it.each([
    ['a', false],
    ['ab', true],
    ['a'.repeat(17), true],
    ['a'.repeat(18), false],
    ['a--b', false],
    ['1abc', false],
    ['Abc', false],
    ['a-b', true],
    ['a-b-c9', true],
    ['-ab', false],
    ['ab-', false],
    ['a_b', false],
    ['ab c', false],
  ])('%j valid: %s', (name, ok) => {
    expect(checkName(name) === null).toBe(ok);
    expect(InternUpdateSchema.safeParse({ name }).success).toBe(ok);
  });
});

describe('model', () => {
  it.each([
    ['a/b', true],
    ['a/b:free', true],
    ['openai/gpt-4.1', true],
    ['x~y/a.b_c:d@e+f-g', true],
    ['a//b', false],
    ['a/b/c', false],
    ['/b', false],
    ['a/', false],
    ['ab', false],
    ['a b/c', false],
    ['a/b!', false],
    ['', false],
    [`a/${'b'.repeat(198)}`, true],
    [`a/${'b'.repeat(199)}`, false],
  ])('%j valid: %s', (model, ok) => {
    expect(checkModel(model) === null).toBe(ok);
    expect(InternUpdateSchema.safeParse({ model }).success).toBe(ok);
  });
  it('null restores the workspace default', () => {
    expect(InternUpdateSchema.safeParse({ model: null }).success).toBe(true);
  });
});

describe('update body', () => {
  it.each([
    [{ description: 'x'.repeat(2000) }, true],
    [{ description: 'x'.repeat(2001) }, false],
    [{ description: null }, true],
    [{ instructions: 'x'.repeat(100000) }, true],
    [{ instructions: 'x'.repeat(100001) }, false],
    [{ instructions: null }, true],
    [{}, true],
    [{ name: null }, false],
    [{ extra: 1 }, false],
    [{ name: 5 }, false],
  ])('%j → %s', (body, ok) => {
    expect(InternUpdateSchema.safeParse(body).success).toBe(ok);
  });
  it('names the field and the rule', () => {
    const r = InternUpdateSchema.safeParse({ name: 'Ab', bogus: true });
    expect(r.success).toBe(false);
    const text = describeIssues(r.error!);
    expect(text).toContain('name: must be lowercase');
    expect(text).toContain('bogus: unknown field');
  });
});

describe('BYOK bodies', () => {
  it.each([
    [{ key: 'k', provider: 'openai' }, true],
    [{ key: '', provider: 'openai' }, false],
    [{ provider: 'openai' }, false],
    [{ key: 'k', provider: 'openai', name: 'n'.repeat(255) }, true],
    [{ key: 'k', provider: 'openai', name: 'n'.repeat(256) }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: [] }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: [hex64] }, true],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: Array(100).fill(hex64) }, true],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: Array(101).fill(hex64) }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: ['A'.repeat(64)] }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: ['a'.repeat(63)] }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: ['a'.repeat(65)] }, false],
    [{ key: 'k', provider: 'openai', allowed_api_key_hashes: null }, true],
    [{ key: 'k', provider: 'openai', allowed_models: Array(100).fill('a/b') }, true],
    [{ key: 'k', provider: 'openai', allowed_models: Array(101).fill('a/b') }, false],
    [{ key: 'k', provider: 'openai', allowed_user_ids: Array(101).fill('u') }, false],
    [{ key: 'k', provider: 'openai', declared_region: 'mars' }, false],
    [{ key: 'k', provider: 'openai', declared_region: null }, true],
    [{ key: 'k', provider: 'openai', is_byok_only: true, is_fallback: true }, false],
    [{ key: 'k', provider: 'openai', is_byok_only: true }, true],
    [{ key: 'k', provider: 'openai', unknown: 1 }, false],
  ])('create %j → %s', (body, ok) => {
    expect(ByokCreateSchema.safeParse(body).success).toBe(ok);
  });
  it('update allows key rotation and rejects provider changes', () => {
    expect(ByokUpdateSchema.safeParse({ key: 'new' }).success).toBe(true);
    expect(ByokUpdateSchema.safeParse({ key: '' }).success).toBe(false);
    expect(ByokUpdateSchema.safeParse({ provider: 'x' }).success).toBe(false);
  });
  it('hash check answers a sentence', () => {
    expect(checkApiKeyHash(hex64)).toBeNull();
    expect(checkApiKeyHash('nope')).toMatch(/64 lowercase hex/);
  });
});

describe('response schemas', () => {
  const intern = {
    id: 'i', name: 'ab', description: null, instructions: null, model: null, status: 'some_new_status',
    last_failure_message: null, progress: null, hostname: null, vault_id: null, attached_vault_id: null,
    workspace_id: 'w', created_at: 't', updated_at: 't', icon_sha256: null,
  };
  it('tolerates unknown fields and unknown statuses; created_by_you is optional', () => {
    const r = InternSchema.safeParse({ ...intern, brand_new: 1 });
    expect(r.success).toBe(true);
  });
  it('names a missing field', () => {
    const { name: _n, ...rest } = intern;
    const r = InternSchema.safeParse(rest);
    expect(r.success).toBe(false);
    expect(describeIssues(r.error!)).toContain('name');
  });
  it('reads a nullable field the service left out as null, rather than failing the row (and the list it is in)', () => {
    const { description: _d, model: _m, progress: _p, icon_sha256: _i, hostname: _h, ...sparse } = intern;
    const r = InternSchema.parse(sparse);
    expect([r.description, r.model, r.progress, r.icon_sha256, r.hostname]).toEqual([null, null, null, null, null]);
    // A field that is not nullable is still needed.
    const { workspace_id: _w, ...noWorkspace } = intern;
    expect(InternSchema.safeParse(noWorkspace).success).toBe(false);
  });
  it('reads progress', () => {
    const r = InternSchema.parse({ ...intern, progress: { step_label: 'x', step_number: 1, total_steps: 3 } });
    expect(r.progress?.total_steps).toBe(3);
  });
  it('reads an older BYOK credential without the newer fields', () => {
    const r = ByokCredentialSchema.parse({
      id: 'c', workspace_id: null, provider: 'openai', label: 'sk-...abcd', allowed_api_key_hashes: null, allowed_models: null,
      allowed_user_ids: null, disabled: false, is_fallback: false, sort_order: 0, created_at: 't',
    });
    expect(r.is_byok_only).toBe(false);
    expect(r.declared_region).toBeNull();
  });
});

describe('helpers', () => {
  it('fills and encodes path parameters', () => {
    expect(fillPath('/interns/{internId}/icon', { internId: 'a/b c' })).toBe('/interns/a%2Fb%20c/icon');
    expect(() => fillPath('/interns/{internId}', {})).toThrow(/internId/);
    // A dot segment would be taken as a step in the path (DELETE /vault/secrets/.. is another route).
    for (const dots of ['.', '..']) expect(() => fillPath('/vault/secrets/{name}', { name: dots })).toThrow(/cannot be sent as name: a URL takes it as a step in the path/);
    expect(fillPath('/vault/secrets/{name}', { name: '...' })).toBe('/vault/secrets/...');
    expect(() => fillPath('/vault/secrets/{name}', { name: '' })).toThrow(/an empty name cannot be sent/);
  });
  it.each([
    ['eu.openrouter.ai', true],
    ['us.localhost:8080', true],
    ['openrouter.ai', false],
    ['europe.example.com', false],
    ['localhost', false],
  ])('regional host %s → %s', (host, ok) => expect(isRegionalHost(host)).toBe(ok));
  it.each([
    ['github', 'builtin'],
    ['google', 'builtin'],
    ['mcp:tools.example.com', 'custom'],
    ['linear', 'catalog'],
  ])('connection %s is %s', (key, kind) => expect(connectionKind(key)).toBe(kind));
});
