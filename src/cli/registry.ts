/**
 * The subcommand registry: every `intern-tui NOUN [VERB]` as data (usage, flags, help text,
 * credentials it needs) plus a `load` that imports its implementation on demand. Only this
 * file and exit.ts load at start-up, so `--help` and `--version` never pay for the client,
 * zod, Ink or the sandbox.
 *
 * To add a command: append a CommandSpec to COMMANDS (keep nouns together) and put its
 * implementation in src/cli/commands/<noun>.ts, exporting a Runner (with its `jsonFields` when it
 * prints JSON).
 */
import { DETACH_NAME } from '../attach/detach.js';
import { CREDENTIAL_SOURCES, loginCommand, type CredentialKind } from '../contract/routes.js';
import type { RunContext } from './context.js';
import { closest } from '../client/closest.js';
import { EXIT_HELP } from './exit.js';
import { CONVERSATION_REF } from '../tui/state/ids.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /**
   * Shown in help after the flag: `--name NAME`. It also says what shell completion offers there
   * (complete.ts): `FILE` file names, `a|b|c` those words, `STATUS`, `REGION`, `KIND`, `SLUG` the
   * contract's lists; `--intern NAME` the interns and `--profile NAME` the profiles.
   */
  value?: string;
  description: string;
  /**
   * The API field the flag sets, where it is named otherwise: a service message that names the
   * field ("pass workspace_id") is followed by the flag that sets it (run.ts).
   */
  sets?: string;
  /**
   * An empty value is refused (exit 2) before anything is sent: a filter or a target given as ""
   * (a variable unset in a script) would otherwise be left out, and the command would act on all,
   * or somewhere else (`vault put --intern ""` into the workspace's vault).
   */
  nonEmpty?: boolean;
  /**
   * The value is optional (a string flag): `--resume` alone is "", `--resume WORD` takes the next
   * word when it fits this pattern (else the word stays an argument: a prompt), `--resume=WORD` any.
   */
  optionalValue?: RegExp;
}

/**
 * A command's implementation. One whose spec has `json` names the top-level fields its JSON output
 * may hold (`jsonFields`, set beside it): `--json FIELDS` is checked against them before the command
 * runs, so a misspelt field stops a delete before it is sent, not after.
 */
export interface Runner {
  (ctx: RunContext): Promise<number>;
  jsonFields?: readonly string[];
}

export interface CommandSpec {
  noun: string;
  /** Absent for a noun-only command (`models`, `chat`, `connections`). */
  verb?: string;
  /** Positional arguments as shown in usage, e.g. `NAME [PROMPT]`. */
  args?: string;
  /** How many positionals it takes: [min, max]. */
  positionals: [number, number];
  summary: string;
  /** More help: details and examples, shown by `--help` after the flags. */
  details?: string;
  flags?: Record<string, FlagSpec>;
  /** The credentials it needs; checked before the command runs (exit 4 when one is missing). */
  needs: CredentialKind[];
  /** `--json` output is available. */
  json?: boolean;
  /**
   * Why `--sandbox` makes no sense here (a command about the configured service's credentials);
   * given, it is refused (exit 2) rather than ignored.
   */
  noSandbox?: string;
  /**
   * The command parses its own argv (rest after noun and verb) instead of the registry's parser:
   * `sandbox`, `login`, `config` keep their own flags.
   */
  raw?: boolean;
  load: () => Promise<Runner>;
}

/** Flags every registry command accepts. Credentials are not among them: see secretFlagRefusal. */
export const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  profile: { type: 'string', value: 'NAME', description: 'profile in the config file (or INTERN_TUI_PROFILE)' },
  'base-url': { type: 'string', value: 'URL', description: 'service base URL with /api/v1 (or OPENROUTER_BASE_URL)' },
  sandbox: { type: 'boolean', description: 'use a temporary built-in sandbox with demo data' },
  'no-color': { type: 'boolean', description: 'no colours (as NO_COLOR=1 does)' },
  'no-pager': { type: 'boolean', description: 'no pager for output longer than the terminal ($PAGER, less -FRX)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};
export const JSON_FLAG: FlagSpec = {
  type: 'boolean',
  value: '[FIELDS]',
  description: 'print the service objects as JSON; FIELDS (a,b,c) keeps only those',
};

/** `--jq` and `--template`, on every command that prints JSON (gh's flags and short forms). */
export const FILTER_FLAGS: Record<string, FlagSpec> = {
  jq: { type: 'string', short: 'q', value: 'EXPR', description: 'filter the JSON output with jq (strings print raw), e.g. .[].name' },
  template: { type: 'string', short: 't', value: 'TPL', description: "print each item by a jq string template, e.g. '\\(.name)\\t\\(.status)'" },
};

/** `--watch` on interns list and get. */
const WATCH: FlagSpec = { type: 'boolean', description: 'ask every 2 s: redraw on a change (piped: a JSON line per change); ctrl+c ends' };

/** Every list's `--limit`. */
const LIMIT = (what: string): FlagSpec => ({ type: 'string', value: 'N', description: `at most N ${what} (default: all, fetched page by page)` });

/** Every delete's: what is not there is what was asked for (kubectl's flag). */
const IGNORE_NOT_FOUND: FlagSpec = { type: 'boolean', description: 'exit 0 when it does not exist (said on stderr)' };

const IDN = 'NAME is an intern\'s name, its id, or the start of its id that interns list shows';
/** How long `--wait` and `interns wait` wait unless `--timeout` says otherwise. */
export const WAIT_DEFAULT = '10m';
const WAIT_TIMEOUT: FlagSpec = { type: 'string', value: 'DURATION', description: `with --wait: give up after this long (default ${WAIT_DEFAULT})` };
const KEYN = 'ID is a key\'s id, the start of it that byok list shows, or its name (a name or the start of an\nid is looked up among the default workspace\'s keys, or --workspace\'s)';
/** get, update and delete: where a name or the start of an id is looked up. */
const KEY_WORKSPACE = {
  workspace: { type: 'string', value: 'ID', description: "look a name up among this workspace's keys (a whole id is found in any)", sets: 'workspace_id', nonEmpty: true },
} as const satisfies Record<string, FlagSpec>;

/** The API field each BYOK settings flag sets: the flags' `sets` below, and the body `byok create` and `update` build. */
export const BYOK_FLAG_FIELDS = {
  region: 'declared_region',
  zdr: 'declared_zdr',
  models: 'allowed_models',
  users: 'allowed_user_ids',
  'key-hashes': 'allowed_api_key_hashes',
  disabled: 'disabled',
  fallback: 'is_fallback',
  'byok-only': 'is_byok_only',
  required: 'is_required',
} as const;

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

/** `login`, and gh's name for it, `auth login`: one spec. */
const LOGIN: Omit<CommandSpec, 'noun'> = {
  positionals: [0, 0],
  summary: 'sign in in the browser and save the API key',
  flags: {
    'no-browser': { type: 'boolean', description: 'only print the sign-in URL; do not open a browser' },
    headless: { type: 'boolean', description: 'no local listener: the page shows a code to paste (masked); not with --oauth' },
    oauth: { type: 'boolean', description: 'get the OAuth token for attaching (daemon access) from the profile\'s issuer' },
    issuer: { type: 'string', value: 'URL', description: 'with --oauth: the OAuth issuer (RFC 8414), saved in the profile' },
    'with-token': { type: 'boolean', description: 'read a key from stdin (or a masked prompt) instead of signing in, for CI' },
    kind: { type: 'string', value: 'KIND', description: 'with --with-token: api_key (default), management_key or oauth_token' },
  },
  details:
    'Signs in with PKCE: listens on a loopback port, prints "Open this URL to sign in:", and saves the\n' +
    'API key the service issues: in the system keychain, else in the config file at mode 0600.\n' +
    'Typed or pasted secrets are never echoed.\n' +
    'Examples:\n  intern-tui login --base-url https://openrouter.ai/api/v1\n  intern-tui login --headless\n' +
    '  intern-tui login --oauth --issuer https://auth.example.com\n  intern-tui login --with-token < key.txt',
  needs: [],
  noSandbox: 'it signs in to the configured service and saves its credentials; the built-in sandbox has its own keys',
  load: () => import('./commands/auth.js').then((m) => m.login),
};

/** `logout`, and gh's name for it, `auth logout`: one spec. */
const LOGOUT: Omit<CommandSpec, 'noun'> = {
  positionals: [0, 0],
  summary: "remove the profile's stored credentials",
  details:
    'From the system keychain and the config file. A --profile the config file lacks is refused (exit 2),\n' +
    'as every command refuses it, unless the keychain still held its secrets (then they are removed).\n' +
    'Example:\n  intern-tui logout --profile work',
  needs: [],
  noSandbox: "it removes the configured profile's credentials; the built-in sandbox keeps none",
  load: () => import('./commands/auth.js').then((m) => m.logout),
};

export const COMMANDS: CommandSpec[] = [
  // ── interns ──
  {
    noun: 'interns',
    verb: 'list',
    positionals: [0, 0],
    summary: 'list interns',
    flags: {
      status: { type: 'string', multiple: true, value: 'STATUS', description: 'only interns with this status (repeatable, or comma-separated: running,failed)', nonEmpty: true },
      limit: LIMIT('interns'),
      watch: WATCH,
    },
    details: 'Example:\n  intern-tui interns list --json id,name,status | jq .',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.list),
  },
  {
    noun: 'interns',
    verb: 'get',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'show one intern',
    flags: { watch: WATCH },
    details: `${IDN}.\nExample:\n  intern-tui interns get reviewer --json status`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.get),
  },
  {
    noun: 'interns',
    verb: 'create',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'create an intern',
    flags: {
      description: { type: 'string', value: 'TEXT', description: 'what it is for' },
      instructions: { type: 'string', value: 'TEXT', description: 'its standing instructions' },
      'instructions-file': { type: 'string', value: 'FILE', description: 'read the instructions from FILE (- for stdin)' },
      workspace: { type: 'string', value: 'ID', description: 'workspace id', sets: 'workspace_id', nonEmpty: true },
      vault: { type: 'string', value: 'ID', description: 'vault id to attach', sets: 'vault_id', nonEmpty: true },
      model: { type: 'string', value: 'MODEL', description: "its model (default: the workspace's)" },
      'if-not-exists': { type: 'boolean', description: 'one of yours has this name already: print it, change nothing, exit 0' },
      provision: { type: 'boolean', description: 'provision it right away' },
      wait: { type: 'boolean', description: 'with --provision: return once it is running (see interns wait)' },
      timeout: WAIT_TIMEOUT,
    },
    details: 'Example:\n  intern-tui interns create reviewer --description "Reviews PRs" --provision --json id',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.create),
  },
  {
    noun: 'interns',
    verb: 'update',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'change an intern',
    flags: {
      name: { type: 'string', value: 'NEW', description: 'rename it' },
      description: { type: 'string', value: 'TEXT', description: 'new description ("" clears it)' },
      instructions: { type: 'string', value: 'TEXT', description: 'new instructions ("" clears them)' },
      'instructions-file': { type: 'string', value: 'FILE', description: 'read the instructions from FILE (- for stdin)' },
      model: { type: 'string', value: 'MODEL', description: 'new model ("" clears it)' },
    },
    details: `${IDN}.\nExample:\n  intern-tui interns update reviewer --model openai/gpt-5 --json`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.update),
  },
  {
    noun: 'interns',
    verb: 'delete',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'delete an intern and its workspace',
    flags: {
      yes: { type: 'boolean', short: 'y', description: 'do not ask (required without a TTY)' },
      'ignore-not-found': IGNORE_NOT_FOUND,
      wait: { type: 'boolean', description: 'return once it is gone (see interns wait)' },
      timeout: WAIT_TIMEOUT,
    },
    details: `${IDN}.\nExamples:\n  intern-tui interns delete reviewer --yes\n  intern-tui interns delete reviewer --yes --wait && intern-tui interns create reviewer`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.remove),
  },
  {
    noun: 'interns',
    verb: 'provision',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'start provisioning an intern',
    flags: {
      wait: { type: 'boolean', description: 'return once it is running (see interns wait)' },
      timeout: WAIT_TIMEOUT,
    },
    details: `${IDN}.\nExamples:\n  intern-tui interns provision reviewer\n  intern-tui interns provision reviewer --wait && intern-tui chat reviewer "hello"`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.provision),
  },
  {
    noun: 'interns',
    verb: 'suspend',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'suspend an intern',
    details: `${IDN}.\nExample:\n  intern-tui interns suspend reviewer`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.suspend),
  },
  {
    noun: 'interns',
    verb: 'wait',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'wait for a status (running by default), or deletion',
    flags: {
      for: { type: 'string', value: 'STATUS', description: 'the status to wait for (default running), or deleted' },
      timeout: { type: 'string', value: 'DURATION', description: `give up after this long: 90s, 5m, 1h30m (default ${WAIT_DEFAULT})` },
    },
    details: [
      `${IDN}.`,
      'Asks every second, then less often (every 5 s at most). Exit 0 once the status is',
      'reached (--json prints the intern); 1 when the intern fails (failed, destroy_failed: nothing',
      'moves it out of those) or the time is up. On a terminal each change of status shows on stderr.',
      'Examples:',
      '  intern-tui interns create reviewer --provision && intern-tui interns wait reviewer',
      '  intern-tui interns delete old-bot --yes && intern-tui interns wait old-bot --for deleted',
    ].join('\n'),
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.wait),
  },
  {
    noun: 'connections',
    verb: 'list',
    args: 'NAME',
    positionals: [1, 1],
    summary: "list an intern's connections",
    details: `${IDN}.\nExample:\n  intern-tui connections list reviewer --json key`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.connections),
  },
  {
    noun: 'connections',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'the same as connections list NAME',
    details: `${IDN}.\nExample:\n  intern-tui connections reviewer --json key`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.connections),
  },
  // ── providers ──
  {
    noun: 'providers',
    verb: 'list',
    positionals: [0, 0],
    summary: 'the BYOK providers --provider takes',
    details: 'Each slug and the regions a key of it may declare.\nExample:\n  intern-tui providers list -q \'.[].slug\'',
    needs: [],
    json: true,
    load: () => import('./commands/byok.js').then((m) => m.providers),
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
    load: () => import('./commands/byok.js').then((m) => m.list),
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
    load: () => import('./commands/byok.js').then((m) => m.get),
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
    load: () => import('./commands/byok.js').then((m) => m.create),
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
    load: () => import('./commands/byok.js').then((m) => m.update),
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
    load: () => import('./commands/byok.js').then((m) => m.remove),
  },
  // ── vault ──
  {
    noun: 'vault',
    verb: 'list',
    positionals: [0, 0],
    summary: "list the workspace's or an intern's secrets (no values)",
    flags: {
      intern: { type: 'string', value: 'NAME', description: "the intern's own secrets (id or name)", nonEmpty: true },
      effective: { type: 'boolean', description: 'with --intern: what the intern sees (intern, attached vault, workspace)' },
      limit: LIMIT('secrets'),
    },
    details: 'Names, hosts and fingerprints only: the service never returns a value.\nExample:\n  intern-tui vault list --intern reviewer --effective --json name,scope',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/vault.js').then((m) => m.list),
  },
  {
    noun: 'vault',
    verb: 'put',
    args: 'SECRET',
    positionals: [1, 2],
    summary: 'add or replace a secret (from stdin, a file, a prompt)',
    flags: {
      host: { type: 'string', multiple: true, value: 'HOST', description: 'a host the secret may be sent to (repeatable, at least one)' },
      'value-stdin': { type: 'boolean', description: 'read the value from stdin' },
      'value-file': { type: 'string', value: 'FILE', description: 'read the value from FILE' },
      intern: { type: 'string', value: 'NAME', description: "put it in the intern's own vault (id or name)", nonEmpty: true },
    },
    details:
      'Without --value-stdin or --value-file the value is asked for with a masked prompt (on a TTY); never\n' +
      'as an argument, which other local users can read in the process list.\n' +
      'Example:\n  printf %s "$GITHUB_TOKEN" | intern-tui vault put github_token --host api.github.com --value-stdin',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/vault.js').then((m) => m.put),
  },
  {
    noun: 'vault',
    verb: 'delete',
    args: 'SECRET',
    positionals: [1, 1],
    summary: 'delete a secret',
    flags: {
      intern: { type: 'string', value: 'NAME', description: "from the intern's own vault (id or name)", nonEmpty: true },
      yes: { type: 'boolean', short: 'y', description: 'do not ask (required without a TTY)' },
      'ignore-not-found': IGNORE_NOT_FOUND,

    },
    details: 'Example:\n  intern-tui vault delete github_token --yes',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/vault.js').then((m) => m.remove),
  },
  {
    noun: 'vault',
    verb: 'copy',
    args: 'SECRET...',
    positionals: [1, 100],
    summary: "copy workspace secrets into an intern's own vault",
    flags: { intern: { type: 'string', value: 'NAME', description: 'the intern to copy into (id or name; required)', nonEmpty: true } },
    details: 'Example:\n  intern-tui vault copy github_token slack_token --intern reviewer',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/vault.js').then((m) => m.copy),
  },
  {
    noun: 'models',
    args: '[QUERY]',
    positionals: [0, 1],
    summary: 'list the models an intern can use',
    flags: { limit: LIMIT('models') },
    details: 'QUERY keeps the models whose id or name holds it.\nExample:\n  intern-tui models claude --json id,context_length',
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/models.js').then((m) => m.models),
  },
  // ── chat ──
  {
    noun: 'chat',
    args: 'NAME [PROMPT]',
    positionals: [1, 2],
    summary: 'send a prompt and stream the answer to stdout',
    flags: {
      session: { type: 'string', value: 'ID', description: 'continue this session (the id is printed on stderr at the end)', sets: 'session_id', nonEmpty: true },
      approve: { type: 'boolean', description: 'answer permission requests with allow (needed without a TTY)' },
      deny: { type: 'boolean', description: 'answer permission requests with reject (needed without a TTY)' },
      'self-drive': { type: 'boolean', description: 'let the intern run without asking for permission' },
      'no-wait': { type: 'boolean', description: 'start a self-drive run and return: print its session id, not the answer' },
      resume: { type: 'string', value: '[ID]', optionalValue: CONVERSATION_REF, description: 'continue the latest saved conversation, or ID (chat list NAME shows them)' },
      'idle-timeout': { type: 'string', value: 'DURATION', description: 'give up on a turn that shows nothing this long (30s, 5m): exit 1' },
    },
    details: [
      `${IDN}.`,
      'Without PROMPT, the prompt is read from stdin (all of it) when stdin is not a terminal; with',
      'PROMPT stdin is not read, so a question and a file go on stdin together (last example). On a',
      'terminal it is a conversation: prompt after prompt in one session until ctrl+d or exit; ctrl+c',
      'stops the turn, as it streams or asks (one prompt under --json or --no-wait). Permission',
      'requests are asked on stderr on a terminal; without one, --approve or --deny answers them',
      '(otherwise the command exits 2). --json prints every chunk as one JSON object per line',
      '(NDJSON). Ctrl+C cancels a single prompt\'s run (exit 130).',
      '--no-wait starts the run (POST /invoke: self-drive, nothing asks) and prints its session id',
      'on stdout; with --session ID (an id --no-wait printed) a running turn takes the prompt in.',
      'Every conversation is saved as it streams, under $XDG_STATE_HOME/intern-tui/sessions/ (not a',
      '--no-wait run); --resume goes on with the latest one (its transcript shown on a terminal, its',
      'session continued), --resume ID with that one. The TUI\'s chat saves into the same place.',
      'The answer is written as fast as its reader takes it; a stream past the client\'s cap (README)',
      'is closed, which cancels the run (exit 1). On a terminal, a turn that shows nothing for a while',
      'says on stderr that the intern is still working, and for how long. --idle-timeout gives up after',
      'DURATION of that (a unit is needed; 0s, the default, waits without end): it closes the stream,',
      'which cancels the turn, and prints the command that goes on in its session (exit 1).',
      'Examples:',
      '  intern-tui chat reviewer',
      '  intern-tui chat reviewer "Summarise open PRs"',
      '  git diff | intern-tui chat reviewer --approve > review.md',
      '  { echo "Review this diff:"; git diff; } | intern-tui chat reviewer',
      '  intern-tui chat reporter "Write the nightly report" --no-wait',
      '  intern-tui chat reviewer --resume',
    ].join('\n'),
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/chat.js').then((m) => m.chat),
  },
  {
    noun: 'chat',
    verb: 'list',
    args: 'NAME',
    positionals: [1, 1],
    summary: "list an intern's saved conversations",
    details: [
      `${IDN}.`,
      'Conversations are saved per service host under $XDG_STATE_HOME/intern-tui/sessions/ (default',
      '~/.local/state/intern-tui), by the TUI and by chat; the most recently used first. An intern',
      'named list or export is reached as chat by its id.',
      'Example:',
      '  intern-tui chat list reviewer --json id,title',
    ].join('\n'),
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/chatSessions.js').then((m) => m.list),
  },
  {
    noun: 'chat',
    verb: 'export',
    args: 'NAME',
    positionals: [1, 1],
    summary: 'a saved conversation as Markdown or JSON Lines',
    flags: {
      session: { type: 'string', value: 'ID', description: 'the conversation (an id chat list shows, or its start); default the latest', nonEmpty: true },
      format: { type: 'string', value: 'md|jsonl', description: 'Markdown (readable on GitHub) or JSON Lines (one event a line)' },
      output: { type: 'string', short: 'o', value: 'FILE', description: 'write to FILE (0600) instead of stdout', nonEmpty: true },
    },
    details: [
      `${IDN}.`,
      'JSON Lines: a conversation line, then per turn its prompt, reasoning, tool calls, replies,',
      'answer, notes and end (status, usage). Everything is as the client saved it, control',
      'characters removed.',
      'Examples:',
      '  intern-tui chat export reviewer --format md -o review.md',
      '  intern-tui chat export reviewer --session 20261128-1245 --format jsonl | jq .type',
    ].join('\n'),
    needs: ['api_key'],
    load: () => import('./commands/chatSessions.js').then((m) => m.exportConversation),
  },
  // ── attach ──
  {
    noun: 'attach',
    args: 'NAME',
    // The second is --record's FILE (attach.ts refuses it without --record).
    positionals: [1, 2],
    flags: {
      record: { type: 'boolean', value: '[FILE]', description: 'record the session (asciicast v2) to FILE, else under the state folder' },
      'record-input': { type: 'boolean', description: 'with --record: record typed input too (it can hold passwords)' },
    },
    summary: `the intern's terminal, full screen (${DETACH_NAME} detaches)`,
    details: [
      `${IDN}.`,
      "The remote's output reaches this terminal as its programs wrote it (the lines of a flood",
      `that scroll off unseen are left out); resizing this terminal resizes the remote. ${DETACH_NAME} detaches`,
      '(the shell keeps running); when the remote exits, the command ends. Needs an interactive',
      'terminal and an OAuth token (daemon access is personal).',
      'With --record (or the profile\'s "record": "always"), the daemon\'s output is written as it comes',
      'to an asciicast v2 file: $XDG_STATE_HOME/intern-tui/recordings/NAME-TIME.cast unless FILE is given;',
      '`intern-tui replay FILE` or asciinema plays it.',
      'Examples:',
      '  intern-tui attach runner',
      '  intern-tui attach runner --record session.cast',
    ].join('\n'),
    needs: ['oauth_token'],
    load: () => import('./commands/attach.js').then((m) => m.attach),
  },
  {
    noun: 'replay',
    args: 'FILE',
    positionals: [1, 1],
    summary: 'play a recording (asciicast v2) in this terminal',
    flags: {
      speed: { type: 'string', value: 'N', description: 'play N times as fast (0.5 is half speed)' },
      'idle-limit': { type: 'string', value: 'SECONDS', description: 'play pauses longer than this as this long' },
    },
    details: [
      'Plays an attach recording (attach --record) or any asciicast v2 file at its own pace, through',
      'the terminal emulator: its control sequences are drawn, never passed to this terminal raw.',
      'space pauses and plays, left and right seek 5 seconds, q quits. A file that is not asciicast v2',
      'is refused in one line (exit 1).',
      'Examples:',
      '  intern-tui replay ~/.local/state/intern-tui/recordings/runner-2026-11-28T12-59-03Z.cast',
      '  intern-tui replay session.cast --speed 2 --idle-limit 1',
    ].join('\n'),
    needs: [],
    load: () => import('./commands/replay.js').then((m) => m.replay),
  },
  // ── auth: login, logout, auth status (h-signin) ──
  { noun: 'login', ...LOGIN },
  { noun: 'logout', ...LOGOUT },
  { noun: 'auth', verb: 'login', ...LOGIN },
  { noun: 'auth', verb: 'logout', ...LOGOUT },
  {
    noun: 'auth',
    verb: 'token',
    positionals: [0, 0],
    summary: 'print the API key (or --kind) into a pipe',
    flags: { kind: { type: 'string', value: 'KIND', description: 'api_key (default), management_key or oauth_token' } },
    details:
      'As gh auth token: the credential the commands would use (the environment, then the profile), on\n' +
      'stdout with no line break after it. Refused when stdout is a terminal (exit 2): a secret is never\n' +
      'drawn on the screen. Exit 4 when none is set.\nExample:\n  curl -H "Authorization: Bearer $(intern-tui auth token)" "$OPENROUTER_BASE_URL/key"',
    needs: [],
    noSandbox: "it prints the configured credential; the built-in sandbox's are made afresh each time",
    load: () => import('./commands/auth.js').then((m) => m.token),
  },
  {
    noun: 'auth',
    verb: 'switch',
    args: 'PROFILE',
    positionals: [1, 1],
    summary: 'make PROFILE the default (as config use PROFILE)',
    details: 'Example:\n  intern-tui auth switch work',
    needs: [],
    noSandbox: 'it sets the config file\'s default profile; the built-in sandbox has none',
    load: () => import('./commands/auth.js').then((m) => m.switchProfile),
  },
  {
    noun: 'auth',
    verb: 'status',
    positionals: [0, 0],
    summary: 'which credentials are set, and whose the API key is',
    details: 'Where each credential comes from, who the API key signs in as (GET /key), and whether the\nservice takes the management key. Never prints a secret. Exit 4 when no credential is set or the\nservice refuses a key, 1 when it could not be reached to check them.\nExample:\n  intern-tui auth status --json',
    needs: [],
    json: true,
    noSandbox: 'it reports the configured credentials; the built-in sandbox has keys of its own each time',
    load: () => import('./commands/auth.js').then((m) => m.status),
  },
  {
    noun: 'config',
    verb: 'list',
    positionals: [0, 0],
    summary: 'the profiles and which credentials each keeps',
    details: 'Reads the config file (and asks the system keychain whether a profile keeps a credential there).\nExample:\n  intern-tui config list --json name,credentials',
    needs: [],
    json: true,
    noSandbox: 'it lists the config file\'s profiles; the built-in sandbox has none',
    load: () => import('./commands/config.js').then((m) => m.list),
  },
  {
    noun: 'config',
    args: 'path|show|use [PROFILE]',
    positionals: [1, 2],
    summary: 'config: its path, what is set, the default profile',
    needs: [],
    raw: true,
    load: () => import('./legacy.js').then((m) => m.configCommandRaw),
  },
  {
    noun: 'completion',
    args: 'bash|zsh|fish',
    positionals: [1, 1],
    summary: 'print the shell script for tab completion',
    details: [
      'Each tab asks intern-tui what may come next; intern names, BYOK key ids and secret names come',
      'from the service the line would use when it answers quickly (never from the built-in sandbox).',
      'Load it at shell start:',
      '  bash (~/.bashrc):  eval "$(intern-tui completion bash)"',
      '  zsh (~/.zshrc, after compinit):  eval "$(intern-tui completion zsh)"',
      '  fish (~/.config/fish/config.fish):  intern-tui completion fish | source',
    ].join('\n'),
    needs: [],
    load: () => import('./commands/completion.js').then((m) => m.completion),
  },
  {
    noun: 'sandbox',
    positionals: [0, 0],
    summary: 'run the local sandbox service',
    needs: [],
    raw: true,
    load: () => import('./legacy.js').then((m) => m.sandboxCommand),
  },
];

export function commandTitle(c: CommandSpec): string {
  return [c.noun, c.verb, c.args].filter(Boolean).join(' ');
}

/** Finds the command named by the start of argv: [spec, rest] or the noun's verbs when the verb is missing/unknown. */
/** The refusal of a first word that is no command, with the one it probably was. */
export function unknownCommand(word: string): string {
  const near = closest(word, COMMANDS.map((c) => c.noun));
  return `unknown command "${word.slice(0, 40)}"${near ? ` (did you mean "${near}"?)` : ''}; see intern-tui --help`;
}

export function findCommand(argv: string[]): { spec: CommandSpec; rest: string[] } | { noun: string; verbs: CommandSpec[]; given?: string } | null {
  const [noun, verb] = argv;
  const family = COMMANDS.filter((c) => c.noun === noun);
  if (family.length === 0) return null;
  // A verb first (`chat list NAME`, `connections list NAME`), then a noun that stands alone (`chat NAME`, `connections NAME`).
  const spec = verb === undefined ? undefined : family.find((c) => c.verb === verb);
  if (spec) return { spec, rest: argv.slice(2) };
  const nounOnly = family.find((c) => c.verb === undefined);
  if (nounOnly) return { spec: nounOnly, rest: argv.slice(1) };
  return { noun: noun!, verbs: family, given: verb };
}

function flagLines(flags: Record<string, FlagSpec>): string[] {
  const rows = Object.entries(flags).map(([name, f]) => [`${f.short ? `-${f.short}, ` : ''}--${name}${f.value ? ` ${f.value}` : ''}`, f.description] as const);
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, d]) => `  ${l.padEnd(width)}  ${d}`);
}

export function commandHelp(c: CommandSpec): string {
  const lines = [`intern-tui ${commandTitle(c)}: ${c.summary}`, '', `Usage:\n  intern-tui ${commandTitle(c)} [flags]`];
  const own = { ...(c.flags ?? {}), ...(c.json ? { json: JSON_FLAG, ...FILTER_FLAGS } : {}) };
  if (Object.keys(own).length) lines.push('', 'Flags:', ...flagLines(own));
  lines.push('', 'Global flags:', ...flagLines(GLOBAL_FLAGS));
  if (c.details) lines.push('', c.details);
  // Each kind with its own way in (routes.ts): plain `login` stores an API key only.
  if (c.needs.length) lines.push('', ...c.needs.map((k) => `Needs ${CREDENTIAL_SOURCES[k].aLabel}: set ${CREDENTIAL_SOURCES[k].env}, or store it with\n  ${loginCommand(k)}`));
  lines.push('', EXIT_HELP);
  return lines.join('\n');
}

export function nounHelp(noun: string, verbs: CommandSpec[]): string {
  const width = Math.max(...verbs.map((v) => commandTitle(v).length));
  return [`intern-tui ${noun}: commands`, '', ...verbs.map((v) => `  intern-tui ${commandTitle(v).padEnd(width)}  ${v.summary}`), '', `Run intern-tui ${noun} VERB --help for flags.`, ''].join('\n');
}

/** The command list for the top-level --help. */
export function commandList(): string {
  const width = Math.max(...COMMANDS.map((c) => commandTitle(c).length));
  return COMMANDS.map((c) => `  intern-tui ${commandTitle(c).padEnd(width)}  ${c.summary}`).join('\n');
}
