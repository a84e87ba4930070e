/**
 * GET /models and GET /providers as the public OpenAPI document defines them: its global security (a
 * bearer key of any kind; no programme, no regional-host rule, which spec section 1 keeps to intern
 * and vault routes), and GET /models' paging and filters over the sandbox's own catalogue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { MODELS } from '../../src/sandbox/catalog/models.js';
import { clientAs, raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
});
afterAll(() => sb.close());

interface ModelPage {
  data: { id: string; supported_parameters: string[] }[];
  total_count: number;
  links: { next: string | null };
}
/** `role` is a manifest role, a literal key, or null for no Authorization header. */
const get = (path: string, role: string | null = 'api_key', headers: Record<string, string> = {}) =>
  raw(sb, 'GET', path, { token: role === null ? undefined : (sb.manifest.credentials[role] ?? role), headers });
const models = async (query: string) => {
  const res = await get(`/models${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.json as ModelPage;
};

describe('catalogue security', () => {
  it.each(['/models', '/providers'])('%s takes any known key, a management key included, and 401 without one', async (path) => {
    for (const role of ['api_key', 'management_key', 'management_key_no_default_workspace', 'org_key', 'intern_key', 'oauth_token', 'api_key_outside_programme']) {
      expect((await get(path, role)).status, role).toBe(200);
    }
    for (const role of [null, 'sk-or-v1-unknown']) {
      const res = await get(path, role);
      expect(res.status, String(role)).toBe(401);
      expect(InternErrorEnvelopeSchema.parse(res.json).error).toEqual({ code: 401, message: expect.any(String) });
    }
    expect((await get(path, 'api_key_lost_access')).status).toBe(403);
  });

  it.each(['/models', '/providers'])('%s is served on a regional hostname (the refusal is for intern and vault routes)', async (path) => {
    expect((await get(path, 'api_key', { host: sb.manifest.regional_host })).status).toBe(200);
    // ... which still holds on an intern route.
    expect((await get('/interns', 'api_key', { host: sb.manifest.regional_host })).status).toBe(403);
  });

  it("the project's client lists models and providers as before", async () => {
    const api = clientAs(sb, { api_key: 'api_key' });
    expect((await api.listModels()).length).toBe(MODELS.length);
    expect((await api.listProviders()).length).toBe(109);
  });
});

describe('GET /models paging', () => {
  it('returns the full list when neither offset nor limit is given', async () => {
    const all = await models('');
    expect(all.data).toHaveLength(MODELS.length);
    expect(all.total_count).toBe(MODELS.length);
    expect(all.links.next).toBeNull();
  });

  it('pages with offset and limit, with total_count and a links.next that leads on', async () => {
    const first = await models('?limit=5');
    expect(first.data.map((m) => m.id)).toEqual(MODELS.slice(0, 5).map((m) => m.id));
    expect(first.total_count).toBe(MODELS.length);
    expect(first.links.next).toBe('/api/v1/models?limit=5&offset=5');
    const second = await models(first.links.next!.replace('/api/v1/models', ''));
    expect(second.data.map((m) => m.id)).toEqual(MODELS.slice(5, 10).map((m) => m.id));
    const tail = await models(`?offset=${MODELS.length - 2}&limit=5`);
    expect(tail.data).toHaveLength(2);
    expect(tail.links.next).toBeNull();
    // offset alone pages with the default limit (500): the rest of the list.
    expect((await models('?offset=3')).data).toHaveLength(MODELS.length - 3);
    expect((await models('?limit=1000')).data).toHaveLength(MODELS.length);
    expect((await models(`?offset=${MODELS.length + 10}`)).data).toEqual([]);
  });

  it.each(['limit=0', 'limit=1001', 'limit=abc', 'limit=0x5', 'limit=5.0', 'offset=-1', 'offset=1e1', 'offset=', 'limit=1&limit=2'])('refuses %s with 400', async (query) => {
    const res = await get(`/models?${query}`);
    expect(res.status).toBe(400);
    const env = InternErrorEnvelopeSchema.parse(res.json);
    expect(env.error.code).toBe(400);
    expect(env.error.message).toMatch(/^(limit|offset): /);
  });
});

describe('GET /models filters', () => {
  it('supported_parameters keeps the models that support every parameter named', async () => {
    const reasoning = await models('?supported_parameters=reasoning');
    expect(reasoning.data.length).toBeGreaterThan(0);
    expect(reasoning.data.length).toBeLessThan(MODELS.length);
    expect(reasoning.data.every((m) => m.supported_parameters.includes('reasoning'))).toBe(true);
    expect(reasoning.total_count).toBe(reasoning.data.length);
    expect((await models('?supported_parameters=reasoning,%20tools')).data.length).toBe(reasoning.data.length);
    expect((await models('?supported_parameters=no_such_parameter')).data).toEqual([]);
    // Filters apply before paging.
    const paged = await models('?supported_parameters=reasoning&limit=2');
    expect(paged.data.map((m) => m.id)).toEqual(reasoning.data.slice(0, 2).map((m) => m.id));
    expect(paged.total_count).toBe(reasoning.data.length);
    expect(paged.links.next).toBe('/api/v1/models?supported_parameters=reasoning&limit=2&offset=2');
  });

  it('output_modalities is text when absent; image finds none of the text models, all finds every one', async () => {
    expect((await models('?output_modalities=text')).data).toHaveLength(MODELS.length);
    expect((await models('?output_modalities=image')).data).toEqual([]);
    expect((await models('?output_modalities=image,text')).data).toHaveLength(MODELS.length);
    expect((await models('?output_modalities=all')).data).toHaveLength(MODELS.length);
  });

  it('category takes the values the OpenAPI document lists', async () => {
    expect((await models('?category=programming')).data).toHaveLength(MODELS.length);
    expect((await models('?category=marketing%2Fseo')).data).toHaveLength(MODELS.length);
  });

  it.each(['output_modalities=video', 'output_modalities=', 'output_modalities=text,,video', 'category=cooking', 'category=', 'supported_parameters=a&supported_parameters=b'])(
    'refuses %s with 400 naming the parameter',
    async (query) => {
      const res = await get(`/models?${query}`);
      expect(res.status).toBe(400);
      expect(InternErrorEnvelopeSchema.parse(res.json).error.message).toContain(query.split('=')[0]!);
    },
  );
});
