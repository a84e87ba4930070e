import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { footerLine, keyClashes, KEYMAP, SCOPE_TITLES, SCOPES_TOGETHER, type Binding, type Scope } from '../../../src/tui/keymap.js';
import { keyTable, withKeyTable } from '../../../src/tui/keymapDoc.js';

const root = new URL('../../../', import.meta.url).pathname;
const tuiDir = join(root, 'src/tui');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}
/** The TUI's code, less the modules whose job is to name keys. */
const code = sources(tuiDir)
  .filter((p) => !/\/(keymap|keymapDoc|keyParse)\.ts$|\/hooks\/useKeys\.ts$/.test(p))
  .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const bindings = KEYMAP as readonly Binding[];

describe('the keymap', () => {
  it('has every binding matched somewhere in the TUI', () => {
    const used = new Set(code.flatMap(({ text }) => [...text.matchAll(/matches\(\s*'(\w+)'/g)].map((m) => m[1])));
    expect(bindings.map((b) => b.id).filter((id) => !used.has(id))).toEqual([]);
  });

  it('is the only place keys are tested: no screen reads a key flag or compares the input to a key', () => {
    const offenders = code.flatMap(({ path, text }) =>
      [...text.matchAll(/\bkey\.(upArrow|downArrow|leftArrow|rightArrow|return|escape|tab|shift|ctrl|meta|backspace|delete|pageUp|pageDown|home|end)\b|\binput === '/g)].map(
        (m) => `${path.slice(root.length)}: ${m[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('gives no key two bindings among scopes that are live together', () => {
    // keyClashes is the rule a remapping is held to as well (keyRemap.ts).
    expect(keyClashes(bindings).map((c) => `${c.key}: ${c.first} and ${c.second} in [${c.scopes.join(', ')}]`)).toEqual([]);
    // It finds one: two bindings of scopes live together given one key.
    const clashing = bindings.map((b) => (b.id === 'reasoning' ? { ...b, keys: ['ctrl+c'] } : b));
    expect(keyClashes(clashing)[0]).toMatchObject({ key: 'ctrl+c', first: 'interrupt', second: 'reasoning' });
  });

  it('places every scope in some live set and titles it, and ids are unique', () => {
    const scopes = Object.keys(SCOPE_TITLES) as Scope[];
    expect(scopes.filter((s) => !SCOPES_TOGETHER.some((set) => set.includes(s)))).toEqual([]);
    expect(new Set(bindings.map((b) => b.id)).size).toBe(bindings.length);
    expect(bindings.filter((b) => !scopes.includes(b.scope))).toEqual([]);
  });

  it('is what the README lists (run `npm run docs:keys` when this fails)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(withKeyTable(readme, keyTable())).toBe(readme);
  });
});

describe('the footer line', () => {
  const text = (hs: { label: string; text: string }[]) => hs.map((h) => `${h.label} ${h.text}`);

  it("keeps the help key's hint however many keys come before it, and shows only hints that fit whole", () => {
    for (const width of [30, 60, 80, 100, 120]) {
      const { shown, help } = footerLine(['list', 'internList', 'intern', 'global'], width);
      expect(help).toEqual({ id: 'help', label: '?', text: 'help' });
      const used = text(shown).reduce((n, t) => n + [...t].length + 2, 0) + '? help'.length;
      expect(used).toBeLessThanOrEqual(width);
      // In the keymap's order, the screen's own scopes first: what is cut is the tail.
      expect(text(shown)).toEqual(text(footerLine(['list', 'internList', 'intern', 'global'], 400).shown).slice(0, shown.length));
    }
    expect(text(footerLine(['list', 'internList', 'intern', 'global'], 100).shown)).toEqual(['j/k move', 'enter open', '/ filter', 'f/F status', 'n new intern', 'e edit', 't chat', 'v vault']);
    // f cycles the intern list's status filter; the BYOK list filters by provider with / alone.
    expect(text(footerLine(['byok', 'paged', 'list', 'global'], 400).shown).some((t) => t.startsWith('f '))).toBe(false);
  });

  it('leaves the text fields\' editing keys to the help, and has no help hint where ? is typed', () => {
    const { shown, help } = footerLine(['chatPrompt', 'chat', 'text'], 100);
    expect(help).toBeNull();
    expect(text(shown)).toEqual(['enter send', '^e $EDITOR', '^j new line', 'esc cancel / back', 'pgup transcript', '^l new', '^g conversations']);
    expect(text(footerLine(['formSave', 'form', 'text'], 400).shown)).toEqual(['^s save', 'tab next field', 'esc cancel']);
    // A form that makes something new says so.
    expect(text(footerLine(['formCreate', 'form', 'text'], 400).shown)).toEqual(['^s create', 'tab next field', 'esc cancel']);
    // ^e only where it opens $EDITOR: on a long field.
    expect(text(footerLine(['formSave', 'form', 'text', 'longField'], 400).shown)).toEqual(['^s save', 'tab next field', 'esc cancel', '^e $EDITOR']);
  });

  it('offers tab to mark only in a picker that marks several', () => {
    expect(text(footerLine(['chooser', 'text'], 400).shown)).toEqual(['↑/↓ move', 'enter pick', 'esc close', '^o/^r sort']);
    expect(text(footerLine(['chooser', 'chooserMulti', 'text'], 400).shown)).toContain('tab mark / unmark');
  });
});

