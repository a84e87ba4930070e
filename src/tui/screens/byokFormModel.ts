/** The BYOK form's state and rules, without React: parsed lists, checks, and the request to send. */
import { BYOK_LISTS, checkByokList, parseByokList, type ByokCreate, type ByokListField, type ByokCredential, type ByokUpdate } from '../../contract/byok.js';
import { describeRegionRule, regionRuleOf, resolveDeclaredRegion } from '../../contract/providers.js';
import { type Region, checkByokFlags, checkByokKey, checkByokName, checkProviderSlug } from '../../contract/rules.js';

export type Tri = 'unset' | 'true' | 'false';
export interface ByokFormValues {
  provider: string;
  key: string;
  name: string;
  workspace_id: string;
  allowed_api_key_hashes: string;
  allowed_models: string;
  allowed_user_ids: string;
  declared_region: Region | 'unset';
  declared_zdr: Tri;
  disabled: boolean;
  is_byok_only: boolean;
  is_fallback: boolean;
  is_required: boolean;
}
export type ByokField = keyof ByokFormValues;

export const emptyByokForm = (): ByokFormValues => ({
  provider: '',
  key: '',
  name: '',
  workspace_id: '',
  allowed_api_key_hashes: '',
  allowed_models: '',
  allowed_user_ids: '',
  declared_region: 'unset',
  declared_zdr: 'unset',
  disabled: false,
  is_byok_only: false,
  is_fallback: false,
  is_required: false,
});

export function formOf(c: ByokCredential): ByokFormValues {
  const joinList = (v: string[] | null) => (v ? v.join(', ') : '');
  return {
    provider: c.provider,
    key: '',
    name: c.name ?? '',
    workspace_id: c.workspace_id ?? '',
    allowed_api_key_hashes: joinList(c.allowed_api_key_hashes),
    allowed_models: joinList(c.allowed_models),
    allowed_user_ids: joinList(c.allowed_user_ids),
    declared_region: (c.declared_region as Region | null) ?? 'unset',
    declared_zdr: c.declared_zdr === null ? 'unset' : c.declared_zdr ? 'true' : 'false',
    disabled: c.disabled,
    is_byok_only: c.is_byok_only,
    is_fallback: c.is_fallback,
    is_required: c.is_required,
  };
}

/**
 * The form's field errors. `stored` is the credential's region as loaded, on an edit: the key it
 * was derived from is not known here (it is never read back), so a region left as it was is not
 * checked again (openai's `us` came from its key, which a plain key's rule would refuse).
 */
export function validateByok(v: ByokFormValues, mode: { create: boolean; rotating: boolean; stored?: Region | 'unset' }): Partial<Record<ByokField, string>> {
  const e: Partial<Record<ByokField, string>> = {};
  if (mode.create) {
    if (!v.provider.trim()) e.provider = 'choose a provider';
    else e.provider = checkProviderSlug(v.provider.trim()) ?? undefined;
  }
  if ((mode.create || mode.rotating) && v.key.length === 0) e.key = 'the key is required';
  else if (mode.create || mode.rotating) e.key = checkByokKey(v.key) ?? undefined;
  e.name = checkByokName(v.name === '' ? null : v.name) ?? undefined;
  for (const field of Object.keys(BYOK_LISTS) as ByokListField[]) {
    const wrong = checkByokList(field, parseByokList(v[field]));
    if (wrong) e[field] = wrong;
  }
  const region = v.declared_region === 'unset' ? null : v.declared_region;
  const keyKnown = mode.create || mode.rotating ? v.key : undefined;
  const unchanged = !mode.create && !mode.rotating && mode.stored !== undefined && v.declared_region === mode.stored;
  if (v.provider.trim() && !unchanged) {
    const r = resolveDeclaredRegion(v.provider.trim(), region, keyKnown || undefined);
    if ('error' in r) {
      if (r.error.startsWith('key:')) e.key = r.error.slice(5);
      else e.declared_region = r.error;
    }
  }
  const flags = checkByokFlags(v);
  if (flags) e.is_byok_only = flags;
  for (const k of Object.keys(e) as ByokField[]) if (e[k] === undefined) delete e[k];
  return e;
}

export function regionHelp(provider: string): string {
  return describeRegionRule(regionRuleOf(provider.trim()));
}

const tri = (t: Tri) => (t === 'unset' ? null : t === 'true');

export function createBody(v: ByokFormValues): ByokCreate {
  const body: ByokCreate = { provider: v.provider.trim(), key: v.key };
  if (v.name) body.name = v.name;
  if (v.workspace_id.trim()) body.workspace_id = v.workspace_id.trim();
  const hashes = parseByokList(v.allowed_api_key_hashes);
  if (hashes) body.allowed_api_key_hashes = hashes;
  const models = parseByokList(v.allowed_models);
  if (models) body.allowed_models = models;
  const users = parseByokList(v.allowed_user_ids);
  if (users) body.allowed_user_ids = users;
  if (v.declared_region !== 'unset') body.declared_region = v.declared_region;
  if (v.declared_zdr !== 'unset') body.declared_zdr = tri(v.declared_zdr);
  for (const f of ['disabled', 'is_byok_only', 'is_fallback', 'is_required'] as const) if (v[f]) body[f] = true;
  return body;
}

/** Only what changed; the key only when rotating. */
export function updateBody(original: ByokFormValues, v: ByokFormValues, rotating: boolean): ByokUpdate {
  const body: ByokUpdate = {};
  if (rotating) body.key = v.key;
  if (v.name !== original.name) body.name = v.name === '' ? null : v.name;
  for (const f of ['allowed_api_key_hashes', 'allowed_models', 'allowed_user_ids'] as const) {
    if (v[f] !== original[f]) body[f] = parseByokList(v[f]);
  }
  if (v.declared_region !== original.declared_region) body.declared_region = v.declared_region === 'unset' ? null : v.declared_region;
  if (v.declared_zdr !== original.declared_zdr) body.declared_zdr = tri(v.declared_zdr);
  for (const f of ['disabled', 'is_byok_only', 'is_fallback', 'is_required'] as const) if (v[f] !== original[f]) body[f] = v[f];
  return body;
}
