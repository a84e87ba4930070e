/** BYOK provider credentials (spec 2.2, 4.6, 4.7; public notes for list/get/delete). */
import * as z from 'zod';
import { LIMITS } from './limits.js';
import { absentAsNull } from './read.js';
import { API_KEY_HASH_PATTERN, REGIONS, checkApiKeyHash, checkByokFlags, checkModel, type RuleCheck } from './rules.js';
import { queryInteger } from './query.js';

export const ByokCredentialSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  workspace_id: z.string().nullable(),
  provider: z.string(),
  name: absentAsNull(z.string()),
  label: z.string(),
  allowed_api_key_hashes: z.array(z.string()).nullable(),
  allowed_models: z.array(z.string()).nullable(),
  allowed_user_ids: z.array(z.string()).nullable(),
  declared_region: absentAsNull(z.string()),
  declared_zdr: absentAsNull(z.boolean()),
  disabled: z.boolean(),
  is_byok_only: z.boolean().optional().transform((v) => v ?? false),
  is_fallback: z.boolean(),
  is_required: z.boolean().optional().transform((v) => v ?? false),
  sort_order: z.number().int(),
  created_at: z.string(),
}));
export type ByokCredential = z.output<typeof ByokCredentialSchema>;

export const ByokEnvelopeSchema = z.lazy(() => z.object({ data: ByokCredentialSchema }));
export const ByokListSchema = z.lazy(() => z.object({ data: z.array(ByokCredentialSchema), total_count: z.number().int() }));
export type ByokList = z.output<typeof ByokListSchema>;
export const ByokDeletedSchema = z.lazy(() => z.object({ deleted: z.literal(true) }));

export const ByokListQuerySchema = z.lazy(() => z.strictObject({
  offset: queryInteger(0).optional(),
  limit: queryInteger(LIMITS.byokList.minLimit, LIMITS.byokList.maxLimit).optional(),
  workspace_id: z.string().optional(),
  provider: z.string().optional(),
}));
export type ByokListQuery = { offset?: number; limit?: number; workspace_id?: string; provider?: string };

const hashes = z.lazy(() => z
  .array(z.string().regex(API_KEY_HASH_PATTERN, { error: 'each hash must be 64 lowercase hex characters' }))
  .min(LIMITS.allowedApiKeyHashes.min, { error: `must hold at least ${LIMITS.allowedApiKeyHashes.min} hash, or be null` })
  .max(LIMITS.allowedApiKeyHashes.max, { error: `must hold at most ${LIMITS.allowedApiKeyHashes.max} hashes` })
  .nullable());
const models = z.lazy(() => z.array(z.string()).max(LIMITS.allowedModels.max, { error: `must hold at most ${LIMITS.allowedModels.max} models` }).nullable());
const userIds = z.lazy(() => z.array(z.string()).max(LIMITS.allowedUserIds.max, { error: `must hold at most ${LIMITS.allowedUserIds.max} user ids` }).nullable());

/**
 * A BYOK list setting as people type it (the TUI's fields, the CLI's --models, --users,
 * --key-hashes): items split by commas (or line breaks, from a paste) and trimmed; empty means null
 * (no restriction). Not by spaces: "bad model" is one wrong item to refuse, not two to send.
 */
export function parseByokList(text: string): string[] | null {
  const items = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length === 0 ? null : items;
}

/** The BYOK list settings: what each item must be (the service judges user ids) and how many there may be. */
export const BYOK_LISTS = {
  allowed_models: { noun: 'models', item: checkModel as RuleCheck<string>, max: LIMITS.allowedModels.max },
  allowed_api_key_hashes: { noun: 'hashes', item: checkApiKeyHash, max: LIMITS.allowedApiKeyHashes.max },
  allowed_user_ids: { noun: 'user ids', item: null, max: LIMITS.allowedUserIds.max },
} as const;
export type ByokListField = keyof typeof BYOK_LISTS;

/** How much of a bad item a message quotes. */
const QUOTED = 40;

/**
 * What is wrong with a BYOK list as typed (parseByokList), or null: the first bad item quoted, how
 * many more there are, and the rule it breaks; or too many items. The TUI's form and the CLI's
 * flags both say it, so a list is refused in the same words wherever it is typed.
 */
export function checkByokList(field: ByokListField, items: string[] | null): string | null {
  if (!items) return null;
  const { noun, item, max } = BYOK_LISTS[field];
  const bad = item ? items.filter((i) => item(i) !== null) : [];
  if (item && bad.length > 0) {
    const first = bad[0]!;
    const quoted = first.length > QUOTED ? `${first.slice(0, QUOTED - 1)}…` : first;
    return `"${quoted}"${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''} ${item(first)}`;
  }
  return items.length > max ? `at most ${max} ${noun}, not ${items.length}` : null;
}

/** Fields shared by create and update, all optional. */
const byokSettings = {
  name: z.string().max(LIMITS.byokName.max, { error: `must be at most ${LIMITS.byokName.max} characters` }).nullable().optional(),
  allowed_api_key_hashes: hashes.optional(),
  allowed_models: models.optional(),
  allowed_user_ids: userIds.optional(),
  declared_region: z.enum(REGIONS, { error: 'must be global, europe, us or null' }).nullable().optional(),
  declared_zdr: z.boolean().nullable().optional(),
  disabled: z.boolean().optional(),
  is_byok_only: z.boolean().optional(),
  is_fallback: z.boolean().optional(),
  is_required: z.boolean().optional(),
};


/**
 * A key as the service takes it: not empty (spec 4.6). The clients check more before sending
 * (checkByokKey: no control characters but tabs and line breaks); the sandbox, as the service,
 * does not refuse what the spec does not.
 */
const ByokKeySchema = z.lazy(() => z.string().min(1, { error: 'must not be empty' }));

export const ByokCreateSchema = z.lazy(() => z
  .strictObject({
    key: ByokKeySchema,
    provider: z.string().min(1, { error: 'must not be empty' }),
    workspace_id: z.string().min(1).optional(),
    ...byokSettings,
  })
  .refine((v) => checkByokFlags(v) === null, {
    error: checkByokFlags({ is_byok_only: true, is_fallback: true }) ?? '',
    path: ['is_byok_only'],
  }));
export type ByokCreate = z.input<typeof ByokCreateSchema>;

/** Update body. The flag conflict of an update is checked on the merged state by the server. */
export const ByokUpdateSchema = z.lazy(() => z.strictObject({
  key: ByokKeySchema.optional(),
  ...byokSettings,
}));
export type ByokUpdate = z.input<typeof ByokUpdateSchema>;

/**
 * How much of a raw key a label may show (issue 13, defect 7). One rule for the
 * sandbox's labels and anything else that masks a key.
 */
export const KEY_LABEL = {
  /** Keys shorter than this show nothing at all: the label is `...`. */
  minLengthForTail: 12,
  /** Longer keys show at most their last this many characters. */
  tailChars: 4,
  /** A provider's public marker (1 to 3 letters and a dash, `sk-`) is shown only on keys at least this long. */
  minLengthForPrefix: 16,
} as const;

/**
 * A masked form of a raw key: `sk-...abcd`, `...abcd` or `...`. It never shows
 * more than the provider marker and 4 characters, nothing of a key under 12
 * characters, and never half of any key.
 */
export function maskKey(raw: string): string {
  const key = raw.trim();
  const marker = /^[A-Za-z]{1,3}-/.exec(key)?.[0] ?? '';
  const prefix = key.length >= KEY_LABEL.minLengthForPrefix ? marker : '';
  const tail = key.length >= KEY_LABEL.minLengthForTail ? key.slice(-KEY_LABEL.tailChars) : '';
  return `${prefix}...${tail}`;
}
