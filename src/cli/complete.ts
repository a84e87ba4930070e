/**
 * Shell completion. `intern-tui completion bash|zsh|fish` prints a small script; on every tab the
 * script runs `intern-tui __complete WORD... CURRENT` (the words before the cursor, then the one
 * being typed) and offers what it prints: one candidate a line, `value<TAB>description`, or the
 * single line `@files` for a file name, which the shell completes itself. All the rules live
 * here, in one place for the three shells and under test, as with gh's and kubectl's `__complete`;
 * the registry is the one list of commands and flags.
 *
 * A tab must be quick and quiet: nouns, verbs and flags come from the registry alone (what
 * `--help` loads); the service is asked only where its names go (an intern's NAME, a BYOK key's
 * ID, a SECRET), with a short deadline, and never the embedded sandbox (its demo data is not the
 * user's). Nothing is written to stderr and the exit status is always 0.
 */
import { CREDENTIAL_SOURCES } from '../contract/routes.js';
import { PROVIDERS } from '../contract/providers.js';
import { REGIONS } from '../contract/rules.js';
import { SANDBOX_OPTIONS, SEEDS, TUI_OPTIONS } from './args.js';
import { COMMANDS, FILTER_FLAGS, GLOBAL_FLAGS, JSON_FLAG, type CommandSpec, type FlagSpec } from './registry.js';

export interface Candidate {
  value: string;
  description?: string;
}
/** What to offer: candidates, or the shell's own file names. */
export type Offer = Candidate[] | 'files';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * How the line's names are looked up: the profile and base URL typed on it, whether it forces
 * the sandbox, and the intern whose secrets a SECRET is among.
 */
export interface LineFlags {
  profile?: string;
  baseUrl?: string;
  sandbox: boolean;
  intern?: string;
}
/** The names of one kind: interns (NAME), BYOK keys (ID), secrets (SECRET), or the config's profiles. */
export type NameKind = 'interns' | 'byok' | 'secrets' | 'profiles';
export type NameSource = (kind: NameKind, flags: LineFlags) => Promise<Candidate[]>;
/**
 * The fields a command's `--json` may name: its runner's `jsonFields`, which loading the command
 * costs. Handed in by the dispatcher, which loads commands (loaders.ts's `jsonFieldsOf`).
 */
export type FieldSource = (spec: CommandSpec) => Promise<readonly string[]>;

/** The TUI's own flags (no command): args.ts's options, with the registry's words where it has them. */
function tuiFlags(): Record<string, FlagSpec> {
  const out: Record<string, FlagSpec> = {};
  for (const [name, o] of Object.entries(TUI_OPTIONS)) out[name] = GLOBAL_FLAGS[name] ?? { type: o.type, description: '', ...(o.type === 'string' ? { value: name.toUpperCase() } : {}) };
  out['no-color'] = { ...out['no-color']!, description: 'no colours in the TUI' };
  out['no-mouse'] = { ...out['no-mouse']!, description: 'no mouse in the TUI' };
  return out;
}

function sandboxFlags(): Record<string, FlagSpec> {
  const out: Record<string, FlagSpec> = {};
  for (const [name, o] of Object.entries(SANDBOX_OPTIONS)) out[name] = { type: o.type, description: '', ...(o.type === 'string' ? { value: /dir$|manifest/.test(name) ? 'FILE' : name.toUpperCase() } : {}) };
  out.seed = { type: 'string', value: SEEDS.join('|'), description: 'the data it starts with' };
  return out;
}

/** Every flag a command takes, by name. */
function flagsOf(spec: CommandSpec | null): Record<string, FlagSpec> {
  if (spec === null) return tuiFlags();
  if (spec.noun === 'sandbox') return sandboxFlags();
  return { ...(spec.flags ?? {}), ...(spec.json ? { json: JSON_FLAG, ...FILTER_FLAGS } : {}), ...GLOBAL_FLAGS };
}

/** A string flag's values. The placeholder the help shows says what goes there: a FILE, NAME, one of a|b|c. */
async function valuesOf(name: string, flag: FlagSpec, line: LineFlags, names: NameSource): Promise<Offer> {
  const value = flag.value ?? '';
  if (value === 'FILE') return 'files';
  if (/^[a-z]+(\|[a-z]+)+$/.test(value)) return value.split('|').map((v) => ({ value: v }));
  if (value === 'REGION') return [...REGIONS, 'none'].map((v) => ({ value: v }));
  if (value === 'KIND') return Object.keys(CREDENTIAL_SOURCES).map((v) => ({ value: v }));
  if (value === 'SLUG') return PROVIDERS.map((p) => ({ value: p.slug }));
  // The statuses' list lives beside the intern's schema (zod): loaded only for this flag.
  if (value === 'STATUS') {
    const statuses: string[] = [...(await import('../contract/intern.js')).INTERN_STATUSES];
    // `interns wait --for` also waits for the intern to be gone.
    return (name === 'for' ? [...statuses, 'deleted'] : statuses).map((v) => ({ value: v }));
  }
  if (name === 'intern') return names('interns', line);
  if (name === 'profile') return names('profiles', line);
  return [];
}

const matching = (offer: Offer, current: string): Offer => (offer === 'files' ? offer : offer.filter((c) => c.value.startsWith(current)));

/**
 * `--json FIELDS`: the fields of the command's JSON (FieldSource), for the last of a
 * comma-separated list, those already given left out.
 */
async function jsonFields(fieldsOf: FieldSource, spec: CommandSpec, typed: string, before = ''): Promise<Candidate[]> {
  const fields = await fieldsOf(spec);
  const parts = typed.split(',');
  const last = parts.pop()!;
  const head = parts.length > 0 ? `${parts.join(',')},` : '';
  return fields.filter((f) => f.startsWith(last) && !parts.includes(f)).map((f) => ({ value: `${before}${head}${f}` }));
}

/**
 * What may come at the cursor, given the words before it (the program's name left out) and the
 * word being typed. Flags are offered when the word starts with "-"; a flag that takes a value
 * is followed by its values; a positional by what its placeholder in the usage names: `a|b` those
 * words, NAME the interns, a BYOK ID the keys, SECRET the secrets, PROFILE the profiles.
 */
export async function complete(words: readonly string[], current: string, names: NameSource, fieldsOf: FieldSource): Promise<Offer> {
  const line: LineFlags = { sandbox: false };
  let noun: string | undefined;
  let spec: CommandSpec | null = null;
  const positionals: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('--')) {
      const [flagName, inline] = word.slice(2).split('=', 2) as [string, string | undefined];
      const flag = flagsOf(spec)[flagName] ?? GLOBAL_FLAGS[flagName];
      given.add(flagName);
      if (flagName === 'sandbox') line.sandbox = true;
      // A value in the next word (unless given inline); --json's is optional and not completed.
      let value = inline;
      if (flag?.type === 'string' && inline === undefined && i + 1 < words.length) value = words[++i];
      if (flagName === 'profile') line.profile = value;
      if (flagName === 'base-url') line.baseUrl = value;
      if (flagName === 'intern') line.intern = value;
      continue;
    }
    if (word.startsWith('-')) continue;
    if (noun === undefined) {
      noun = word;
      const family = COMMANDS.filter((c) => c.noun === word);
      if (family.length === 0) return []; // not a command: nothing to offer after it
      spec = family.find((c) => c.verb === undefined) ?? null;
      continue;
    }
    if (spec === null) {
      spec = COMMANDS.find((c) => c.noun === noun && c.verb === word) ?? null;
      if (spec === null) return [];
      continue;
    }
    // A noun that stands alone and has verbs too (`chat NAME`, `chat list NAME`): a verb first.
    const verb: CommandSpec | undefined = spec.verb === undefined && positionals.length === 0 ? COMMANDS.find((c) => c.noun === noun && c.verb === word) : undefined;
    if (verb) {
      spec = verb;
      continue;
    }
    positionals.push(word);
  }

  // The value of the flag just before the cursor.
  const last = words.at(-1);
  if (last?.startsWith('--') && !last.includes('=')) {
    const flag = flagsOf(spec)[last.slice(2)];
    if (flag?.type === 'string') return matching(await valuesOf(last.slice(2), flag, line, names), current);
    // --json takes FIELDS in the next word only once the command has its arguments (parse.ts).
    if (last === '--json' && spec?.json && positionals.length >= spec.positionals[0] && !current.startsWith('-')) return jsonFields(fieldsOf, spec, current);
  }
  if (current.startsWith('--json=') && spec?.json) return jsonFields(fieldsOf, spec, current.slice('--json='.length), '--json=');
  if (current.startsWith('--') && current.includes('=')) {
    const [flagName, typed] = current.slice(2).split('=', 2) as [string, string];
    const flag = flagsOf(spec)[flagName];
    if (flag?.type !== 'string') return [];
    const values = await valuesOf(flagName, flag, line, names);
    return values === 'files' ? values : values.filter((c) => c.value.startsWith(typed)).map((c) => ({ ...c, value: `--${flagName}=${c.value}` }));
  }
  if (current.startsWith('-')) {
    // Before a command, the TUI's flags; after a noun that wants its verb, the global ones.
    const flags = Object.entries(noun !== undefined && spec === null ? GLOBAL_FLAGS : flagsOf(spec));
    return flags
      .filter(([name, f]) => f.multiple || !given.has(name))
      .map(([name, f]) => ({ value: `--${name}`, description: f.description }))
      .filter((c) => c.value.startsWith(current));
  }
  if (noun === undefined) {
    const nouns = new Map<string, string>();
    // A noun alone is described by its summary, a noun of verbs by the verbs.
    for (const c of COMMANDS) if (!nouns.has(c.noun)) nouns.set(c.noun, c.verb === undefined ? c.summary : COMMANDS.filter((v) => v.noun === c.noun).map((v) => v.verb).join(', '));
    return matching([...nouns].map(([value, description]) => ({ value, description })), current);
  }
  if (spec === null) return matching(COMMANDS.filter((c) => c.noun === noun).map((c) => ({ value: c.verb!, description: c.summary })), current);
  if (positionals.length >= spec.positionals[1]) return [];
  // The placeholder at the cursor (`SECRET...` stands for every one from there on).
  const args = (spec.args ?? '').split(' ').filter(Boolean);
  const placeholder = args[positionals.length] ?? (args.at(-1)?.endsWith('...') ? args.at(-1) : undefined);
  const arg = placeholder?.replace(/[[\]]|\.\.\./g, '') ?? '';
  if (/\|/.test(arg)) return matching(arg.split('|').map((value) => ({ value })), current);
  if (arg === 'NAME') {
    // After such a noun, its verbs are offered beside the interns.
    const verbs = spec.verb === undefined && positionals.length === 0 ? COMMANDS.filter((c) => c.noun === spec!.noun && c.verb !== undefined).map((c) => ({ value: c.verb!, description: c.summary })) : [];
    return matching([...verbs, ...(await names('interns', line))], current);
  }
  if (arg === 'PROFILE') return matching(await names('profiles', line), current);
  if (arg === 'ID' && spec.noun === 'byok') return matching(await names('byok', line), current);
  if (arg === 'SECRET') {
    // `vault copy` copies workspace secrets into --intern: its names are the workspace's.
    const offered = await names('secrets', spec.verb === 'copy' ? { ...line, intern: undefined } : line);
    return matching(offered.filter((c) => !positionals.includes(c.value)), current);
  }
  return [];
}

/** The lines `__complete` prints for an offer. */
export function offerLines(offer: Offer): string {
  if (offer === 'files') return '@files\n';
  return offer.map((c) => (c.description ? `${c.value}\t${c.description.replace(/[\t\n]/g, ' ')}` : c.value) + '\n').join('');
}
