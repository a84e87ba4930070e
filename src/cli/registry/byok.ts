/**
 * The BYOK providers and provider keys, in the order help lists them. Data only: each names its
 * module and runner, and the dispatcher loads them (loaders.ts).
 */
import { BYOK_FLAG_FIELDS, type CommandSpec, type FlagSpec } from '../spec.js';
import { IGNORE_NOT_FOUND, LIMIT } from './flags.js';

const KEYN = 'ID is a key\'s id, the start of it that byok list shows, or its name (a name or the start of an\nid is looked up among the default workspace\'s keys, or --workspace\'s)';
/** get, update and delete: where a name or the start of an id is looked up. */
const KEY_WORKSPACE = {
  workspace: { type: 'string', value: 'ID', description: "look a name up among this workspace's keys (a whole id is found in any)", sets: 'workspace_id', nonEmpty: true },
} as const satisfies Record<string, FlagSpec>;

const BYOK_SETTINGS: Record<string, FlagSpec> = {
  name: { type: 'string', value: 'NAME', description: 'a name for people ("" clears it)' },
  region: { type: 'string', value: 'REGION', description: 'declared region: global, europe, us, or none', sets: BYOK_FLAG_FIELDS.region },
  zdr: { type: 'string', value: 'true|false|none', description: 'declared zero data retention (none clears it)', sets: BYOK_FLAG_FIELDS.zdr },
  models: { type: 'string', value: 'A,B', description: 'allowed models ("" allows all)', sets: BYOK_FLAG_FIELDS.models },
  users: { type: 'string', value: 'A,B', description: 'allowed user ids ("" allows all)', sets: BYOK_FLAG_FIELDS.users },
  'key-hashes': { type: 'string', value: 'A,B', description: 'allowed API key hashes ("" allows all)', sets: BYOK_FLAG_FIELDS['key-hashes'] },
  disabled: { type: 'string', value: 'true|false', description: 'disable or enable it' },
  fallback: { type: 'string', value: 'true|false', description: 'use it as a fallback', sets: BYOK_FLAG_FIELDS.fallback },
  'byok-only': { type: 'string', value: 'true|false', description: 'use only BYOK keys for this provider', sets: BYOK_FLAG_FIELDS['byok-only'] },
  required: { type: 'string', value: 'true|false', description: 'require this key', sets: BYOK_FLAG_FIELDS.required },
};

export const BYOK: CommandSpec[] = [
  // ── providers ──
  {
    noun: 'providers',
    verb: 'list',
    positionals: [0, 0],
    summary: 'the BYOK providers --provider takes',
    details: 'Each slug and the regions a key of it may declare.\nExample:\n  intern-tui providers list -q \'.[].slug\'',
    needs: [],
    json: true,
    module: 'byok',
    runner: 'providers',
  },
  // ── byok ──
  {
    noun: 'byok',
    verb: 'list',
    positionals: [0, 0],
    summary: 'list BYOK provider keys (labels only, never the keys)',
    flags: {
      provider: { type: 'string', value: 'SLUG', description: 'only this provider', nonEmpty: true },
      workspace: { type: 'string', value: 'ID', description: "this workspace's keys (without it, the account's default workspace's)", sets: 'workspace_id', nonEmpty: true },
      limit: LIMIT('keys'),
    },
    details: 'Example:\n  intern-tui byok list --provider openai --json id,label',
    needs: ['management_key'],
    json: true,
    module: 'byok',
    runner: 'list',
  },
  {
    noun: 'byok',
    verb: 'get',
    args: 'ID',
    positionals: [1, 1],
    summary: 'show one BYOK key',
    flags: { ...KEY_WORKSPACE },
    details: `${KEYN}.\nExample:\n  intern-tui byok get 3f0c1a2b --json`,
    needs: ['management_key'],
    json: true,
    module: 'byok',
    runner: 'get',
  },
  {
    noun: 'byok',
    verb: 'create',
    positionals: [0, 0],
    summary: 'add a provider key (from stdin, a file or a prompt)',
    flags: {
      provider: { type: 'string', value: 'SLUG', description: 'provider, e.g. openai (required)', nonEmpty: true },
      'key-stdin': { type: 'boolean', description: 'read the key from stdin' },
      'key-file': { type: 'string', value: 'FILE', description: 'read the key from FILE' },
      ...BYOK_SETTINGS,
      workspace: { type: 'string', value: 'ID', description: 'workspace id', sets: 'workspace_id', nonEmpty: true },
    },
    details: 'Without --key-stdin or --key-file the key is asked for with a masked prompt (on a TTY); never as\nan argument, which other local users can read in the process list.\nExample:\n  printf %s "$OPENAI_KEY" | intern-tui byok create --provider openai --key-stdin --name ci',
    needs: ['management_key'],
    json: true,
    module: 'byok',
    runner: 'create',
  },
  {
    noun: 'byok',
    verb: 'update',
    args: 'ID',
    positionals: [1, 1],
    summary: 'change or rotate a BYOK key',
    flags: {
      'key-stdin': { type: 'boolean', description: 'replace the key with one read from stdin' },
      'key-file': { type: 'string', value: 'FILE', description: 'replace the key with one read from FILE' },
      ...BYOK_SETTINGS,
      ...KEY_WORKSPACE,
    },
    details: `${KEYN}.\nExample:\n  intern-tui byok update 3f0c1a2b --disabled true`,
    needs: ['management_key'],
    json: true,
    module: 'byok',
    runner: 'update',
  },
  {
    noun: 'byok',
    verb: 'delete',
    args: 'ID',
    positionals: [1, 1],
    summary: 'delete a BYOK key',
    flags: { yes: { type: 'boolean', short: 'y', description: 'do not ask (required without a TTY)' }, 'ignore-not-found': IGNORE_NOT_FOUND, ...KEY_WORKSPACE },
    details: `${KEYN}.\nExample:\n  intern-tui byok delete 3f0c1a2b --yes`,
    needs: ['management_key'],
    json: true,
    module: 'byok',
    runner: 'remove',
  },
];
