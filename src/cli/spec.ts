/**
 * What a command is, as data: the types of the registry's entries, the command's title, and the
 * few values both the registry's descriptions and the commands read. A leaf: it imports nothing
 * of src/cli, so a command may import it without reaching the registry or the dispatcher (issue
 * 42: the registry describes, the dispatcher loads, commands import neither).
 */
import type { CredentialKind } from '../contract/routes.js';

/** The modules commands run from (the dispatcher's table, loaders.ts, says where each is). */
export type CommandModule = 'interns' | 'byok' | 'vault' | 'models' | 'chat' | 'chatSessions' | 'attach' | 'replay' | 'auth' | 'config' | 'completion' | 'legacy';

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
  /**
   * Where its code is: a module of the dispatcher's table (`loaders.ts`: `commands/<module>.ts`,
   * or `legacy.ts`), loaded with import() when the command runs, and the Runner it exports.
   */
  module: CommandModule;
  runner: string;
}

export function commandTitle(c: Pick<CommandSpec, 'noun' | 'verb' | 'args'>): string {
  return [c.noun, c.verb, c.args].filter(Boolean).join(' ');
}

/** How long `--wait` and `interns wait` wait unless `--timeout` says otherwise. */
export const WAIT_DEFAULT = '10m';

/** The API field each BYOK settings flag sets: the flags' `sets` (registry/byok.ts), and the body `byok create` and `update` build. */
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
