/** The flags and words several commands' descriptions share. Data only. */
import { WAIT_DEFAULT, type FlagSpec } from '../spec.js';

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
export const WATCH: FlagSpec = { type: 'boolean', description: 'ask every 2 s: redraw on a change (piped: a JSON line per change); ctrl+c ends' };

/** Every list's `--limit`. */
export const LIMIT = (what: string): FlagSpec => ({ type: 'string', value: 'N', description: `at most N ${what} (default: all, fetched page by page)` });

/** Every delete's: what is not there is what was asked for (kubectl's flag). */
export const IGNORE_NOT_FOUND: FlagSpec = { type: 'boolean', description: 'exit 0 when it does not exist (said on stderr)' };

/** What a NAME argument may be. */
/** What a NAME argument may be, for the help of every command that takes an intern. */
export const IDN = 'NAME is an intern\'s name, its id, or the start of its id that interns list shows';
/** `--wait`'s `--timeout`. */
export const WAIT_TIMEOUT: FlagSpec = { type: 'string', value: 'DURATION', description: `with --wait: give up after this long (default ${WAIT_DEFAULT})` };
