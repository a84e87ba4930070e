/**
 * The person's keys: the config file's `keys` gives bindings of the keymap other keys, by id,
 *
 *   "keys": { "down": ["ctrl+n", "down"], "up": ["ctrl+p", "up"], "delete": ["x"] }
 *
 * checked whole at the TUI's start (remapKeymap): an id the keymap lacks (with the closest one),
 * a key name that is none, or a key two bindings would share where their scopes are live together
 * (keymap.ts's `keyClashes`, the rule the keymap's own test applies) is one line naming the entry,
 * and the TUI does not start. The result is the keymap with the new keys and, where they changed,
 * new footer labels; keymap.ts's `setKeymap` puts it in force, once, so a key press costs what it
 * did. ctrl+c and the detach key cannot be remapped (FIXED says why).
 */
import { closest } from '../client/closest.js';
import { sanitize } from '../text.js';
import { KEYMAP, keyClashes, shortKey, SHORT, type Binding } from './keymap.js';

/** Bindings no remapping touches, and why. */
export const FIXED: Readonly<Record<string, string>> = {
  // The one key that leaves from anywhere: a remapping must not leave the person without a way out.
  interrupt: 'ctrl+c always quits the TUI, so that no remapping can leave it without a way out',
  // Attached, the attach session reads the byte itself (src/attach/session.ts), as `intern-tui attach` does.
  detach: 'attached, the session reads ctrl+] itself, as the attach command does',
};

/** The names keymap.ts's `keyName` gives keys other than a typed character and ctrl+character. */
const NAMED = new Set([
  'up', 'down', 'left', 'right', 'pageup', 'pagedown', 'home', 'end', 'return', 'shift+return', 'meta+return',
  'escape', 'tab', 'shift+tab', 'backspace', 'delete', 'space',
]);
/** Function keys, which only the screens that read keys raw see (the split view: F6 to F8). */
const FUNCTION_KEY = /^(ctrl\+)?f([1-9]|1[0-2])$/;
/** Control keys the terminal sends as a key of their own: ctrl+m is enter, ctrl+i tab, ctrl+h backspace, ctrl+[ escape. */
const SAME_AS: Record<string, string> = { 'ctrl+m': 'return', 'ctrl+i': 'tab', 'ctrl+h': 'backspace', 'ctrl+[': 'escape' };
/** The help's short names (enter, esc, pgup...) read back, and a few common spellings. */
const ALIASES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SHORT).map(([name, short]) => [short, name])),
  enter: 'return', esc: 'escape', 'alt+return': 'meta+return', 'page up': 'pageup', 'page down': 'pagedown',
  'shift+enter': 'shift+return', backtab: 'shift+tab', del: 'delete', bksp: 'backspace',
};

/**
 * A key as the config names it, as keymap.ts's `keyName` names a key press: one character as
 * typed (`G` is shift+g), `space`, a named key (`return` or `enter`, `escape` or `esc`, `up`,
 * `pgdn`...), `ctrl+x` or `^x`, `f6`; null for anything else.
 */
export function parseKey(text: string): string | null {
  if ([...text].length === 1) {
    if (text === ' ') return 'space';
    // A control character or a lone surrogate is no key anyone can write down.
    return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(text) ? text : null;
  }
  const lower = text.trim().toLowerCase().replace(/^\^(?=.)/, 'ctrl+').replace(/^(control|c)[+-](?=.)/, 'ctrl+');
  const name = ALIASES[lower] ?? lower;
  const same = SAME_AS[name];
  if (same) return same;
  if (NAMED.has(name) || FUNCTION_KEY.test(name)) return name;
  // ctrl and a letter (as Ink reports it), or ^\ ^] ^^ ^_ (their control bytes): keyName's ctrl+ names.
  return /^ctrl\+[a-z\\\]^_]$/.test(name) ? name : null;
}

export class KeymapError extends Error {
  override readonly name = 'KeymapError';
}

/** The config's `keys`: a binding's id to its keys (one key may be given as a string). */
export type KeysConfig = Readonly<Record<string, string | readonly string[]>>;

/** How a message shows a string from the config file: one line, no control, cut short. */
const shown = (s: string) => sanitize(s).slice(0, 40);

/** A binding's id as near as the keymap has one: one or two edits away, else the first holding it (or held by it), else null. */
function nearestId(word: string, ids: readonly string[]): string | null {
  const lower = word.toLowerCase();
  return closest(word, ids) ?? ids.find((id) => id.toLowerCase() === lower) ?? ids.find((id) => lower.length >= 3 && (id.toLowerCase().includes(lower) || lower.includes(id.toLowerCase()))) ?? null;
}

/**
 * The keymap with the config's keys in place of the defaults, or a KeymapError naming the first
 * bad entry. A binding's footer label follows its keys (and those of the bindings paired with it,
 * which have no help of their own: `j/k`), made from the first key of each.
 */
export function remapKeymap(keys: KeysConfig, base: readonly Binding[] = KEYMAP): Binding[] {
  const ids = base.map((b) => b.id);
  const changed = new Map<string, string[]>();
  for (const [id, given] of Object.entries(keys)) {
    if (!ids.includes(id)) {
      const near = nearestId(id, ids);
      throw new KeymapError(`keys: no binding "${shown(id)}"${near ? ` (did you mean "${near}"?)` : ''}; the ids are listed under the README's key table`);
    }
    if (Object.hasOwn(FIXED, id)) throw new KeymapError(`keys.${id}: cannot be remapped: ${FIXED[id]}`);
    const list = typeof given === 'string' ? [given] : [...given];
    if (list.length === 0) throw new KeymapError(`keys.${id}: give at least one key`);
    const parsed = list.map((text) => {
      const key = typeof text === 'string' ? parseKey(text) : null;
      if (key === null) throw new KeymapError(`keys.${id}: "${shown(String(text))}" is not a key (a character, space, enter, esc, tab, up, pgdn, ctrl+x or ^x, f6...)`);
      return key;
    });
    changed.set(id, [...new Set(parsed)]);
  }
  const remapped = base.map((b) => (changed.has(b.id) ? { ...b, keys: changed.get(b.id)! } : b));
  const clash = keyClashes(remapped).find((c) => changed.has(c.first) || changed.has(c.second));
  if (clash) {
    throw new KeymapError(`keys: ${shortKey(clash.key)} would be both ${clash.first}'s and ${clash.second}'s, which are live together (${clash.scopes.filter((s) => s !== 'always').slice(0, 4).join(', ')}); give one of them another key`);
  }
  return withLabels(remapped, changed);
}

/** The footer labels of the groups (a binding and the help-less ones after it in its scope) whose keys changed. */
function withLabels(bindings: Binding[], changed: ReadonlyMap<string, unknown>): Binding[] {
  return bindings.map((b, i) => {
    if (b.label === '') return b;
    const group = [b];
    for (const next of bindings.slice(i + 1)) {
      if (next.scope !== b.scope || next.help !== '' || next.label !== '') break;
      group.push(next);
    }
    if (!group.some((g) => changed.has(g.id))) return b;
    return { ...b, label: group.map((g) => shortKey(g.keys[0]!)).join('/') };
  });
}
