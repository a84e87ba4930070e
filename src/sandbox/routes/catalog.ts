/** Catalogues and identity: `GET /models`, `GET /providers`, `GET /key` (public notes, "More operations"). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL_MODALITIES, type KeyInfo, type Model, type ModelListQuery, ModelListQuerySchema, type ProviderInfo } from '../../contract/catalog.js';
import { describeIssues } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { PROVIDERS } from '../../contract/providers.js';
import { ROUTES } from '../../contract/routes.js';
import { authorizeCatalogue, resolveCaller } from '../auth.js';
import { MODELS } from '../catalog/models.js';
import { badBody, unauthorized } from '../errors.js';
import { type HttpContext, route } from '../http.js';
import type { Store } from '../store.js';

/** Requests a day to free models that an account with credits may make (the service's published allowance). */
const FREE_MODEL_DAILY_REQUESTS = 1000;

/** Company names for the slugs whose name is not just the slug in title case. */
const NAMES: Record<string, string> = {
  ai21: 'AI21',
  'aion-labs': 'AionLabs',
  'amazon-bedrock': 'Amazon Bedrock',
  'amazon-nova': 'Amazon Nova',
  antdigital: 'AntDigital',
  'arcee-ai': 'Arcee AI',
  'black-forest-labs': 'Black Forest Labs',
  byteplus: 'BytePlus',
  deepinfra: 'DeepInfra',
  deepseek: 'DeepSeek',
  digitalocean: 'DigitalOcean',
  gmicloud: 'GMICloud',
  'google-ai-studio': 'Google AI Studio',
  'google-vertex': 'Google Vertex',
  openai: 'OpenAI',
  sambanova: 'SambaNova',
  wandb: 'Weights & Biases',
  'wandb-legacy': 'Weights & Biases (legacy)',
  xai: 'xAI',
  'z-ai': 'Z.AI',
};
const titleCase = (slug: string) =>
  slug
    .split(/[-/]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

export const PROVIDER_INFO: readonly ProviderInfo[] = PROVIDERS.map((p) => ({
  name: NAMES[p.slug] ?? titleCase(p.slug),
  slug: p.slug,
  privacy_policy_url: null,
  terms_of_service_url: null,
  status_page_url: null,
}));

export function registerCatalogRoutes(app: FastifyInstance, ctx: HttpContext, deps: { store: Store }): void {
  const { store } = deps;
  const caller = (req: FastifyRequest) => authorizeCatalogue(store, req.headers.authorization);

  route(app, ctx, ROUTES.listModels, (req) => {
    caller(req);
    const q = ModelListQuerySchema.safeParse(req.query);
    if (!q.success) throw badBody(describeIssues(q.error));
    const unanswered = unansweredParameter(q.data);
    if (unanswered) throw badBody(unanswered);
    const now = Date.now();
    const matching = sortModels(
      MODELS.filter((m) => modelMatches(m, q.data, now)),
      q.data.sort,
    );
    // The OpenAPI document: "When both offset and limit are omitted, the full list is returned".
    if (q.data.offset === undefined && q.data.limit === undefined) {
      return { status: 200, body: { data: matching, total_count: matching.length, links: { next: null } } };
    }
    const offset = q.data.offset ?? 0;
    const limit = q.data.limit ?? LIMITS.modelList.defaultLimit;
    let next: string | null = null;
    if (offset + limit < matching.length) {
      const url = new URL(req.url, 'http://sandbox.invalid');
      url.searchParams.set('offset', String(offset + limit));
      url.searchParams.set('limit', String(limit));
      next = `${url.pathname}${url.search}`;
    }
    return { status: 200, body: { data: matching.slice(offset, offset + limit), total_count: matching.length, links: { next } } };
  });
  route(app, ctx, ROUTES.listProviders, (req) => {
    caller(req);
    return { status: 200, body: { data: PROVIDER_INFO } };
  });
  // Any known key may describe itself, a management key included. Every field the OpenAPI document's
  // `GET /key` and the official SDK's `getCurrentKeyMetadata` require, each true of the calling key.
  route(app, ctx, ROUTES.getKeyInfo, (req) => {
    const c = resolveCaller(store, req.headers.authorization);
    if (!c) throw unauthorized('Missing, unknown or unusable API key');
    const k = c.key;
    const who = k.user_id ?? (k.intern_id ? `intern ${k.intern_id.slice(0, 8)}` : `workspace ${k.workspace_id?.slice(0, 8) ?? ''}`);
    const expires = store.keyExpiry(k.secret_hash);
    const data: KeyInfo & Record<string, unknown> = {
      label: k.label,
      name: `${k.kind.replace('_', ' ')} of ${who}`,
      hash: k.secret_hash,
      // A management key is the account's: its default workspace (a string, as the SDK's schema wants).
      workspace_id: k.workspace_id ?? store.account(k.account_id)?.default_workspace_id ?? '',
      is_management_key: k.kind === 'management_key',
      // The document's deprecated name for a management key: the same answer.
      is_provisioning_key: k.kind === 'management_key',
      // Only an organization's own key belongs to an organization; a user's key (and the intern's, and
      // an OAuth token) is the user's.
      organization_id: k.kind === 'org_key' ? k.account_id : null,
      creator_user_id: k.user_id,
      external_user: null,
      disabled: false,
      // A sandbox account is a paid one with no restriction: not the free tier, every data region, and
      // the paid accounts' daily allowance of free-model requests, none used (it bills nothing).
      is_free_tier: false,
      allowed_data_regions: ['global', 'europe', 'us'],
      free_model_daily_requests: { limit: FREE_MODEL_DAILY_REQUESTS, remaining: FREE_MODEL_DAILY_REQUESTS, used: 0 },
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      include_byok_in_limit: false,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      // Deprecated, and "will always return -1" (the document).
      rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: null,
      // An OAuth access token expires (an hour); keys do not.
      expires_at: expires === undefined ? null : new Date(expires).toISOString(),
    };
    return { status: 200, body: { data } };
  });
}

/**
 * The GET /models parameters the bundled catalogue has no data for, and why: refused with a 400 that
 * names them (an answer that looked filtered, and was not, would mislead the client), as is a sort by
 * a figure the catalogue lacks. Everything else the document defines narrows or orders the list.
 */
const UNANSWERED: Partial<Record<keyof ModelListQuery, string>> = {
  category: 'the catalogue records no use-case category',
  use_rss: 'the sandbox answers in JSON only, not as an RSS feed',
  use_rss_chat_links: 'the sandbox answers in JSON only, not as an RSS feed',
  arch: 'the catalogue records no model family (every tokenizer is "Other")',
  providers: 'the catalogue records no hosting providers per model',
  distillable: 'the catalogue records no distillation terms',
  zdr: 'the catalogue records no data-retention terms',
  region: 'the catalogue records no endpoint regions',
  min_intelligence_index: 'the catalogue has no benchmark indices',
  max_intelligence_index: 'the catalogue has no benchmark indices',
  min_coding_index: 'the catalogue has no benchmark indices',
  max_coding_index: 'the catalogue has no benchmark indices',
  min_agentic_index: 'the catalogue has no benchmark indices',
  max_agentic_index: 'the catalogue has no benchmark indices',
  min_tool_success_rate: 'the catalogue has no tool-call success rates',
  max_tool_success_rate: 'the catalogue has no tool-call success rates',
};
/** The sort orders the catalogue's own fields answer. */
const ANSWERED_SORTS: readonly string[] = ['newest', 'pricing-low-to-high', 'pricing-high-to-low', 'context-high-to-low'];

/** The first parameter of the query the catalogue cannot answer, as a message naming it; undefined when there is none. */
export function unansweredParameter(q: ModelListQuery): string | undefined {
  for (const [name, why] of Object.entries(UNANSWERED)) {
    if (q[name as keyof ModelListQuery] !== undefined) return `${name}: the sandbox cannot answer it: ${why}`;
  }
  if (q.sort !== undefined && !ANSWERED_SORTS.includes(q.sort)) {
    return `sort: ${q.sort} needs usage or benchmark figures the sandbox's catalogue does not have; it sorts by ${ANSWERED_SORTS.join(', ')}`;
  }
  return undefined;
}

/** A price in dollars per token (a decimal string) in dollars per million tokens, to the millionth. */
const perMillionTokens = (price: string) => Math.round(Number(price) * 1e12) / 1e6;
const DAY_S = 86_400;

/**
 * Whether a model passes GET /models' filters, on the catalogue's own fields: every parameter of
 * `supported_parameters`; any modality of `output_modalities` (`text` when absent, as the OpenAPI
 * document says; `all` for every model) and of `input_modalities`; `q` in the id or name (any case);
 * `context` at least; prompt and completion prices (dollars per million tokens) and age in whole
 * days within their bounds; the author of the id among `model_authors`.
 */
export function modelMatches(model: Model, q: ModelListQuery, now = Date.now()): boolean {
  const wanted = q.output_modalities ?? ['text'];
  if (!wanted.includes(ALL_MODALITIES) && !model.architecture.output_modalities.some((m) => wanted.includes(m))) return false;
  if (q.input_modalities && !model.architecture.input_modalities.some((m) => q.input_modalities!.includes(m))) return false;
  if (!(q.supported_parameters ?? []).every((p) => model.supported_parameters.includes(p))) return false;
  const needle = q.q?.trim().toLowerCase();
  if (needle && !model.id.toLowerCase().includes(needle) && !model.name.toLowerCase().includes(needle)) return false;
  if (q.context !== undefined && (model.context_length ?? 0) < q.context) return false;
  const prompt = perMillionTokens(model.pricing.prompt);
  const completion = perMillionTokens(model.pricing.completion);
  if ((q.min_price !== undefined && prompt < q.min_price) || (q.max_price !== undefined && prompt > q.max_price)) return false;
  if ((q.min_output_price !== undefined && completion < q.min_output_price) || (q.max_output_price !== undefined && completion > q.max_output_price)) return false;
  const ageDays = Math.floor((now / 1000 - model.created) / DAY_S);
  if ((q.min_age_days !== undefined && ageDays < q.min_age_days) || (q.max_age_days !== undefined && ageDays > q.max_age_days)) return false;
  if (q.model_authors && !q.model_authors.some((a) => a.toLowerCase() === model.id.split('/')[0]!.toLowerCase())) return false;
  return true;
}

/** The list in `sort`'s order (one of ANSWERED_SORTS; the catalogue's own order without one). Ties keep the catalogue's order. */
export function sortModels(models: Model[], sort: ModelListQuery['sort']): Model[] {
  const average = (m: Model) => (Number(m.pricing.prompt) + Number(m.pricing.completion)) / 2;
  const by: Partial<Record<NonNullable<ModelListQuery['sort']>, (a: Model, b: Model) => number>> = {
    newest: (a, b) => b.created - a.created,
    'pricing-low-to-high': (a, b) => average(a) - average(b),
    'pricing-high-to-low': (a, b) => average(b) - average(a),
    'context-high-to-low': (a, b) => (b.context_length ?? 0) - (a.context_length ?? 0),
  };
  const compare = sort === undefined ? undefined : by[sort];
  return compare ? [...models].sort(compare) : models;
}
