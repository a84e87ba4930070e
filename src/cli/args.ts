/** Argument parsing: argv in, a command out. Pure, so it is tested without a process. */
import { parseArgs } from 'node:util';
import type { Flags } from './settings.js';
import { EXIT_HELP, argsErrorMessage, nearest } from './exit.js';
import { commandList, findCommand, unknownCommand } from './registry.js';

export type Command =
  | { kind: 'help'; text?: string }
  | { kind: 'version' }
  | { kind: 'tui'; flags: Flags; forceSandbox: boolean }
  | { kind: 'sandbox'; options: SandboxFlags }
  | { kind: 'login'; flags: Flags }
  | { kind: 'config'; action: 'path' | 'show'; flags: Flags }
  | { kind: 'config'; action: 'use'; profile: string; flags: Flags };

export interface SandboxFlags {
  host: string;
  port: number;
  dataDir?: string;
  workspacesDir?: string;
  manifest?: string;
  seed: (typeof SEEDS)[number];
  deadlineMs?: number;
  daemonCommand?: string;
  stepMs?: number;
  /** --secret-file or --secret-fd: where the sealing key's text is (never the text itself, which /proc would show). */
  secret?: { file: string } | { fd: number };
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The TUI's flags (and those of `login` and `config` before the registry had them); shell completion offers them too. */
export const TUI_OPTIONS = {
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'management-key': { type: 'string' },
  'oauth-token': { type: 'string' },
  scrollback: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  sandbox: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'no-mouse': { type: 'boolean' },
} as const;

/** What `sandbox --seed` starts with. */
export const SEEDS = ['demo', 'empty'] as const;

/** `sandbox`'s flags. */
export const SANDBOX_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'workspaces-dir': { type: 'string' },
  manifest: { type: 'string' },
  seed: { type: 'string' },
  'deadline-ms': { type: 'string' },
  'daemon-command': { type: 'string' },
  'step-ms': { type: 'string' },
  'secret-file': { type: 'string' },
  'secret-fd': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${value.slice(0, 40)}"`);
  }
  return Number(value);
}

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

/** `command` names where the help is, as a registry command's refusal says it (`config`; '' for the TUI). */
function parse(args: string[], options: Options, command: string): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError(`${argsErrorMessage(e, Object.keys(options), command || 'the TUI')}; see ${['intern-tui', command].filter(Boolean).join(' ')} --help`);
  }
}

export function parseCommand(argv: string[]): Command {
  const [first, ...rest] = argv;
  if (first === 'sandbox') {
    const { values, positionals } = parse(rest, SANDBOX_OPTIONS, 'sandbox');
    if (values.help) return { kind: 'help', text: SANDBOX_HELP };
    if (positionals.length > 0) throw new UsageError(`sandbox takes no arguments besides flags, got "${positionals[0]}"`);
    const seed = (values.seed as string | undefined) ?? 'demo';
    if (!(SEEDS as readonly string[]).includes(seed)) throw new UsageError(`--seed must be ${SEEDS.join(' or ')}, not "${seed.slice(0, 40)}"${nearest(seed, SEEDS)}`);
    const secretFile = values['secret-file'] as string | undefined;
    // 0-2 are stdin, stdout and stderr; past 2^20 no process has a descriptor.
    const secretFd = int('secret-fd', values['secret-fd'] as string | undefined, 3, 1 << 20);
    if (secretFile !== undefined && secretFd !== undefined) throw new UsageError('--secret-file and --secret-fd cannot be used together: give the secret one way');
    if (secretFile === '') throw new UsageError('--secret-file needs a file name');
    return {
      kind: 'sandbox',
      options: {
        host: (values.host as string | undefined) ?? '127.0.0.1',
        port: int('port', values.port as string | undefined, 0, 65535) ?? 0,
        dataDir: values['data-dir'] as string | undefined,
        workspacesDir: values['workspaces-dir'] as string | undefined,
        manifest: values.manifest as string | undefined,
        seed: seed as SandboxFlags['seed'],
        deadlineMs: int('deadline-ms', values['deadline-ms'] as string | undefined, 1, 3_600_000),
        daemonCommand: values['daemon-command'] as string | undefined,
        stepMs: int('step-ms', values['step-ms'] as string | undefined, 1, 600_000),
        ...(secretFile !== undefined ? { secret: { file: secretFile } } : secretFd !== undefined ? { secret: { fd: secretFd } } : {}),
      },
    };
  }
  const isSub = first === 'login' || first === 'config';
  const { values, positionals } = parse(isSub ? rest : argv, TUI_OPTIONS, isSub ? first : '');
  if (values.help) return { kind: 'help', ...(first === 'config' ? { text: CONFIG_HELP } : {}) };
  if (values.version) return { kind: 'version' };
  const flags: Flags = {
    profile: values.profile as string | undefined,
    baseUrl: values['base-url'] as string | undefined,
    apiKey: values['api-key'] as string | undefined,
    managementKey: values['management-key'] as string | undefined,
    oauthToken: values['oauth-token'] as string | undefined,
    scrollback: int('scrollback', values.scrollback as string | undefined, 0, 1_000_000),
    noColor: values['no-color'] === true ? true : undefined,
    noMouse: values['no-mouse'] === true ? true : undefined,
  };
  // Like every command, login and config take no key on the command line (other users can read
  // it there): login reads it from stdin or a prompt, and config only says where keys come from.
  if (isSub) {
    const given = (['api-key', 'management-key', 'oauth-token'] as const).find((f) => values[f] !== undefined);
    if (given) throw new UsageError(`${first} takes no --${given}: keys come from the environment or intern-tui login${first === 'login' ? ' --with-token (stdin)' : ''}, never the command line; see intern-tui ${first} --help`);
  }
  if (first === 'login') {
    if (positionals.length > 0) throw new UsageError('login takes no arguments besides flags');
    return { kind: 'login', flags };
  }
  if (first === 'config') {
    // The built-in sandbox is made afresh by each command (a new port, new keys) and has no
    // settings to show or keep; shown anyway, the real ones would pass for what --sandbox uses.
    if (values.sandbox) throw new UsageError('config takes no --sandbox: the built-in sandbox is made afresh by each command, with a base URL and keys of its own, and has no settings to show; see intern-tui config --help');
    const action = positionals[0];
    if (action === 'use') {
      if (positionals.length !== 2) throw new UsageError('usage: intern-tui config use PROFILE');
      return { kind: 'config', action, profile: positionals[1]!, flags };
    }
    if (action !== 'path' && action !== 'show') throw new UsageError('usage: intern-tui config path|show|use PROFILE');
    if (positionals.length > 1) throw new UsageError(`config ${action} takes no arguments besides flags`);
    return { kind: 'config', action, flags };
  }
  if (positionals.length > 0) {
    // `intern-tui --api-key K interns list`: the flags before it are the TUI's, and a command comes first.
    if (findCommand(positionals)) {
      throw new UsageError(`a command comes first, before any flag: intern-tui ${positionals.slice(0, 2).join(' ').slice(0, 60)} [flags]; commands take credentials from the environment or intern-tui login, not flags`);
    }
    throw new UsageError(unknownCommand(positionals[0]!));
  }
  return { kind: 'tui', flags, forceSandbox: Boolean(values.sandbox) };
}

export const HELP = `intern-tui: look after your interns from the terminal.

Usage:
  intern-tui [--profile NAME] [--sandbox]     open the TUI
  intern-tui COMMAND [flags]                  run one command (intern-tui COMMAND --help)
  intern-tui --help | --version

Commands:
${commandList()}

With no credentials and no base URL configured, the TUI and every command use a temporary
built-in sandbox with demo data. With a base URL set, a missing credential is an error (exit 4).

Flags of the TUI (they win over the environment, which wins over the profile):
  --profile NAME          profile in the config file (or INTERN_TUI_PROFILE, or default_profile)
  --base-url URL          service base URL, with /api/v1 (OPENROUTER_BASE_URL)
                          default https://openrouter.ai/api/v1
  --api-key KEY           for intern and vault routes (OPENROUTER_API_KEY)
  --management-key KEY    for BYOK routes (OPENROUTER_MANAGEMENT_KEY)
  --oauth-token TOKEN     for attaching to a terminal (OPENROUTER_OAUTH_TOKEN)
  --scrollback LINES      attach history, default 10000
  --no-color              no colours in the TUI (so does NO_COLOR=1)
  --no-mouse              no mouse in the TUI: the terminal selects text as usual
                          (so does "mouse": false in the profile)
  --sandbox               use the built-in sandbox even when credentials are configured
  Flags on a command line are visible to other local users: prefer the environment or login.
  Commands refuse credential and secret flags for that reason.

Output of commands: a table on a terminal, cut to its width (tab-separated and whole when
piped, prose on stderr); --json prints the service's objects as JSON, --json a,b keeps those
fields, --jq EXPR filters them with jq, --template '\\(.name)' prints each through a jq string;
errors go to stderr (JSON under --json). NO_COLOR turns colours off, CLICOLOR_FORCE on.

Sandbox flags:
  --host 127.0.0.1  --port 0  --data-dir DIR  --workspaces-dir DIR  --manifest FILE
  --seed demo|empty  --deadline-ms N  --daemon-command CMD  --step-ms N  (intern-tui sandbox --help)

Keys: ? help, q back/quit, j/k move, enter open, / filter, r refresh, : commands,
      i interns, b BYOK, e edit, c connections, a attach, p provision, s suspend, D delete.

${EXIT_HELP}`;

/** `intern-tui sandbox --help` (docs/sandbox.md has the manifest and the layout of its folders). */
export const SANDBOX_HELP = `intern-tui sandbox: run the local sandbox service (the service's routes, SQLite, real terminals)

Usage:
  intern-tui sandbox [flags]

Flags:
  --host HOST             address to listen on (default 127.0.0.1), the daemon endpoints' too
  --port N                port of the HTTP API (default 0: a free one)
  --data-dir DIR          keep its state in DIR across restarts (default: a temporary folder)
  --workspaces-dir DIR    the interns' workspaces, DIR/<intern id> (default: a temporary folder)
  --manifest FILE         once listening, write the base URL and credentials to FILE (mode 0600)
  --seed demo|empty       demo data, or only the fixtures (default demo)
  --deadline-ms N         a route's deadline; past it a request answers 408 (default 10000)
  --daemon-command CMD    the program behind each terminal, run as /bin/sh -c CMD (default $SHELL)
  --step-ms N             the time of one lifecycle step (default 800)
  --secret-file FILE      the sealing key's secret: FILE's text (or INTERN_SANDBOX_SECRET_FILE);
                          default DIR/secret.key with --data-dir, else a random one
  --secret-fd N           the same, read from file descriptor N (then closed)

INTERN_SANDBOX_SECRET still works, but every process of your user can read it in /proc: the
sandbox says so in one line. Where the machine allows it (user namespaces, via unshare), each
intern's terminal runs confined: no other process, the data folder, the manifest, the secret
file or your config folder in its sight; where it cannot, the sandbox says so in one line.

It prints its base URL and where its state lives, and stops on ctrl+c, SIGTERM or SIGHUP
(removing its temporary folders, which a --data-dir or --workspaces-dir is not), exiting 0: a
service asked to stop that stops cleanly has done what it was asked (2: a bad flag, a manifest
folder that does not exist, a host or port it cannot listen on). Point a client
at it with OPENROUTER_BASE_URL and the credentials from the manifest. More: docs/sandbox.md.
`;

/** `intern-tui config --help`. */
export const CONFIG_HELP = `intern-tui config: where the config is; which credentials are set

Usage:
  intern-tui config path     print the config file's path
  intern-tui config show     the profile in use, its base URL and where it comes from (or that
                             the built-in sandbox is used), which credentials are set and from
                             where (never a secret)
  intern-tui config use P    make profile P the default (default_profile) for the TUI and commands

Flags:
  --profile NAME          profile in the config file (or INTERN_TUI_PROFILE, or default_profile)
  --base-url URL          service base URL, with /api/v1 (OPENROUTER_BASE_URL)

--sandbox is refused: the built-in sandbox is made afresh by each command and has no settings.
`;
