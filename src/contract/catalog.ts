/**
 * Catalogues and identity (public notes, "More operations": catalogues): the models an intern can use,
 * the providers a BYOK credential can name, and the calling key's own metadata ("signed in as").
 * Response schemas read what a client needs and tolerate the rest.
 */
import * as z from 'zod';
import { LIMITS } from './limits.js';
import { queryInteger, queryNumber } from './query.js';

export const CatalogModelSchema = z.lazy(() => z.object({
  id: z.string(),
  canonical_slug: z.string(),
  name: z.string(),
  created: z.number(),
  description: z.string().optional(),
  context_length: z.number().nullable(),
  architecture: z.object({
    input_modalities: z.array(z.string()),
    output_modalities: z.array(z.string()),
    modality: z.string().nullable(),
    tokenizer: z.string().optional(),
  }),
  /** Decimal strings, in dollars per token. */
  pricing: z.object({ prompt: z.string(), completion: z.string() }).loose(),
  top_provider: z.object({
    context_length: z.number().nullable().optional(),
    max_completion_tokens: z.number().nullable().optional(),
    is_moderated: z.boolean(),
  }),
  supported_parameters: z.array(z.string()),
}));
export type Model = z.infer<typeof CatalogModelSchema>;
export const ModelListSchema = z.lazy(() => z.object({ data: z.array(CatalogModelSchema) }));

/** `category` of GET /models, as the public OpenAPI document enumerates it. */
export const MODEL_CATEGORIES = [
  'programming',
  'roleplay',
  'marketing',
  'marketing/seo',
  'technology',
  'science',
  'translation',
  'legal',
  'finance',
  'health',
  'trivia',
  'academia',
] as const;
/** `output_modalities` of GET /models: a comma-separated list of these, or `all`; `text` when absent. */
export const OUTPUT_MODALITIES = ['text', 'image', 'audio', 'embeddings'] as const;
export const ALL_MODALITIES = 'all';
/** `input_modalities` of GET /models: a comma-separated list of these. */
export const INPUT_MODALITIES = ['text', 'image', 'audio', 'file'] as const;
/** `sort` of GET /models, as the public OpenAPI document enumerates it. */
export const MODEL_SORTS = [
  'most-popular',
  'newest',
  'top-weekly',
  'pricing-low-to-high',
  'pricing-high-to-low',
  'context-high-to-low',
  'throughput-high-to-low',
  'latency-low-to-high',
  'intelligence-high-to-low',
  'coding-high-to-low',
  'agentic-high-to-low',
  'design-arena-elo-high-to-low',
] as const;

/** Comma-separated items, trimmed; empty items dropped. */
const commaList = (s: string) => s.split(',').map((x) => x.trim()).filter((x) => x.length > 0);
/** A comma-separated list of `allowed` (and `extra`), at least one. */
const commaListOf = (allowed: readonly string[], extra?: string) =>
  z
    .string()
    .transform(commaList)
    .refine((items) => items.length > 0 && items.every((m) => m === extra || allowed.includes(m)), {
      error: `must be a comma-separated list of ${allowed.join(', ')}${extra ? `, or ${extra}` : ''}`,
    });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

/**
 * The query of GET /models, every parameter the public OpenAPI document defines, each with the
 * document's type and range. Which of them a catalogue can answer is its own business (the sandbox
 * refuses the ones its catalogue has no data for). A parameter the document does not define is not
 * an error.
 */
export const ModelListQuerySchema = z.lazy(() => z.object({
  offset: queryInteger(0).optional(),
  limit: queryInteger(LIMITS.modelList.minLimit, LIMITS.modelList.maxLimit).optional(),
  category: oneOf(MODEL_CATEGORIES).optional(),
  /** Models that support every one of these parameters. */
  supported_parameters: z.string().transform(commaList).optional(),
  /** Models with any of these output modalities; `all` for every model. */
  output_modalities: commaListOf(OUTPUT_MODALITIES, ALL_MODALITIES).optional(),
  sort: oneOf(MODEL_SORTS).optional(),
  use_rss: z.string().optional(),
  use_rss_chat_links: z.string().optional(),
  /** Free text, matched against a model's id and name. */
  q: z.string().optional(),
  /** Models that take any of these input modalities. */
  input_modalities: commaListOf(INPUT_MODALITIES).optional(),
  /** The least context length, in tokens. */
  context: queryInteger(1).optional(),
  /** Prompt price bounds, in dollars per million tokens. */
  min_price: queryNumber(0).optional(),
  max_price: queryNumber(0).optional(),
  arch: z.string().optional(),
  /** Authors: the `author` of `author/slug` ids, comma-separated. */
  model_authors: z.string().transform(commaList).optional(),
  providers: z.string().optional(),
  distillable: oneOf(['true', 'false']).optional(),
  zdr: oneOf(['true']).optional(),
  region: oneOf(['eu', 'us']).optional(),
  /** Completion price bounds, in dollars per million tokens. */
  min_output_price: queryNumber(0).optional(),
  max_output_price: queryNumber(0).optional(),
  /** Age bounds, in whole days since the model's creation. */
  min_age_days: queryInteger(0).optional(),
  max_age_days: queryInteger(0).optional(),
  min_intelligence_index: queryNumber(0).optional(),
  max_intelligence_index: queryNumber(0).optional(),
  min_coding_index: queryNumber(0).optional(),
  max_coding_index: queryNumber(0).optional(),
  min_agentic_index: queryNumber(0).optional(),
  max_agentic_index: queryNumber(0).optional(),
  min_tool_success_rate: queryNumber(0, 1).optional(),
  max_tool_success_rate: queryNumber(0, 1).optional(),
}));
export type ModelListQuery = z.output<typeof ModelListQuerySchema>;

export const ProviderInfoSchema = z.lazy(() => z.object({
  name: z.string(),
  slug: z.string(),
  privacy_policy_url: z.string().nullable(),
  terms_of_service_url: z.string().nullable().optional(),
  status_page_url: z.string().nullable().optional(),
}));
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;
export const ProviderListSchema = z.lazy(() => z.object({ data: z.array(ProviderInfoSchema) }));

export const KeyInfoSchema = z.lazy(() => z.object({
  label: z.string(),
  name: z.string().optional(),
  workspace_id: z.string().nullable().optional(),
  is_management_key: z.boolean().optional(),
  limit: z.number().nullable(),
  limit_remaining: z.number().nullable().optional(),
  usage: z.number(),
  disabled: z.boolean().optional(),
  created_at: z.string().optional(),
  expires_at: z.string().nullable().optional(),
}));
export type KeyInfo = z.infer<typeof KeyInfoSchema>;
export const KeyInfoEnvelopeSchema = z.lazy(() => z.object({ data: KeyInfoSchema }));

/** A token price (a decimal string in dollars per token) as dollars per million tokens, for people. */
export function perMillion(price: string): string {
  const n = Number(price);
  if (!Number.isFinite(n)) return '?';
  if (n === 0) return 'free';
  const m = n * 1_000_000;
  return `$${m >= 100 ? m.toFixed(0) : m >= 1 ? m.toFixed(2) : m.toFixed(3)}`;
}

/** A context length in tokens, for people: 512, 131k, 1M, 1.05M (as the service's model pages write it). */
export function contextSize(tokens: number): string {
  const k = Math.round(tokens / 1000);
  if (tokens < 1000) return String(tokens);
  if (k < 1000) return `${k}k`;
  return `${Number((tokens / 1_000_000).toFixed(2))}M`;
}
