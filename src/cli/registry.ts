/**
 * The subcommand registry: every `intern-tui NOUN [VERB]` as data (usage, flags, help text, the
 * credentials it needs, and which module's runner does it), and the help made from it. It
 * describes and loads nothing: the dispatcher (dispatch.ts, run.ts) loads a command's code through
 * its table, loaders.ts, and no command imports the registry or the dispatcher (issue 42; a unit
 * test, test/unit/cli/structure.test.ts, keeps it so). A command's `--help` loads this and its
 * descriptions, never a command's code, the client, zod, Ink or the sandbox.
 *
 * To add a command: append a CommandSpec to its group under registry/ (keep nouns together; the
 * groups' order is help's) and put its implementation in src/cli/commands/<noun>.ts, exporting a
 * Runner (context.ts; with its `jsonFields` when it prints JSON); a new module goes in loaders.ts.
 */
import { CREDENTIAL_SOURCES, loginCommand } from '../contract/routes.js';
import { closest } from '../client/closest.js';
import { EXIT_HELP } from './exit.js';
import { commandTitle, type CommandSpec, type FlagSpec } from './spec.js';
import { FILTER_FLAGS, GLOBAL_FLAGS, JSON_FLAG } from './registry/flags.js';
import { INTERNS } from './registry/interns.js';
import { BYOK } from './registry/byok.js';
import { VAULT } from './registry/vault.js';
import { CHAT } from './registry/chat.js';
import { TERMINAL } from './registry/terminal.js';
import { SETUP } from './registry/setup.js';

export type { CommandModule, CommandSpec, FlagSpec } from './spec.js';
export { BYOK_FLAG_FIELDS, commandTitle, WAIT_DEFAULT } from './spec.js';
export { FILTER_FLAGS, GLOBAL_FLAGS, JSON_FLAG } from './registry/flags.js';

export const COMMANDS: CommandSpec[] = [...INTERNS, ...BYOK, ...VAULT, ...CHAT, ...TERMINAL, ...SETUP];

/** The refusal of a first word that is no command, with the one it probably was. */
export function unknownCommand(word: string): string {
  const near = closest(word, COMMANDS.map((c) => c.noun));
  return `unknown command "${word.slice(0, 40)}"${near ? ` (did you mean "${near}"?)` : ''}; see intern-tui --help`;
}

/** Finds the command named by the start of argv: [spec, rest] or the noun's verbs when the verb is missing/unknown. */
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
