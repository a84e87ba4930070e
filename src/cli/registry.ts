/**
 * The subcommand registry: every `intern-tui NOUN [VERB]` as data (usage, flags, help text,
 * credentials it needs) plus a `load` that imports its implementation on demand. Only this
 * file and exit.ts load at start-up, so `--help` and `--version` never pay for the client,
 * zod, Ink or the sandbox.
 *
 * To add a command: append a CommandSpec to COMMANDS (keep nouns together) and put its
 * implementation in src/cli/commands/<noun>.ts, exporting a Runner.
 */
import type { CredentialKind } from '../contract/routes.js';
import type { RunContext } from './context.js';
import { EXIT_HELP } from './exit.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Shown in help after the flag: `--name NAME`. */
  value?: string;
  description: string;
}

export type Runner = (ctx: RunContext) => Promise<number>;

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
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};
export const JSON_FLAG: FlagSpec = {
  type: 'boolean',
  value: '[FIELDS]',
  description: 'print the service objects as JSON; FIELDS (a,b,c) keeps only those fields',
};

const IDN = 'NAME is an intern id or name';

export const COMMANDS: CommandSpec[] = [
  // ── interns ──
  {
    noun: 'interns',
    verb: 'list',
    positionals: [0, 0],
    summary: 'list interns',
    flags: {
      status: { type: 'string', multiple: true, value: 'STATUS', description: 'only interns with this status (repeatable)' },
      limit: { type: 'string', value: 'N', description: 'at most N interns (default: all, fetched page by page)' },
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
      workspace: { type: 'string', value: 'ID', description: 'workspace id' },
      vault: { type: 'string', value: 'ID', description: 'vault id to attach' },
      provision: { type: 'boolean', description: 'provision it right away' },
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
    flags: { yes: { type: 'boolean', short: 'y', description: 'do not ask (required without a TTY)' } },
    details: `${IDN}.\nExample:\n  intern-tui interns delete reviewer --yes`,
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
    details: `${IDN}.\nExample:\n  intern-tui interns provision reviewer`,
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
    noun: 'connections',
    args: 'NAME',
    positionals: [1, 1],
    summary: "list an intern's connections",
    details: `${IDN}.\nExample:\n  intern-tui connections reviewer --json key`,
    needs: ['api_key'],
    json: true,
    load: () => import('./commands/interns.js').then((m) => m.connections),
  },
  // ── chat (h-cli) ── attach NAME goes here (h-speed)
  // ── auth: login, logout, auth status (h-signin) ──
  {
    noun: 'login',
    positionals: [0, 0],
    summary: 'sign in in the browser and save an API key (keychain, else the config file at 0600)',
    flags: {
      'no-browser': { type: 'boolean', description: 'only print the sign-in URL; do not open a browser' },
      headless: { type: 'boolean', description: 'no local listener: the page shows a code to paste (masked)' },
      oauth: { type: 'boolean', description: 'get the OAuth token for attaching (daemon access) from the profile\'s issuer' },
      issuer: { type: 'string', value: 'URL', description: 'with --oauth: the OAuth issuer (RFC 8414), saved in the profile' },
      'with-token': { type: 'boolean', description: 'read a key from stdin (or a masked prompt) instead of signing in, for CI' },
      kind: { type: 'string', value: 'KIND', description: 'with --with-token: api_key (default), management_key or oauth_token' },
    },
    details:
      'Signs in with PKCE: listens on a loopback port, prints "Open this URL to sign in:", and saves the\n' +
      'API key the service issues. Typed or pasted secrets are never echoed.\n' +
      'Examples:\n  intern-tui login --base-url https://openrouter.ai/api/v1\n  intern-tui login --headless\n' +
      '  intern-tui login --oauth --issuer https://auth.example.com\n  intern-tui login --with-token < key.txt',
    needs: [],
    load: () => import('./commands/auth.js').then((m) => m.login),
  },
  {
    noun: 'logout',
    positionals: [0, 0],
    summary: "remove the profile's stored credentials (keychain and config file)",
    details: 'Example:\n  intern-tui logout --profile work',
    needs: [],
    load: () => import('./commands/auth.js').then((m) => m.logout),
  },
  {
    noun: 'auth',
    verb: 'status',
    positionals: [0, 0],
    summary: 'which credentials are set, from where, and who the API key signs in as',
    details: 'Never prints a secret. Exit 4 when no credential is set or the service refuses the API key.\nExample:\n  intern-tui auth status --json',
    needs: [],
    json: true,
    load: () => import('./commands/auth.js').then((m) => m.status),
  },
  {
    noun: 'config',
    args: 'path|show',
    positionals: [1, 1],
    summary: 'where the config is; which credentials are set',
    needs: [],
    raw: true,
    load: () => import('./legacy.js').then((m) => m.configCommandRaw),
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
export function findCommand(argv: string[]): { spec: CommandSpec; rest: string[] } | { noun: string; verbs: CommandSpec[]; given?: string } | null {
  const [noun, verb] = argv;
  const family = COMMANDS.filter((c) => c.noun === noun);
  if (family.length === 0) return null;
  const nounOnly = family.find((c) => c.verb === undefined);
  if (nounOnly) return { spec: nounOnly, rest: argv.slice(1) };
  const spec = family.find((c) => c.verb === verb);
  if (spec) return { spec, rest: argv.slice(2) };
  return { noun: noun!, verbs: family, given: verb };
}

function flagLines(flags: Record<string, FlagSpec>): string[] {
  const rows = Object.entries(flags).map(([name, f]) => [`${f.short ? `-${f.short}, ` : ''}--${name}${f.value ? ` ${f.value}` : ''}`, f.description] as const);
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, d]) => `  ${l.padEnd(width)}  ${d}`);
}

export function commandHelp(c: CommandSpec): string {
  const lines = [`intern-tui ${commandTitle(c)}: ${c.summary}`, '', `Usage:\n  intern-tui ${commandTitle(c)} [flags]`];
  const own = { ...(c.flags ?? {}), ...(c.json ? { json: JSON_FLAG } : {}) };
  if (Object.keys(own).length) lines.push('', 'Flags:', ...flagLines(own));
  lines.push('', 'Global flags:', ...flagLines(GLOBAL_FLAGS));
  if (c.details) lines.push('', c.details);
  if (c.needs.length) lines.push('', `Needs: ${c.needs.join(', ')} (environment, or \`intern-tui login\`).`);
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
