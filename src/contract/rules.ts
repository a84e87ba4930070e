/**
 * The contract's patterns and the checks built on them. Both the client's forms
 * and the sandbox's validation use these, so a rule exists exactly once.
 */
import { LIMITS } from './limits.js';

export const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const API_KEY_HASH_PATTERN = /^[a-f0-9]{64}$/;
/** One model segment: letters, digits and `~ . _ : @ + -`. */
const MODEL_SEGMENT = '[A-Za-z0-9~._:@+-]+';
/** `author/slug`, two non-empty segments split by exactly one `/`; `:variant` is covered by the segment class. */
export const MODEL_PATTERN = new RegExp(`^${MODEL_SEGMENT}/${MODEL_SEGMENT}$`);
/** Provider slugs: lowercase, hyphens, and an optional `/` sub-path. */
export const PROVIDER_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)?$/;
export const REGIONS = ['global', 'europe', 'us'] as const;
export type Region = (typeof REGIONS)[number];

/** A rule check answers null when the value is fine, or a sentence a person can act on. */
export type RuleCheck<T> = (value: T) => string | null;

export const checkName: RuleCheck<string> = (name) => {
  if (name.length < LIMITS.name.min) return `must be at least ${LIMITS.name.min} characters`;
  if (name.length > LIMITS.name.max) return `must be at most ${LIMITS.name.max} characters`;
  if (!NAME_PATTERN.test(name)) {
    return 'must be lowercase letters and digits in hyphen-separated groups, starting with a letter';
  }
  return null;
};

export const checkDescription: RuleCheck<string | null> = (value) =>
  value !== null && value.length > LIMITS.description.max
    ? `must be at most ${LIMITS.description.max} characters`
    : null;

export const checkInstructions: RuleCheck<string | null> = (value) =>
  value !== null && value.length > LIMITS.instructions.max
    ? `must be at most ${LIMITS.instructions.max} characters`
    : null;

export const checkModel: RuleCheck<string | null> = (model) => {
  if (model === null) return null;
  if (model.length < LIMITS.model.min) return 'must not be empty';
  if (model.length > LIMITS.model.max) return `must be at most ${LIMITS.model.max} characters`;
  if (!MODEL_PATTERN.test(model)) {
    return 'must look like author/slug (letters, digits and ~ . _ : @ + -), with an optional :variant';
  }
  return null;
};

export const checkApiKeyHash: RuleCheck<string> = (hash) =>
  API_KEY_HASH_PATTERN.test(hash) ? null : 'must be 64 lowercase hex characters (a SHA-256 digest)';

export const checkByokName: RuleCheck<string | null> = (name) =>
  name !== null && name.length > LIMITS.byokName.max ? `must be at most ${LIMITS.byokName.max} characters` : null;

/**
 * An unpaired UTF-16 surrogate (with the `u` flag a pair is one code point and does not match): what
 * a JSON `"\ud800"` escape makes. It is not Unicode text: stored as UTF-8 it becomes U+FFFD, which
 * changes a secret's value and makes a string longer than the limit it was checked against.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;

/** Whether a string is well-formed Unicode: no unpaired surrogate. */
export const isWellFormedText = (s: string): boolean => !UNPAIRED_SURROGATE.test(s);

/** C0 controls other than tab, line feed and carriage return. */
const SECRET_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

/**
 * What any secret (a vault value, a BYOK key) may hold: line breaks and tabs, as a provider's JSON
 * key has, but no other control character. NUL or ESC in a secret comes from a binary file or a
 * terminal's keys, never from a key; stored, it only fails later, where no one can see why. The
 * answer names the character's code and place, never the secret.
 */
export const checkSecretText: RuleCheck<string> = (value) => {
  const m = SECRET_CONTROL.exec(value);
  if (!m) return null;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `must not hold control characters other than tabs and line breaks (U+${code} at character ${m.index + 1})`;
};

/** A BYOK key as sent: not empty, and a secret's characters. */
export const checkByokKey: RuleCheck<string> = (key) => (key.length === 0 ? 'must not be empty' : checkSecretText(key));

export const checkProviderSlug: RuleCheck<string> = (slug) =>
  PROVIDER_SLUG_PATTERN.test(slug)
    ? null
    : 'must be a lowercase provider slug (letters, digits, hyphens, optional /sub-path)';

/** `is_byok_only` is only valid on non-fallback credentials. */
export const checkByokFlags = (flags: { is_byok_only?: boolean | null; is_fallback?: boolean | null }): string | null =>
  flags.is_byok_only === true && flags.is_fallback === true
    ? 'is_byok_only cannot be combined with is_fallback (byok-only is only valid on non-fallback credentials)'
    : null;

/** Regional hosts of the service: a host whose first label is a region prefix. */
export const REGIONAL_HOST_PREFIXES = ['eu', 'us'] as const;
export function isRegionalHost(host: string): boolean {
  const first = host.toLowerCase().split('.')[0] ?? '';
  return host.includes('.') && (REGIONAL_HOST_PREFIXES as readonly string[]).includes(first);
}
