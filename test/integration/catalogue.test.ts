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
  data: { id: string; supported_parameters: string[]; created: number; context_length: number | null; pricing: { prompt: string; completion: string } }[];
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

  it.each(['output_modalities=video', 'output_modalities=', 'output_modalities=text,,video', 'category=cooking', 'category=', 'supported_parameters=a&supported_parameters=b'])(
    'refuses %s with 400 naming the parameter',
    async (query) => {
      const res = await get(`/models?${query}`);
      expect(res.status).toBe(400);
      expect(InternErrorEnvelopeSchema.parse(res.json).error.message).toContain(query.split('=')[0]!);
    },
  );

  const ids = (page: ModelPage) => page.data.map((m) => m.id);
  const expected = (keep: (m: (typeof MODELS)[number]) => boolean) => MODELS.filter(keep).map((m) => m.id);
  const perMillion = (price: string) => Math.round(Number(price) * 1e12) / 1e6;

  it('q finds a text in the id or the name, in any case; model_authors keeps the authors named', async () => {
    const claude = expected((m) => m.id.includes('claude') || m.name.toLowerCase().includes('claude'));
    expect(claude.length).toBeGreaterThan(2);
    expect(ids(await models('?q=Claude'))).toEqual(claude);
    expect(ids(await models('?q=%20SONNET%20'))).toEqual(expected((m) => m.name.includes('Sonnet')));
    expect((await models('?q=no-such-model')).data).toEqual([]);
    expect(ids(await models('?model_authors=anthropic,%20OpenAI'))).toEqual(expected((m) => m.id.startsWith('anthropic/') || m.id.startsWith('openai/')));
  });

  it('input_modalities keeps the models that take any modality named; context is a least context length', async () => {
    const vision = expected((m) => m.architecture.input_modalities.includes('image'));
    expect(vision.length).toBeGreaterThan(0);
    expect(vision.length).toBeLessThan(MODELS.length);
    expect(ids(await models('?input_modalities=image'))).toEqual(vision);
    expect(ids(await models('?input_modalities=file,image'))).toEqual(vision);
    expect((await models('?input_modalities=text')).data).toHaveLength(MODELS.length);
    expect((await models('?input_modalities=audio')).data).toEqual([]);
    expect(ids(await models('?context=1000000'))).toEqual(expected((m) => (m.context_length ?? 0) >= 1_000_000));
  });

  it('prices (dollars per million tokens) and age (whole days) are bounds, each end included', async () => {
    expect(ids(await models('?max_price=0'))).toEqual(expected((m) => Number(m.pricing.prompt) === 0));
    expect(ids(await models('?min_price=1.25&max_price=3'))).toEqual(expected((m) => perMillion(m.pricing.prompt) >= 1.25 && perMillion(m.pricing.prompt) <= 3));
    expect(ids(await models('?min_output_price=60'))).toEqual(expected((m) => perMillion(m.pricing.completion) >= 60));
    expect(ids(await models('?max_output_price=0.4'))).toEqual(expected((m) => perMillion(m.pricing.completion) <= 0.4));
    const age = (m: (typeof MODELS)[number]) => Math.floor((Date.now() / 1000 - m.created) / 86_400);
    const newest = Math.min(...MODELS.map(age));
    expect(ids(await models(`?max_age_days=${newest + 30}`))).toEqual(expected((m) => age(m) <= newest + 30));
    expect(ids(await models(`?min_age_days=${newest + 300}`))).toEqual(expected((m) => age(m) >= newest + 300));
  });

  it('sort orders by the catalogue\'s own fields before paging; ties keep the catalogue\'s order', async () => {
    const newest = await models('?sort=newest');
    expect(newest.data.map((m) => m.created)).toEqual(MODELS.map((m) => m.created).sort((a, b) => b - a));
    const average = (m: { pricing: { prompt: string; completion: string } }) => (Number(m.pricing.prompt) + Number(m.pricing.completion)) / 2;
    const cheap = (await models('?sort=pricing-low-to-high')).data;
    expect(cheap.map(average)).toEqual([...cheap.map(average)].sort((a, b) => a - b));
    expect(ids(await models('?sort=pricing-high-to-low&limit=3'))).toEqual([...MODELS].sort((a, b) => average(b) - average(a)).slice(0, 3).map((m) => m.id));
    const wide = await models('?sort=context-high-to-low&limit=2&offset=1');
    expect(ids(wide)).toEqual([...MODELS].sort((a, b) => (b.context_length ?? 0) - (a.context_length ?? 0)).slice(1, 3).map((m) => m.id));
    expect(wide.links.next).toBe('/api/v1/models?sort=context-high-to-low&limit=2&offset=3');
  });

  // Every query parameter of the OpenAPI document's GET /models: answered above, or refused by name
  // (the catalogue has no data for it) rather than ignored.
  it.each([
    'category=programming',
    'use_rss=true',
    'use_rss_chat_links=true',
    'arch=GPT',
    'providers=openai',
    'distillable=true',
    'zdr=true',
    'region=eu',
    'min_intelligence_index=10',
    'max_intelligence_index=10',
    'min_coding_index=10',
    'max_coding_index=10',
    'min_agentic_index=10',
    'max_agentic_index=10',
    'min_tool_success_rate=0.5',
    'max_tool_success_rate=0.5',
    'sort=most-popular',
    'sort=top-weekly',
    'sort=throughput-high-to-low',
    'sort=latency-low-to-high',
    'sort=intelligence-high-to-low',
    'sort=coding-high-to-low',
    'sort=agentic-high-to-low',
    'sort=design-arena-elo-high-to-low',
  ])('refuses %s, which the catalogue cannot answer, with 400 naming it', async (query) => {
    const res = await get(`/models?${query}`);
    expect(res.status).toBe(400);
    const message = InternErrorEnvelopeSchema.parse(res.json).error.message;
    expect(message.startsWith(`${query.split('=')[0]!}: `)).toBe(true);
    expect(message).toMatch(/the sandbox cannot answer it|figures the sandbox's catalogue does not have/);
  });

  it.each(['sort=random', 'min_price=-1', 'min_price=1e3', 'max_price=0x10', 'max_output_price=1.', 'context=0', 'min_age_days=1.5', 'input_modalities=video', 'distillable=maybe', 'region=asia', 'min_tool_success_rate=2', 'q=a&q=b'])(
    'refuses %s, out of the document\'s range or type, with 400 naming the parameter',
    async (query) => {
      const res = await get(`/models?${query}`);
      expect(res.status).toBe(400);
      expect(InternErrorEnvelopeSchema.parse(res.json).error.message.startsWith(`${query.split('=')[0]!}: `)).toBe(true);
    },
  );
});
