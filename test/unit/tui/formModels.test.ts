/** The two form models, without React: what each form checks and what it sends. */
import { describe, expect, it } from 'vitest';
import { parseByokList } from '../../../src/contract/byok.js';
import { createBody, emptyByokForm, formOf, updateBody, validateByok } from '../../../src/tui/screens/byokFormModel.js';
import { nameErrorOf, patchOf, savedNote, validateSettings, valuesOf } from '../../../src/tui/screens/settingsFormModel.js';
import { credential, intern } from '../../component/fakeApi.js';

describe('settings form model', () => {
  const runner = intern({ id: 'i1', name: 'runner', description: 'Keeps CI green.', model: null, instructions: 'Be brief.\nAlways.' });

  it('starts from the intern, with empty strings for nulls and server strings sanitised', () => {
    expect(valuesOf(runner)).toEqual({ name: 'runner', description: 'Keeps CI green.', model: '', instructions: 'Be brief.\nAlways.' });
    expect(valuesOf({ ...runner, description: 'a\x1b[31mred' }).description).toBe('ared');
  });

  it('sends only what changed, and null for an emptied nullable field', () => {
    const o = valuesOf(runner);
    expect(patchOf(o, o)).toEqual({});
    expect(patchOf(o, { ...o, name: 'runner-2', description: '' })).toEqual({ name: 'runner-2', description: null });
    expect(patchOf(o, { ...o, model: 'anthropic/claude-sonnet-4' })).toEqual({ model: 'anthropic/claude-sonnet-4' });
  });

  it('marks a bad name, a bad model and nothing on good values', () => {
    const o = valuesOf(runner);
    expect(validateSettings(o)).toEqual({});
    const e = validateSettings({ ...o, name: 'Runner X', model: 'no slash' });
    expect(Object.keys(e).sort()).toEqual(['model', 'name']);
    expect(validateSettings({ ...o, name: 'x'.repeat(18) }).name).toBeTruthy();
  });

  it('marks the name as taken only while it is still the refused one', () => {
    expect(nameErrorOf({}, 'broken', 'broken')).toMatch(/already used/);
    expect(nameErrorOf({}, 'broken-2', 'broken')).toBeNull();
    // Names are unique per creator: another user's intern clashes with that user's interns.
    expect(nameErrorOf({}, 'broken', 'broken')).toBe('already used by another of your interns here');
    expect(nameErrorOf({}, 'broken', 'broken', false)).toBe("already used by another intern of this intern's creator here");
    expect(nameErrorOf({ name: 'too short' }, 'b', 'b')).toBe('too short');
  });

  it('says when a model change waits for the next provision', () => {
    expect(savedNote({ name: 'x' })).toBe('saved');
    expect(savedNote({ model: null })).toMatch(/next provision \(p\)/);
    expect(savedNote({ model: null }, 'stopped')).toMatch(/next provision \(p\)/);
    // A running intern is provisioned again only once suspended: p alone would be refused.
    expect(savedNote({ model: 'openai/gpt-5' }, 'running')).toBe('saved · The model applies once provisioned again: suspend (s), provision (p)');
    // Whole in the footer at 80 columns.
    expect(savedNote({ model: 'openai/gpt-5' }, 'running').length).toBeLessThanOrEqual(78);
  });
});

describe('BYOK form model', () => {
  it('splits lists on commas, spaces and newlines; empty is no restriction', () => {
    expect(parseByokList(' a, b\nc  ')).toEqual(['a', 'b', 'c']);
    expect(parseByokList(' , ')).toBeNull();
  });

  it('requires a provider and a key on create, and the key only when rotating on edit', () => {
    const e = validateByok(emptyByokForm(), { create: true, rotating: false });
    expect(e.provider).toBeTruthy();
    expect(e.key).toBeTruthy();
    const edit = formOf(credential({ id: 'c1', provider: 'openai' }));
    expect(validateByok(edit, { create: false, rotating: false })).toEqual({});
    expect(validateByok(edit, { create: false, rotating: true }).key).toBeTruthy();
    // A key with a control character in it (ESC from a terminal's arrow key) is marked by the contract's rule.
    expect(validateByok({ ...edit, key: 'sk-ab\x1b[Dc' }, { create: false, rotating: true }).key).toMatch(/control characters/);
  });

  it('does not check again a region that came from the key, while the key is not being changed', () => {
    // openai's `us` is derived from a JSON key; a plain edit does not know the key, and must still save.
    const edit = formOf(credential({ id: 'c1', provider: 'openai', declared_region: 'us' }));
    expect(validateByok(edit, { create: false, rotating: false, stored: 'us' })).toEqual({});
    expect(validateByok({ ...edit, name: 'renamed' }, { create: false, rotating: false, stored: 'us' })).toEqual({});
    // Choosing the region anew is checked, and so is a rotation (the new key decides).
    expect(validateByok({ ...edit, declared_region: 'europe' }, { create: false, rotating: false, stored: 'us' }).declared_region).toBeTruthy();
    expect(validateByok({ ...edit, key: 'sk-plain' }, { create: false, rotating: true, stored: 'us' })).not.toEqual({});
  });

  it('marks a bad hash and refuses byok-only together with fallback', () => {
    const v = { ...emptyByokForm(), provider: 'openai', key: 'sk-x', allowed_api_key_hashes: 'nothex' };
    expect(validateByok(v, { create: true, rotating: false }).allowed_api_key_hashes).toMatch(/nothex/);
    // The CLI's flags say the same (contract/byok.ts, checkByokList).
    const models = { ...emptyByokForm(), provider: 'openai', key: 'sk-x', allowed_models: 'a/b, bad model, worse one' };
    expect(validateByok(models, { create: true, rotating: false }).allowed_models).toMatch(/^"bad model" \(and 1 more\) must look like author\/slug/);
    const flags = { ...emptyByokForm(), provider: 'openai', key: 'sk-x', is_byok_only: true, is_fallback: true };
    expect(validateByok(flags, { create: true, rotating: false }).is_byok_only).toBeTruthy();
  });

  it('creates with only what was set, and updates with only what changed', () => {
    const v = { ...emptyByokForm(), provider: ' openai ', key: 'sk-x', allowed_models: 'a/b, c/d', declared_zdr: 'true' as const, disabled: true };
    expect(createBody(v)).toEqual({ provider: 'openai', key: 'sk-x', allowed_models: ['a/b', 'c/d'], declared_zdr: true, disabled: true });
    const o = formOf(credential({ id: 'c1', provider: 'openai', name: 'main', allowed_models: ['a/b'] }));
    expect(updateBody(o, o, false)).toEqual({});
    expect(updateBody(o, { ...o, name: '', allowed_models: '' }, false)).toEqual({ name: null, allowed_models: null });
    expect(updateBody(o, { ...o, key: 'sk-new' }, true)).toEqual({ key: 'sk-new' });
  });
});
