/**
 * Vault secrets (public notes, "More operations": vault secrets). A secret's value goes in and never
 * comes out: responses carry its name, hosts, a fingerprint and its age. The name and host rules live
 * here once; the sandbox enforces them and the client's forms check them live.
 */
import * as z from 'zod';
import { LIMITS } from './limits.js';
import { checkSecretText, type RuleCheck } from './rules.js';
import { queryInteger } from './query.js';
import { built } from './read.js';

/** Lowercase letters, digits and single underscores; starts with a letter, does not end with `_`. */
export const SECRET_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export const checkSecretName: RuleCheck<string> = (name) => {
  if (name.length < LIMITS.secretName.min) return 'must not be empty';
  if (name.length > LIMITS.secretName.max) return `must be at most ${LIMITS.secretName.max} characters`;
  if (!SECRET_NAME_PATTERN.test(name)) {
    return 'must be lowercase letters, digits and single underscores, starting with a letter and not ending with an underscore';
  }
  return null;
};

/** What the service takes as a value (the write body's rule, which the sandbox applies): 1 to 65536 characters. */
const checkSecretValueLength: RuleCheck<string> = (value) => {
  if (value.length < LIMITS.secretValue.min) return 'must not be empty';
  if (value.length > LIMITS.secretValue.max) return `must be at most ${LIMITS.secretValue.max} characters`;
  return null;
};

/**
 * What a client sends as a value: the service's length, and no control character but tabs and line
 * breaks (checkSecretText). The service is not documented to refuse them, so the sandbox does not;
 * the clients do, since such a value is a mistake (a binary file, a terminal's keys).
 */
export const checkSecretValue: RuleCheck<string> = (value) => checkSecretValueLength(value) ?? checkSecretText(value);

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * One host as the service stores it: lower-cased, a trailing dot removed. Answers the normalised host,
 * or a sentence on why it is refused (schemes, ports, paths, wildcards, empty values, bad labels).
 */
export function normaliseHost(input: string): { host: string } | { error: string } {
  const raw = input.trim();
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw);
  if (raw.length === 0) return { error: 'a host must not be empty' };
  if (raw.includes('://')) return { error: `${shown}: give the bare hostname, without a scheme` };
  if (raw.includes('*')) return { error: `${shown}: wildcards are refused; list each exact hostname` };
  if (/[/?#]/.test(raw)) return { error: `${shown}: give the bare hostname, without a path` };
  if (raw.includes('@')) return { error: `${shown}: give the bare hostname, without user information` };
  if (raw.includes(':') || raw.startsWith('[')) return { error: `${shown}: give the bare hostname, without a port` };
  let host = raw.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.length === 0) return { error: `${shown}: not a hostname` };
  if (host.length > LIMITS.hostname.max) return { error: `${shown}: a hostname is at most ${LIMITS.hostname.max} characters` };
  for (const label of host.split('.')) {
    if (label.length === 0) return { error: `${shown}: empty label (two dots in a row?)` };
    if (label.length > LIMITS.hostname.label) return { error: `${shown}: a label is at most ${LIMITS.hostname.label} characters` };
    if (!LABEL.test(label)) return { error: `${shown}: a label is letters, digits and inner hyphens` };
  }
  return { host };
}

/**
 * A whole host list: each host normalised, duplicates after normalisation collapsed, 1 to 100 of them.
 * Answers the list to store or the first problem.
 */
export function validateHosts(hosts: readonly string[]): { hosts: string[] } | { error: string } {
  // The list as given is the one limited (1..100), before duplicates are collapsed.
  if (hosts.length > LIMITS.secretHosts.max) return { error: `at most ${LIMITS.secretHosts.max} hosts` };
  const out: string[] = [];
  for (const h of hosts) {
    const r = normaliseHost(h);
    if ('error' in r) return r;
    if (!out.includes(r.host)) out.push(r.host);
  }
  if (out.length < LIMITS.secretHosts.min) return { error: 'at least one host is needed: the secret is only ever sent to its hosts' };
  if (out.length > LIMITS.secretHosts.max) return { error: `at most ${LIMITS.secretHosts.max} hosts` };
  return { hosts: out };
}

const rule = <T>(check: RuleCheck<T>) =>
  [(v: T) => check(v) === null, { error: (issue: { input: unknown }) => check(issue.input as T) ?? 'invalid' }] as const;

export const SecretNameSchema = z.lazy(() => z.string().refine(...rule(checkSecretName)));

export const VaultSecretSchema = z.lazy(() => z.object({
  name: z.string(),
  hosts: z.array(z.string()).nullable(),
  fingerprint: z.string().nullable(),
  created_at: z.string(),
}));
export type VaultSecret = z.infer<typeof VaultSecretSchema>;

export const SECRET_SCOPES = ['intern', 'attached', 'workspace'] as const;
export type SecretScope = (typeof SECRET_SCOPES)[number];

export const VaultSecretListSchema = z.lazy(() => z.object({ data: z.array(VaultSecretSchema), has_more: z.boolean() }));
export type VaultSecretList = z.infer<typeof VaultSecretListSchema>;
/** `scope` is an open enum, as an intern's status is: SECRET_SCOPES are the ones the notes name, and one this version does not know is shown as it comes. */
export const EffectiveSecretSchema = z.lazy(() => built(VaultSecretSchema).extend({ scope: z.string() }));
export type EffectiveSecret = z.infer<typeof EffectiveSecretSchema>;
export const EffectiveSecretListSchema = z.lazy(() => z.object({ data: z.array(EffectiveSecretSchema), has_more: z.boolean() }));
export type EffectiveSecretList = z.infer<typeof EffectiveSecretListSchema>;
export const VaultSecretEnvelopeSchema = z.lazy(() => z.object({ data: VaultSecretSchema }));
export const VaultSecretCopyResultSchema = z.lazy(() => z.object({ data: z.array(VaultSecretSchema) }));

/** The write body. `hosts` are checked (and normalised) by validateHosts after the shape is known. */
export const VaultSecretWriteSchema = z.lazy(() => z.strictObject({
  value: z.string().refine(...rule(checkSecretValueLength)),
  hosts: z.array(z.string()).min(LIMITS.secretHosts.min, { error: 'at least one host is needed' }),
}));
export type VaultSecretWrite = z.infer<typeof VaultSecretWriteSchema>;

export const VaultSecretCopySchema = z.lazy(() => z.strictObject({
  names: z
    .array(SecretNameSchema)
    .min(LIMITS.secretCopyNames.min, { error: 'name at least one secret to copy' })
    .max(LIMITS.secretCopyNames.max, { error: `at most ${LIMITS.secretCopyNames.max} names` })
    .refine((names) => new Set(names).size === names.length, { error: 'names must be unique' }),
}));

export const VaultListQuerySchema = z.lazy(() => z.strictObject({
  limit: queryInteger(LIMITS.vaultList.minLimit, LIMITS.vaultList.maxLimit).optional(),
  offset: queryInteger(0, LIMITS.vaultList.maxOffset).optional(),
}));
export type VaultListQuery = { limit?: number; offset?: number };
