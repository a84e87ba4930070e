/**
 * The one keymap: every binding with its keys, its description and its scope.
 * Screens match keys through it; the footer and the `?` overlay list from it.
 */
import type { Key } from 'ink';

export type Scope = 'global' | 'list' | 'internList' | 'intern' | 'form' | 'byokEdit' | 'byok' | 'vault' | 'chat' | 'picker' | 'confirm';

export interface Binding {
  id: string;
  keys: string[];
  label: string;
  help: string;
  scope: Scope;
}

export const KEYMAP = [
  { id: 'help', keys: ['?'], label: '?', help: 'help', scope: 'global' },
  { id: 'back', keys: ['q'], label: 'q', help: 'back / quit', scope: 'global' },
  { id: 'cancel', keys: ['escape'], label: 'esc', help: 'back / cancel', scope: 'global' },
  { id: 'palette', keys: [':'], label: ':', help: 'commands (interns, new, byok, vault, attach NAME, chat NAME, quit)', scope: 'global' },
  { id: 'interns', keys: ['i'], label: 'i', help: 'interns', scope: 'global' },
  { id: 'byok', keys: ['b'], label: 'b', help: 'BYOK credentials', scope: 'global' },
  { id: 'refresh', keys: ['r'], label: 'r', help: 'refresh / retry', scope: 'global' },
  { id: 'down', keys: ['j', 'down'], label: 'j/k', help: 'move down / up', scope: 'list' },
  { id: 'up', keys: ['k', 'up'], label: '', help: '', scope: 'list' },
  { id: 'top', keys: ['g', 'home'], label: 'g/G', help: 'top / bottom', scope: 'list' },
  { id: 'bottom', keys: ['G', 'end'], label: '', help: '', scope: 'list' },
  { id: 'pageDown', keys: ['pagedown', 'ctrl+d'], label: '', help: 'page down', scope: 'list' },
  { id: 'pageUp', keys: ['pageup', 'ctrl+u'], label: '', help: 'page up', scope: 'list' },
  { id: 'open', keys: ['return'], label: 'enter', help: 'open', scope: 'list' },
  { id: 'filter', keys: ['/'], label: '/', help: 'filter', scope: 'list' },
  { id: 'statusFilter', keys: ['f'], label: 'f', help: 'status / provider filter', scope: 'list' },
  { id: 'newIntern', keys: ['n'], label: 'n', help: 'new intern', scope: 'internList' },
  { id: 'edit', keys: ['e'], label: 'e', help: 'edit settings', scope: 'intern' },
  { id: 'chat', keys: ['t'], label: 't', help: 'chat (talk)', scope: 'intern' },
  { id: 'vault', keys: ['v'], label: 'v', help: 'vault secrets', scope: 'intern' },
  { id: 'connections', keys: ['c'], label: 'c', help: 'connections', scope: 'intern' },
  { id: 'attach', keys: ['a'], label: 'a', help: 'attach', scope: 'intern' },
  { id: 'provision', keys: ['p'], label: 'p', help: 'provision', scope: 'intern' },
  { id: 'suspend', keys: ['s'], label: 's', help: 'suspend', scope: 'intern' },
  { id: 'delete', keys: ['D'], label: 'D', help: 'delete', scope: 'intern' },
  { id: 'new', keys: ['n'], label: 'n', help: 'new credential', scope: 'byok' },
  { id: 'byokEdit', keys: ['e'], label: 'e', help: 'edit credential', scope: 'byok' },
  { id: 'byokDelete', keys: ['D'], label: 'D', help: 'delete credential', scope: 'byok' },
  { id: 'nextField', keys: ['tab'], label: 'tab', help: 'next field (shift+tab: previous)', scope: 'form' },
  { id: 'prevField', keys: ['shift+tab'], label: '', help: '', scope: 'form' },
  { id: 'save', keys: ['ctrl+s'], label: '^s', help: 'save', scope: 'form' },
  { id: 'editor', keys: ['ctrl+e'], label: '^e', help: 'edit the long field in $EDITOR', scope: 'form' },
  { id: 'rotate', keys: ['ctrl+r'], label: '^r', help: 'rotate the key', scope: 'byokEdit' },
  { id: 'toggle', keys: ['space'], label: 'space', help: 'toggle / cycle a choice', scope: 'form' },
  { id: 'formCancel', keys: ['escape'], label: 'esc', help: 'cancel (asks before discarding edits)', scope: 'form' },
  { id: 'pick', keys: ['ctrl+p'], label: '^p', help: 'pick from the catalogue (model, provider, vault)', scope: 'form' },
  { id: 'secretAdd', keys: ['a'], label: 'a', help: 'add a secret', scope: 'vault' },
  { id: 'secretReplace', keys: ['e', 'return'], label: 'e', help: 'replace the selected secret', scope: 'vault' },
  { id: 'secretDelete', keys: ['D'], label: 'D', help: 'delete the selected secret', scope: 'vault' },
  { id: 'secretCopy', keys: ['C'], label: 'C', help: 'copy workspace secrets in', scope: 'vault' },
  { id: 'vaultTab', keys: ['tab'], label: 'tab', help: 'effective / own / workspace tab', scope: 'vault' },
  { id: 'send', keys: ['return'], label: 'enter', help: 'send (steers a running turn)', scope: 'chat' },
  { id: 'chatCancel', keys: ['escape'], label: 'esc', help: 'cancel the turn / back', scope: 'chat' },
  { id: 'approval', keys: ['ctrl+t'], label: '^t', help: 'approval mode manual / self-drive', scope: 'chat' },
  { id: 'reasoning', keys: ['ctrl+o'], label: '^o', help: 'fold / unfold reasoning', scope: 'chat' },
  { id: 'copyAnswer', keys: ['ctrl+y'], label: '^y', help: 'copy the last answer (OSC 52)', scope: 'chat' },
  { id: 'chatEditor', keys: ['ctrl+e'], label: '^e', help: 'write the prompt in $EDITOR', scope: 'chat' },
  { id: 'scrollUp', keys: ['pageup'], label: 'pgup/dn', help: 'scroll the transcript', scope: 'chat' },
  { id: 'scrollDown', keys: ['pagedown'], label: '', help: '', scope: 'chat' },
  { id: 'pickerMove', keys: ['up', 'down'], label: '↑↓', help: 'move (type to filter)', scope: 'picker' },
  { id: 'pickerPick', keys: ['return'], label: 'enter', help: 'pick (a typed slug is kept as typed)', scope: 'picker' },
  { id: 'pickerClose', keys: ['escape'], label: 'esc', help: 'close the picker', scope: 'picker' },
  { id: 'yes', keys: ['y'], label: 'y', help: 'confirm', scope: 'confirm' },
  { id: 'no', keys: ['n', 'escape'], label: 'n', help: 'cancel', scope: 'confirm' },
] as const satisfies readonly Binding[];

export type BindingId = (typeof KEYMAP)[number]['id'];
const BY_ID = new Map<string, Binding>(KEYMAP.map((b) => [b.id, b]));

/** The name of a key press: `j`, `G`, `return`, `ctrl+s`, `shift+tab`, `escape`, `down`... */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageDown) return 'pagedown';
  if (key.pageUp) return 'pageup';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.return) return 'return';
  if (key.escape) return 'escape';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
  if (input === ' ') return 'space';
  return input;
}

export function matches(id: BindingId, input: string, key: Key): boolean {
  const name = keyName(input, key);
  return (BY_ID.get(id)?.keys as readonly string[] | undefined)?.includes(name) ?? false;
}

/** The footer's hints: bindings with a label, the screen's own scopes first (in the order given). */
export function hints(scopes: Scope[]): { label: string; help: string }[] {
  return scopes.flatMap((scope) =>
    KEYMAP.filter((b) => b.scope === scope && b.label !== '').map((b) => ({ label: b.label, help: b.help })),
  );
}
