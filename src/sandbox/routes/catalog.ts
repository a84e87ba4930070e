/** Catalogues and identity: `GET /models`, `GET /providers`, `GET /key` (public notes, "More operations"). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyInfo, ProviderInfo } from '../../contract/catalog.js';
import { PROVIDERS } from '../../contract/providers.js';
import { ROUTES } from '../../contract/routes.js';
import { authorizeIntern, resolveCaller } from '../auth.js';
import { MODELS } from '../catalog/models.js';
import { unauthorized } from '../errors.js';
import { type HttpContext, route } from '../http.js';
import type { Store } from '../store.js';

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
  const caller = (req: FastifyRequest) => authorizeIntern(store, req.headers.authorization, req.headers.host, ROUTES.listModels.credential);

  route(app, ctx, ROUTES.listModels, (req) => {
    caller(req);
    return { status: 200, body: { data: MODELS, total_count: MODELS.length, links: { next: null } } };
  });
  route(app, ctx, ROUTES.listProviders, (req) => {
    caller(req);
    return { status: 200, body: { data: PROVIDER_INFO } };
  });
  // Any known key may describe itself, a management key included.
  route(app, ctx, ROUTES.getKeyInfo, (req) => {
    const c = resolveCaller(store, req.headers.authorization);
    if (!c) throw unauthorized('Missing, unknown or unusable API key');
    const k = c.key;
    const who = k.user_id ?? (k.intern_id ? `intern ${k.intern_id.slice(0, 8)}` : `workspace ${k.workspace_id?.slice(0, 8) ?? ''}`);
    const data: KeyInfo & Record<string, unknown> = {
      label: k.label,
      name: `${k.kind.replace('_', ' ')} of ${who}`,
      hash: k.secret_hash,
      // A management key is the account's: its default workspace (a string, as the SDK's schema wants).
      workspace_id: k.workspace_id ?? store.account(k.account_id)?.default_workspace_id ?? '',
      is_management_key: k.kind === 'management_key',
      creator_user_id: k.user_id,
      external_user: null,
      disabled: false,
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
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: null,
      expires_at: null,
    };
    return { status: 200, body: { data } };
  });
}
