/** createInternWithModel: the service takes no model on create, so it is set between the create and the provision. */
import { describe, expect, it } from 'vitest';
import { createInternWithModel } from '../../../src/client/create.js';
import type { Intern, InternCreate, InternUpdate } from '../../../src/contract/intern.js';

function fakeApi(fail?: 'update' | 'provision') {
  const calls: [string, unknown][] = [];
  const made = { id: 'i-1', name: 'x', model: null } as unknown as Intern;
  return {
    calls,
    api: {
      createIntern: async (body: InternCreate) => (calls.push(['create', body]), { ...made }),
      updateIntern: async (id: string, patch: InternUpdate) => {
        calls.push(['update', patch]);
        if (fail === 'update') throw new Error('refused');
        return { ...made, ...patch } as Intern;
      },
      provisionIntern: async (id: string) => {
        calls.push(['provision', id]);
        if (fail === 'provision') throw new Error('busy');
      },
    },
  };
}

describe('createInternWithModel', () => {
  it('without a model, is one create with the body as given', async () => {
    const f = fakeApi();
    const out = await createInternWithModel(f.api, { name: 'x', provision: true }, null);
    expect(f.calls).toEqual([['create', { name: 'x', provision: true }]]);
    expect(out.failed).toBeUndefined();
  });

  it('with a model: created unprovisioned, the model set, then provisioned when asked', async () => {
    const f = fakeApi();
    const out = await createInternWithModel(f.api, { name: 'x', provision: true }, 'openai/gpt-4.1');
    expect(f.calls).toEqual([['create', { name: 'x', provision: false }], ['update', { model: 'openai/gpt-4.1' }], ['provision', 'i-1']]);
    expect(out.intern.model).toBe('openai/gpt-4.1');
    const g = fakeApi();
    await createInternWithModel(g.api, { name: 'x', provision: false }, 'openai/gpt-4.1');
    expect(g.calls.map(([c]) => c)).toEqual(['create', 'update']);
  });

  it('a step that fails after the create is reported with the intern, and nothing after it runs', async () => {
    const f = fakeApi('update');
    const out = await createInternWithModel(f.api, { name: 'x', provision: true }, 'm/x');
    expect(out.failed?.step).toBe('model');
    expect(out.intern.id).toBe('i-1');
    expect(f.calls.map(([c]) => c)).toEqual(['create', 'update']);
    const g = fakeApi('provision');
    expect((await createInternWithModel(g.api, { name: 'x', provision: true }, 'm/x')).failed?.step).toBe('provision');
  });
});
