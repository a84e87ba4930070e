/**
 * Flag parsing for registry commands, on node:util parseArgs (Node core: nothing to load at
 * start-up, strict, typed). Two additions: `--json [FIELDS]` (an optional value), and
 * refusing secrets given as arguments.
 */
import { parseArgs } from 'node:util';
import { argsErrorMessage, usageError } from './exit.js';
import type { CommandSpec, FlagSpec } from './spec.js';
import { FILTER_FLAGS, GLOBAL_FLAGS } from './registry/flags.js';
import { CREDENTIAL_SOURCES, loginCommand, type CredentialKind } from '../contract/routes.js';

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** null: no --json (nor --jq, --template); [] : --json alone (or --jq, --template); else the fields to keep. */
  json: string[] | null;
  /** `--jq EXPR` or `--template TPL` (each implies --json: the filter runs on what it prints). */
  filter?: { jq?: string; template?: string };
}

/** Flags that would put a secret on the command line, and where the secret should come from instead. */
const SECRET_FLAGS: Record<string, string> = {
  // --api-key, --management-key, --oauth-token: the TUI's flags, refused by commands.
  ...Object.fromEntries(
    (Object.keys(CREDENTIAL_SOURCES) as CredentialKind[]).map((k) => [CREDENTIAL_SOURCES[k].flag.slice(2), `set ${CREDENTIAL_SOURCES[k].env} or run \`${loginCommand(k)}\``]),
  ),
  key: 'use --key-stdin, --key-file FILE, or answer the masked prompt',
  value: 'use --value-stdin, --value-file FILE, or answer the masked prompt',
  secret: 'use --value-stdin, --value-file FILE, or answer the masked prompt',
  token: 'use the environment or `intern-tui login`',
};

export const ARGV_VISIBLE = 'command-line arguments are visible to every local user in the process list';

export function secretRefusal(what: string, instead: string): string {
  return `refused: ${what} must not be given on the command line (${ARGV_VISIBLE}); ${instead}`;
}

const FIELDS = /^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/;

/** A field list as typed, spaces around its commas allowed (`--json "name, id"`, one word to the shell), or null. */
function fieldList(text: string): string[] | null {
  const list = text.trim().replace(/\s*,\s*/g, ',');
  return FIELDS.test(list) ? list.split(',') : null;
}

/** `--limit N` as typed: a whole number of at least 1, or every item (Infinity) when the flag is absent; else exit 2. */
export function parseLimit(text: string | undefined): number {
  if (text === undefined) return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw usageError(`--limit must be a whole number of at least 1, not "${text.slice(0, 20)}"`);
  return Number(text);
}

/** What a list cut by --limit says on a terminal (Output.aside): nothing in a pipe or under --json. */
export const MORE_THAN_LIMIT = (max: number) => `the first ${max} shown; there are more (a larger --limit, or none for all)`;

export function parseFor(spec: CommandSpec, rest: string[]): Parsed {
  for (const arg of rest) {
    if (arg === '--') break;
    const m = /^--([\w-]+)(=|$)/.exec(arg);
    const name = m?.[1];
    if (name && SECRET_FLAGS[name] && !spec.flags?.[name]) throw usageError(secretRefusal(`--${name}`, SECRET_FLAGS[name]));
  }
  const flags: Record<string, FlagSpec> = { ...GLOBAL_FLAGS, ...(spec.flags ?? {}) };
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, f] of Object.entries(flags)) options[name] = { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) };
  // --json=FIELDS is split off first; --json alone is a boolean here and may take the next word below.
  let jsonFields: string | undefined;
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const optional = arg.startsWith('--') ? flags[arg.slice(2)]?.optionalValue : undefined;
    if (spec.json && arg.startsWith('--json=')) {
      jsonFields = arg.slice('--json='.length);
      args.push('--json');
    } else if (optional) {
      // `--resume` alone is "", `--resume ID` takes the word when it fits (see FlagSpec.optionalValue).
      const next = rest[i + 1];
      if (next !== undefined && optional.test(next)) i++;
      args.push(`${arg}=${next !== undefined && optional.test(next) ? next : ''}`);
    } else args.push(arg);
  }
  if (spec.json) {
    options.json = { type: 'boolean' };
    for (const [name, f] of Object.entries(FILTER_FLAGS)) options[name] = { type: f.type, short: f.short };
  }
  let r;
  try {
    r = parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (e) {
    const name = [spec.noun, spec.verb].filter(Boolean).join(' ');
    throw usageError(`${argsErrorMessage(e, Object.keys(options), name)}; see intern-tui ${name} --help`);
  }
  const values = { ...r.values } as Parsed['values'];
  if (spec.noSandbox && values.sandbox && !values.help) {
    throw usageError(`${[spec.noun, spec.verb].filter(Boolean).join(' ')} takes no --sandbox: ${spec.noSandbox}`);
  }
  for (const [name, f] of Object.entries(flags)) {
    const given = values[name];
    if (f.nonEmpty && !values.help && (Array.isArray(given) ? given : [given]).some((v) => typeof v === 'string' && v.trim() === '')) {
      throw usageError(`--${name} is empty: give ${f.value ?? 'a value'}, or leave the flag out`);
    }
  }
  let positionals = [...r.positionals];
  let json: string[] | null = null;
  if (values.json) {
    json = [];
    const badFields = (text: string) => usageError(`--json FIELDS must be field names separated by commas (--json id,name), not "${text.slice(0, 40)}"`);
    const jsonTokens = r.tokens.filter((t) => t.kind === 'option' && t.name === 'json');
    if (jsonTokens.length > 1) throw usageError('--json is given more than once: name the fields once, separated by commas (--json id,name)');
    if (jsonFields !== undefined) {
      json = fieldList(jsonFields) ?? [];
      if (json.length === 0) throw badFields(jsonFields);
    } else {
      // `--json WORD`: WORD is the field list unless the command then lacks a positional it needs.
      // A word of names and commas that is not a list (`id,,name`, "") was meant as one.
      const jsonToken = jsonTokens[0];
      const next = jsonToken && r.tokens.find((t) => t.kind === 'positional' && t.index === jsonToken.index + 1);
      if (next && next.kind === 'positional' && positionals.length - 1 >= spec.positionals[0]) {
        // With spaces after its commas (`--json "name, id"`) only where it cannot be an argument: a
        // chat prompt after --json ("hello, world") stays the prompt.
        const fields = FIELDS.test(next.value) ? next.value.split(',') : positionals.length > spec.positionals[1] ? fieldList(next.value) : null;
        if (fields) {
          json = fields;
          const at = r.tokens.filter((t) => t.kind === 'positional').indexOf(next);
          positionals = positionals.filter((_, i) => i !== at);
        } else if (/^[\w.,]*$/.test(next.value)) throw badFields(next.value);
      }
    }
    delete values.json;
  }
  let filter: Parsed['filter'];
  if (spec.json && (values.jq !== undefined || values.template !== undefined)) {
    if (values.jq !== undefined && values.template !== undefined) throw usageError('give --jq or --template, not both');
    filter = values.jq !== undefined ? { jq: values.jq as string } : { template: values.template as string };
    delete values.jq;
    delete values.template;
  }
  if (!values.help) {
    const [min, max] = spec.positionals;
    const usage = `usage: intern-tui ${[spec.noun, spec.verb, spec.args].filter(Boolean).join(' ')}`;
    if (positionals.length < min) throw usageError(`missing argument; ${usage}`);
    if (positionals.length > max) throw usageError(`too many arguments (${positionals.length}, at most ${max}); ${usage}`);
  }
  // --jq and --template run on what --json prints (all of it, or FIELDS), so they imply it.
  return filter ? { values, positionals, json: json ?? [], filter } : { values, positionals, json };
}
