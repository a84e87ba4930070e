/**
 * The command registry: every palette command once, with its argument, its help
 * and what it does. The palette parses and suggests from it, the help overlay and
 * the footer's `:` line describe it, and the README's key table lists it.
 */
import { closest } from '../client/closest.js';
import { matchInterns, severalOf } from '../client/resolve.js';
import type { InternApi } from '../client/types.js';
import type { Intern } from '../contract/intern.js';
import type { Nav } from './context.js';
import { sanitize, truncate } from '../text.js';
import { someOf } from './format.js';
import { keyLabel } from './keymap.js';
import { sortTargetOf } from './state/sort.js';

export interface CommandEnv {
  api: InternApi;
  nav: Nav;
  /** Switches to another profile of the config file; absent on the built-in sandbox. */
  switchProfile?: (name: string) => Promise<void>;
  /** Runs the browser sign-in for the current profile; absent on the built-in sandbox. */
  signIn?: () => Promise<void>;
}

export interface Command {
  name: string;
  /** The argument's placeholder (`NAME`); a command without one takes none. */
  arg?: string;
  /** Other words that run it (typed whole). */
  aliases?: string[];
  help: string;
  /** Flags it takes after its argument (`--record`), handed to `run` when typed. */
  flags?: readonly string[];
  /** The words its argument completes from (tab), for the screen the palette is over. */
  choices?: (nav: Nav) => readonly string[];
  /** What is wrong with the argument, said in the palette before it closes; null when it is right. */
  check?: (nav: Nav, arg: string) => string | null;
  /** Runs it; a command whose argument is a NAME gets the intern it names, looked up first (findIntern). */
  run: (env: CommandEnv, arg: string, intern?: Intern, flags?: readonly string[]) => void | Promise<void>;
}

/** The most cells of a failed look-up's reason the palette shows. */
const LOOKUP_ERROR_MAX = 120;

/**
 * The one intern a NAME names (by id, or by a name only one intern has), or what to say instead.
 * The palette asks before it closes, so a name that names no intern stays there to be corrected.
 */
export async function findIntern(api: InternApi, name: string, verb: string): Promise<{ intern: Intern } | { error: string }> {
  try {
    const found = await matchInterns(api, name, { maxPages: 20 });
    if (found.one) return { intern: found.one };
    const several = severalOf(found);
    if (found.byName.length > 1) return { error: `${several.length} interns are named "${sanitize(name)}": ${verb} by id` };
    if (several.length > 1) return { error: `the ids of ${several.length} interns start with "${sanitize(name)}": type more of it` };
    if (found.startOf.length > 0) {
      return { error: `"${sanitize(name)}" is the start of ${someOf(found.startOf, 4)}: type more (${keyLabel('completeLine')} completes)` };
    }
    return { error: `no intern with the name or id "${sanitize(name)}"${found.near ? ` (did you mean ${sanitize(found.near)}?)` : ''}` };
  } catch (e) {
    // One line or two under the palette's field: a page of a proxy's words pushed the palette off the screen.
    return { error: `could not look up ${truncate(sanitize(name), 40)}: ${truncate(sanitize((e as Error).message), LOOKUP_ERROR_MAX)}` };
  }
}

export const COMMANDS: readonly Command[] = [
  { name: 'interns', help: 'the interns', run: ({ nav }) => nav.home({ name: 'interns' }) },
  { name: 'new', aliases: ['create'], help: 'create an intern', run: ({ nav }) => nav.push({ name: 'create' }) },
  { name: 'byok', help: 'BYOK credentials', run: ({ nav }) => nav.home({ name: 'byok' }) },
  { name: 'vault', help: 'the workspace vault secrets', run: ({ nav }) => nav.push({ name: 'vault' }) },
  {
    name: 'open',
    arg: 'NAME',
    help: 'its details (name or id)',
    run: (env, _name, found) => {
      if (found) env.nav.push({ name: 'intern', id: found.id, seed: found });
    },
  },
  {
    name: 'attach',
    arg: 'NAME',
    flags: ['--record'],
    help: 'its terminal (--record records it)',
    run: (env, _name, found, flags) => {
      if (found) env.nav.push({ name: 'attach', intern: found, ...(flags?.includes('--record') ? { record: true } : {}) });
    },
  },
  {
    name: 'split',
    arg: 'NAME',
    help: 'chat beside its terminal',
    run: (env, _name, found) => {
      if (found) env.nav.push({ name: 'split', intern: found });
    },
  },
  { name: 'replay', aliases: ['recordings'], help: 'the attach recordings: play or delete', run: ({ nav }) => nav.push({ name: 'replay' }) },
  {
    name: 'chat',
    arg: 'NAME',
    aliases: ['talk'],
    help: 'chat with it (name or id)',
    run: (env, _name, found) => {
      if (found) env.nav.push({ name: 'chat', id: found.id, seed: found });
    },
  },
  {
    name: 'profile',
    arg: 'PROFILE',
    help: 'switch to that config profile',
    run: async ({ nav, switchProfile }, name) => {
      if (!switchProfile) return nav.flash('switching profiles needs a configured service, not the built-in sandbox', 'error');
      await switchProfile(name);
    },
  },
  {
    name: 'login',
    help: 'sign in to this profile (browser)',
    run: async ({ nav, signIn }) => {
      if (!signIn) return nav.flash('signing in needs a configured service, not the built-in sandbox: run intern-tui login --base-url URL', 'error');
      await signIn();
    },
  },
  {
    name: 'sort',
    arg: 'COLUMN',
    help: 'sort by a column (asc, desc, none)',
    choices: (nav) => sortTargetOf(nav)?.columns ?? [],
    check: (nav, arg) => {
      const target = sortTargetOf(nav);
      if (!target) return 'this screen has no list to sort';
      const parsed = target.parse(arg);
      return 'error' in parsed ? parsed.error : null;
    },
    run: ({ nav }, arg) => {
      const parsed = sortTargetOf(nav)?.parse(arg);
      if (parsed && 'spec' in parsed) sortTargetOf(nav)?.apply(parsed.spec);
    },
  },
  { name: 'quit', aliases: ['q'], help: 'quit', run: ({ nav }) => nav.quit() },
];

/** How a command reads in suggestions and help: `attach NAME`. */
export function usage(c: Command): string {
  return c.arg ? `${c.name} ${c.arg}` : c.name;
}

export type ResolvedCommand = { command: Command; arg: string; intern?: Intern; flags?: readonly string[] };

/**
 * The command a line's first word names: a name or alias typed whole, or a prefix of one name
 * only, among `prefixed` (all of them unless the caller narrows it).
 */
function commandOf(word: string, commands: readonly Command[], prefixed: readonly Command[] = commands): Command | undefined {
  const exact = commands.find((c) => c.name === word || c.aliases?.includes(word));
  const started = prefixed.filter((c) => c.name.startsWith(word));
  return exact ?? (started.length === 1 ? started[0] : undefined);
}

/**
 * The command a typed line names: a whole name or alias, or an unambiguous
 * prefix of a name (a command that takes an argument needs its whole name or an
 * argument after the prefix, so "a" alone is not yet "attach").
 */
export function resolveCommand(text: string, commands: readonly Command[] = COMMANDS): ResolvedCommand | { error: string } {
  const [word = '', ...words] = text.trim().split(/\s+/);
  // Words that start with -- are flags, for a command that takes them; the rest is the argument.
  const flags = words.filter((w) => w.startsWith('--'));
  const rest = words.filter((w) => !w.startsWith('--'));
  const arg = rest.join(' ');
  if (!word) return { error: `type a command: ${commands.map(usage).join(', ')}` };
  // A prefix names a command that takes an argument only once the argument is typed.
  const command = commandOf(word, commands, commands.filter((c) => !c.arg || arg));
  if (!command) {
    // A word of a letter or two is one edit from too many: no guess for it ("a" is not "q").
    const near = word.length >= 3 ? closest(word, commands.flatMap((c) => [c.name, ...(c.aliases ?? [])])) : null;
    return { error: `unknown command "${sanitize(word).slice(0, 40)}"${near ? ` (did you mean ${near}?)` : `; try ${commands.map(usage).join(', ')}`}` };
  }
  const unknown = flags.find((f) => !command.flags?.includes(f));
  if (unknown) return { error: `${command.name} takes ${command.flags?.length ? `only ${command.flags.join(', ')}` : 'no flags'}: not ${sanitize(unknown).slice(0, 40)}` };
  if (command.arg && !arg) return { error: `${command.name} needs ${command.arg === 'NAME' ? 'an intern name' : command.arg === 'PROFILE' ? 'a profile name' : command.arg}: ${usage(command)}` };
  // Words after a command that takes none are a mistake to say, not to drop (`quit now` quit).
  if (!command.arg && arg) return { error: `${command.name} takes no argument: "${sanitize(arg).slice(0, 40)}" is one too many` };
  return flags.length > 0 ? { command, arg, flags } : { command, arg };
}

/** The longest start every word shares. */
function sharedStart(words: readonly string[]): string {
  let start = words[0] ?? '';
  for (const w of words) while (!w.startsWith(start)) start = start.slice(0, -1);
  return start;
}

/** Whether a line has got to a command's NAME (`attach r`): tab then completes from the interns' names. */
export function wantsName(text: string, commands: readonly Command[] = COMMANDS): boolean {
  const m = /^\s*(\S+)\s+/.exec(text);
  return m !== null && commandOf(m[1]!, commands)?.arg === 'NAME';
}

/** The command whose argument a line has got to, when that argument completes from its own words (`sort na`). */
export function choosing(text: string, commands: readonly Command[] = COMMANDS): Command | undefined {
  const m = /^\s*(\S+)\s+/.exec(text);
  const command = m ? commandOf(m[1]!, commands) : undefined;
  return command?.choices ? command : undefined;
}

/**
 * What tab makes of a typed line, as a shell does: the command's name (and a space, when it
 * takes an argument), or the intern's name from `names`, as far as every candidate agrees; null
 * when there is nothing to add.
 */
export function completeLine(text: string, names: readonly string[], commands: readonly Command[] = COMMANDS): string | null {
  const m = /^\s*(\S*)(?:(\s+)(.*))?$/.exec(text);
  if (!m) return null;
  const [, word = '', space, typed = ''] = m;
  if (space === undefined) {
    const found = commands.filter((c) => c.name.startsWith(word));
    if (found.length === 1) return found[0]!.arg ? `${found[0]!.name} ` : found[0]!.name;
    const shared = sharedStart(found.map((c) => c.name));
    return shared.length > word.length ? shared : null;
  }
  const command = commandOf(word, commands);
  if (command?.arg !== 'NAME' && !command?.choices) return null;
  const found = names.filter((n) => n.startsWith(typed));
  const shared = found.length === 1 ? found[0]! : sharedStart(found);
  return shared.length > typed.length ? `${command.name} ${shared}` : null;
}

/** The commands whose name starts with the first word typed (all of them before anything is typed). */
export function suggest(text: string, commands: readonly Command[] = COMMANDS): Command[] {
  const word = text.trim().split(/\s+/)[0] ?? '';
  return commands.filter((c) => c.name.startsWith(word));
}
