import { afterEach, describe, expect, it } from 'vitest';
import { helpColumns } from '../../../src/tui/components/HelpOverlay.js';
import { plainKey } from '../../../src/tui/keyParse.js';
import { FIXED, KeymapError, parseKey, remapKeymap } from '../../../src/tui/keyRemap.js';
import { footerLine, keyLabel, KEYMAP, keyName, keysOf, matches, setKeymap, type Binding } from '../../../src/tui/keymap.js';
import { keyTableMarkdown } from '../../../src/tui/keymapDoc.js';

afterEach(() => setKeymap(KEYMAP));

const refused = (keys: Record<string, string | string[]>): string => {
  try {
    remapKeymap(keys);
  } catch (e) {
    expect(e).toBeInstanceOf(KeymapError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('a key as the config names it', () => {
  it.each([
    ['x', 'x'],
    ['G', 'G'],
    ['/', '/'],
    [' ', 'space'],
    ['space', 'space'],
    ['enter', 'return'],
    ['Return', 'return'],
    ['esc', 'escape'],
    ['pgdn', 'pagedown'],
    ['PageUp', 'pageup'],
    ['^o', 'ctrl+o'],
    ['ctrl+O', 'ctrl+o'],
    ['C-x', 'ctrl+x'],
    ['ctrl+]', 'ctrl+]'],
    ['ctrl+m', 'return'],
    ['alt+enter', 'meta+return'],
    ['shift+tab', 'shift+tab'],
    ['F6', 'f6'],
    ['é', 'é'],
  ])('%j is %j', (text, name) => expect(parseKey(text)).toBe(name));

  it.each(['', 'ctrl', 'ctrl+', 'ctrl+1', 'hyper+x', 'f13', 'alt+x', '\x07', 'xx', 'enterr'])('%j is none', (text) => expect(parseKey(text)).toBeNull());

  it("reads back every key of the default keymap, and every name keyName gives the keys people press", () => {
    const unread = (KEYMAP as readonly Binding[]).flatMap((b) => b.keys.filter((k) => parseKey(k) !== k));
    expect(unread).toEqual([]);
    const pressed: [string, Partial<ReturnType<typeof plainKey>>][] = [
      ['', { upArrow: true }], ['', { pageDown: true }], ['\r', { return: true, shift: true }], ['', { escape: true }],
      ['', { tab: true, shift: true }], ['', { backspace: true }], ['k', { ctrl: true }], ['\x1d', {}], ['\n', {}], [' ', {}],
    ];
    for (const [input, flags] of pressed) {
      const name = keyName(input, { ...plainKey(input), ...flags });
      expect(parseKey(name), name).toBe(name);
    }
  });
});

describe('remapping the keymap', () => {
  it('gives a binding its new keys, and the footer label of its pair follows', () => {
    const map = remapKeymap({ down: ['ctrl+n', 'down'], up: 'ctrl+p', delete: ['x'] });
    const byId = new Map(map.map((b) => [b.id, b]));
    expect(byId.get('down')).toMatchObject({ keys: ['ctrl+n', 'down'], label: '^n/^p' });
    expect(byId.get('up')).toMatchObject({ keys: ['ctrl+p'], label: '' });
    expect(byId.get('delete')).toMatchObject({ keys: ['x'], label: 'x' });
    // The rest as they were.
    expect(byId.get('top')).toBe((KEYMAP as readonly Binding[]).find((b) => b.id === 'top'));
    expect(map.map((b) => b.id)).toEqual(KEYMAP.map((b) => b.id));
  });

  it('lets two bindings swap keys (the whole remapping is checked, not each entry alone)', () => {
    const map = remapKeymap({ down: ['k'], up: ['j'] });
    expect(map.find((b) => b.id === 'down')!.label).toBe('k/j');
  });

  it('names an unknown id and the closest one', () => {
    expect(refused({ delte: ['x'] })).toBe('keys: no binding "delte" (did you mean "delete"?); the ids are listed under the README\'s key table');
    expect(refused({ Reasoning: ['x'] })).toContain('(did you mean "reasoning"?)');
    expect(refused({ transcriptSearching: ['x'] })).toContain('(did you mean "transcriptSearch"?)');
    expect(refused({ zzzzzzzz: ['x'] })).toBe('keys: no binding "zzzzzzzz"; the ids are listed under the README\'s key table');
    // A hostile id is shown without its escapes.
    expect(refused({ '\x1b[31mred': ['x'] })).not.toContain('\x1b');
  });

  it('names a key that is none', () => {
    expect(refused({ delete: ['x', 'ctrl+shift+meta+q'] })).toBe('keys.delete: "ctrl+shift+meta+q" is not a key (a character, space, enter, esc, tab, up, pgdn, ctrl+x or ^x, f6...)');
    expect(refused({ delete: [] })).toBe('keys.delete: give at least one key');
  });

  it('refuses a key two bindings would share where their scopes are live together, naming both', () => {
    // ^l starts a new conversation in the chat, where ^o folds the reasoning.
    expect(refused({ reasoning: ['ctrl+l'] })).toBe("keys: ^l would be both newConversation's and reasoning's, which are live together (chat, chatPrompt, text, split); give one of them another key");
    expect(refused({ down: ['/'] })).toMatch(/^keys: \/ would be both down's and (byokFilter|filter)'s/);
    expect(refused({ reasoning: ['ctrl+c'] })).toMatch(/^keys: \^c would be both interrupt's and reasoning's/);
    // The same key in scopes never live together is fine: e in the intern list and in the vault.
    expect(() => remapKeymap({ edit: ['E'], secretReplace: ['E'] })).not.toThrow();
  });

  it('leaves ctrl+c and the detach key as they are, and says why', () => {
    expect(refused({ interrupt: ['q'] })).toBe(`keys.interrupt: cannot be remapped: ${FIXED.interrupt}`);
    expect(refused({ detach: ['ctrl+x'] })).toContain('keys.detach: cannot be remapped');
  });
});

describe('the keymap in force', () => {
  it('is what matches, the footer, the help and messages read once remapped', () => {
    setKeymap(remapKeymap({ filter: ['ctrl+f'], down: ['ctrl+n'], newIntern: ['I'] }));
    const ctrlF = { ...plainKey('f'), ctrl: true };
    expect(matches('filter', 'f', ctrlF)).toBe(true);
    expect(matches('filter', '/', plainKey('/'))).toBe(false);
    expect(matches('down', 'n', { ...plainKey('n'), ctrl: true })).toBe(true);
    expect(matches('down', 'j', plainKey('j'))).toBe(false);
    const footer = footerLine(['list', 'internList', 'intern', 'global'], 400).shown.map((h) => `${h.label} ${h.text}`);
    expect(footer).toContain('^f filter');
    expect(footer).toContain('^n/k move');
    expect(footer).toContain('I new intern');
    expect(keyLabel('filter')).toBe('^f');
    expect(keysOf('down')).toBe('^n');
    const help = helpColumns(1, ['internList']).flat();
    expect(help).toContainEqual({ kind: 'binding', keys: '^f', help: 'filter' });
    // The doc generator lists the keymap it is given; the README's is the defaults'.
    expect(keyTableMarkdown([], remapKeymap({ filter: ['ctrl+f'] }))).toContain('`^f` filter');
    expect(keyTableMarkdown()).toContain('`/` filter');
    setKeymap(KEYMAP);
    expect(matches('filter', '/', plainKey('/'))).toBe(true);
  });
});
