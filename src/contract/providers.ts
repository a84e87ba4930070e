/**
 * The BYOK provider catalogue as published (shared/spec/byok-providers.txt),
 * with each provider's region rule kept as data. A client offers the list but
 * lets a user type a slug it does not know; the server is the judge and refuses
 * a slug that is not in the catalogue.
 */
import type { Region } from './rules.js';

export type RegionRule =
  /** Most providers: `global` or none; `europe` and `us` are refused. */
  | { kind: 'global' }
  /** Only these regions may be declared; none (null or omitted) is accepted too, as for every provider. */
  | { kind: 'only'; regions: readonly Region[] }
  /**
   * The key material may be a JSON string `{"api_key", "region"}`: then the region comes from the key
   * and a declared region must match it. A plain key carries no region: `global` or none, as for most.
   */
  | { kind: 'from_key' };

export interface ProviderEntry {
  slug: string;
  region: RegionRule;
}

const SLUGS = [
  'ai21',
  'aion-labs',
  'akashml',
  'alibaba',
  'amazon-bedrock',
  'amazon-nova',
  'ambient',
  'antdigital',
  'anthropic',
  'arcee-ai',
  'atlas-cloud',
  'avian',
  'azure',
  'baidu',
  'baseten',
  'black-forest-labs',
  'byteplus',
  'cerebras',
  'chutes',
  'cirrascale',
  'clarifai',
  'cloudflare',
  'cohere',
  'coreweave',
  'crusoe',
  'darkbloom',
  'databricks',
  'decart',
  'deepgram',
  'deepinfra',
  'deepseek',
  'dekallm',
  'digitalocean',
  'featherless',
  'fireworks',
  'fish-audio',
  'friendli',
  'gmicloud',
  'google-ai-studio',
  'google-vertex',
  'groq',
  'heygen',
  'inception',
  'inceptron',
  'inferact-vllm',
  'inference-net',
  'infermatic',
  'inflection',
  'io-net',
  'ionstream',
  'krea',
  'kt',
  'liquid',
  'makora',
  'mancer',
  'mara',
  'meta',
  'minimax',
  'mistral',
  'modal',
  'modelrun',
  'modular',
  'moonshotai',
  'morph',
  'nebius',
  'nex-agi',
  'nextbit',
  'novita',
  'nvidia',
  'open-inference',
  'openai',
  'parasail',
  'perceptron',
  'perplexity',
  'phala',
  'poolside',
  'primalabs',
  'quiver',
  'recraft',
  'recursive',
  'reka',
  'relace',
  'respan',
  'runway',
  'sail-research',
  'sakana',
  'sakana-ai',
  'sambanova',
  'seed',
  'siliconflow',
  'sourceful',
  'stepfun',
  'streamlake',
  'switchpoint',
  'tencent',
  'tenstorrent',
  'thinkingmachines',
  'together',
  'typesafe',
  'unbiased',
  'upstage',
  'venice',
  'voyageai',
  'wafer',
  'wandb',
  'wandb-legacy',
  'xai',
  'xiaomi',
  'z-ai',
] as const;

const REGION_RULES: Record<string, RegionRule> = {
  openai: { kind: 'from_key' },
  fireworks: { kind: 'from_key' },
  azure: { kind: 'only', regions: ['europe', 'us'] },
  // The provider that accepts only `us` is not named publicly; when it is, it goes here:
  // '<slug>': { kind: 'only', regions: ['us'] },
};

const GLOBAL: RegionRule = { kind: 'global' };

export const PROVIDERS: readonly ProviderEntry[] = SLUGS.map((slug) => ({ slug, region: REGION_RULES[slug] ?? GLOBAL }));
const BY_SLUG = new Map(PROVIDERS.map((p) => [p.slug, p]));

export function findProvider(slug: string): ProviderEntry | undefined {
  return BY_SLUG.get(slug);
}

export function regionRuleOf(slug: string): RegionRule {
  return BY_SLUG.get(slug)?.region ?? GLOBAL;
}

/**
 * The catalogue's slug a typed provider means, for a filter: the slug itself in any case
 * ("OpenAI"), else, with `prefix`, the one slug it is the start of ("az" for azure); null when it
 * names none, or several.
 */
export function providerOf(typed: string, prefix = false): string | null {
  const t = typed.trim().toLowerCase();
  if (t === '') return null;
  if (BY_SLUG.has(t)) return t;
  if (!prefix) return null;
  const started = slugsStartingWith(t);
  return started.length === 1 ? started[0]! : null;
}

/** The catalogue's slugs that start with what was typed, in any case ("ope": open-inference, openai). */
export function slugsStartingWith(typed: string): string[] {
  const t = typed.trim().toLowerCase();
  return t === '' ? [] : PROVIDERS.map((p) => p.slug).filter((slug) => slug.startsWith(t));
}

/** The server's check: the slug must be one of the catalogue's. */
export function checkKnownProvider(slug: string): string | null {
  return BY_SLUG.has(slug) ? null : `${slug} is not a provider of the catalogue (GET /providers lists them)`;
}

/** One sentence that explains a provider's region rule to a person. */
export function describeRegionRule(rule: RegionRule): string {
  switch (rule.kind) {
    case 'global':
      return 'Only global may be declared, or none (same as global).';
    case 'only':
      return `Only ${rule.regions.join(' or ')} may be declared, or none.`;
    case 'from_key':
      return 'A key given as {"api_key": "...", "region": "..."} sets the region, and a declared region must match it; with a plain key only global, or none.';
  }
}

/**
 * Reads the region carried by the key material of a `from_key` provider. A plain
 * key (not a JSON object) carries none; a JSON object must be well formed.
 */
export function regionFromKeyMaterial(key: string): { region: Region | null } | { error: string } {
  const trimmed = key.trim();
  if (!trimmed.startsWith('{')) return { region: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { error: 'the key looks like JSON but does not parse; use {"api_key": "...", "region": "..."}' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'the key JSON must be an object {"api_key": "...", "region": "..."}' };
  }
  const record = parsed as Record<string, unknown>;
  if (typeof record.api_key !== 'string' || record.api_key.length === 0) {
    return { error: 'the key JSON must have a non-empty "api_key" string' };
  }
  const region = record.region;
  if (region !== 'global' && region !== 'europe' && region !== 'us') {
    return { error: 'the key JSON must have "region" set to global, europe or us' };
  }
  return { region };
}

/**
 * Checks a declared region against a provider's rule, given the key material
 * when it is known. Answers the region to store, or a sentence on what is wrong.
 * `declared` is the effective value (for an update: the merged one, or undefined
 * when the update does not touch it); `key` is the new or stored key material.
 */
export function resolveDeclaredRegion(
  provider: string,
  declared: Region | null | undefined,
  key: string | undefined,
  rule: RegionRule = regionRuleOf(provider),
): { region: Region | null } | { error: string } {
  if (rule.kind === 'from_key' && key !== undefined) {
    const fromKey = regionFromKeyMaterial(key);
    if ('error' in fromKey) return { error: `key: ${fromKey.error}` };
    // Null declares no region, whatever the key carries: "Null clears declared_region" (4.7); the
    // key's region is the default, for a region left out.
    if (declared === null) return { region: null };
    if (fromKey.region !== null) {
      if (declared !== undefined && declared !== null && declared !== fromKey.region) {
        return { error: `declared_region ${declared} does not match the region of the key (${fromKey.region})` };
      }
      return { region: fromKey.region };
    }
  }
  // No region declared is accepted for every provider (the default is null, and null clears it).
  if (declared === undefined || declared === null) return { region: null };
  const allowed: readonly Region[] = rule.kind === 'only' ? rule.regions : ['global'];
  if (!allowed.includes(declared)) {
    const why = rule.kind === 'from_key' ? ' (or the region carried by a {"api_key", "region"} key)' : '';
    return { error: `declared_region for ${provider} must be ${allowed.join(' or ')}${why}, or null` };
  }
  return { region: declared };
}
