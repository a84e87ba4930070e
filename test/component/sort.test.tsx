/** Sorting the lists (issue 41, 1): the keys, the header's arrow, the cursor on its row, :sort, the choice kept per profile. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodeEvent, encodeHeader } from '../../src/attach/asciicast.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { sortPrefsPath } from '../../src/tui/state/sortPrefs.js';
import { FakeApi, IDS, credential, intern } from './fakeApi.js';
import { renderApp } from './render.js';

const dirs: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'intern-tui-sort-'));
  dirs.push(d);
  return join(d, 'intern-tui');
};

/** The names in the order the frame draws them. */
const order = (frame: string, names: readonly string[]) => [...names].sort((a, b) => frame.search(new RegExp(`\\b${a}\\s`)) - frame.search(new RegExp(`\\b${b}\\s`)));
const NAMES = ['runner', 'builder', 'broken', 'peer-bot', 'sleeper'];
const selected = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

describe('the intern list', () => {
  it('sorts by name with N, the header says so, N again sorts the other way, and the cursor keeps its intern', async () => {
    const app = renderApp({ options: { stateDir: stateDir(), profile: 'work' } });
    let f = await app.waitFor('sleeper');
    expect(order(f, NAMES)).toEqual(['runner', 'builder', 'broken', 'peer-bot', 'sleeper']);
    expect(f).not.toMatch(/NAME[↑↓]/);
    // The cursor on builder (the second row): it stays on builder as the rows move.
    await app.press('j');
    await app.waitFor(/^›.*builder/m);
    await app.press('N');
    f = await app.waitFor('NAME↑');
    expect(order(f, NAMES)).toEqual(['broken', 'builder', 'peer-bot', 'runner', 'sleeper']);
    expect(selected(f)).toContain('builder');
    await app.press('N');
    f = await app.waitFor('NAME↓');
    expect(order(f, NAMES)).toEqual(['sleeper', 'runner', 'peer-bot', 'builder', 'broken']);
    expect(selected(f)).toContain('builder');
    // S: by status, running first, then the failures.
    await app.press('S');
    f = await app.waitFor('STATUS↑');
    expect(f).not.toMatch(/NAME[↑↓]/);
    expect(order(f, NAMES)).toEqual(['peer-bot', 'runner', 'broken', 'sleeper', 'builder']);
    expect(selected(f)).toContain('builder');
  });

  it('keeps the sort per profile: a new TUI of the same profile opens sorted, another profile does not', async () => {
    const dir = stateDir();
    const first = renderApp({ options: { stateDir: dir, profile: 'work' } });
    await first.waitFor('sleeper');
    await first.press('A');
    await first.waitFor('UPDATED↓');
    first.unmount();
    const path = sortPrefsPath(dir, 'work');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ interns: { column: 'updated', direction: 'desc' } });
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const again = renderApp({ options: { stateDir: dir, profile: 'work' } });
    await again.waitFor((f) => f.includes('sleeper') && f.includes('UPDATED↓'));
    again.unmount();
    const other = renderApp({ options: { stateDir: dir, profile: 'home' } });
    const f = await other.waitFor('sleeper');
    expect(f).not.toContain('UPDATED↓');
  });

  it('sorts what is loaded when the service has more, and says so; loading more sorts them in', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 70; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api, options: { stateDir: stateDir(), profile: 'work' } });
    await app.waitFor('more below: scroll to load');
    await app.press('N');
    // The cursor stays on runner, now near the end of what is loaded.
    let f = await app.waitFor(/sorted by name ↑ · loaded \d+ of more/);
    expect(f).toMatch(/^›.*runner/m);
    await app.press('G');
    f = await app.waitFor((fr) => /^›.*sleeper/m.test(fr) && !fr.includes('more below'));
    expect(f).not.toContain('of more');
    await app.press('g');
    // bulk-1, bulk-2 ... bulk-10 by their numbers' values, after broken and builder.
    f = await app.waitFor(/^›.*broken/m);
    expect(order(f, ['broken', 'builder', 'bulk-1', 'bulk-2', 'bulk-10'])).toEqual(['broken', 'builder', 'bulk-1', 'bulk-2', 'bulk-10']);
  });

  it(':sort COLUMN [asc|desc] sorts, completes the columns, and a wrong column is said in the palette', async () => {
    const app = renderApp({ options: { stateDir: stateDir(), profile: 'work' } });
    await app.waitFor('sleeper');
    await app.type(':sort nmae');
    await app.press('enter');
    await app.waitFor('no column "nmae" here (did you mean name?)');
    for (let n = 0; n < 4; n++) await app.press('backspace');
    await app.type('st');
    await app.press('tab');
    await app.waitFor(': sort status');
    await app.type(' desc');
    await app.press('enter');
    const f = await app.waitFor('STATUS↓');
    expect(order(f, NAMES)).toEqual(['builder', 'sleeper', 'broken', 'peer-bot', 'runner']);
  });

  it('keeps the sort under the filter', async () => {
    const app = renderApp({ options: { stateDir: stateDir(), profile: 'work' } });
    await app.waitFor('sleeper');
    await app.press('N');
    await app.press('N');
    await app.waitFor('NAME↓');
    await app.type('/er');
    const f = await app.waitFor((fr) => !fr.includes('broken') && fr.includes('runner'));
    expect(order(f, ['runner', 'peer-bot', 'builder', 'sleeper'])).toEqual(['sleeper', 'runner', 'peer-bot', 'builder']);
  });
});

describe('the BYOK list', () => {
  it('sorts the page by provider with P, says it sorts this page, keeps the cursor on its key; o steps to the next column, O reverses', async () => {
    const api = new FakeApi();
    api.byok.push(credential({ id: 'c3', provider: 'mistral', name: 'Mistral', label: 'sk-...MMMM' }));
    const app = renderApp({ api, initial: { name: 'byok' }, options: { stateDir: stateDir(), profile: 'work' } });
    let f = await app.waitFor('Mistral');
    const rows = ['Production OpenAI', 'Team Anthropic', 'Mistral'];
    expect(order(f, ['Production', 'Team', 'Mistral'])).toEqual(['Production', 'Team', 'Mistral']);
    await app.press('j');
    await app.waitFor(/^›.*Team Anthropic/m);
    await app.press('P');
    f = await app.waitFor('PROVIDER↑');
    expect(order(f, ['Production', 'Team', 'Mistral'])).toEqual(['Team', 'Mistral', 'Production']);
    expect(selected(f)).toContain(rows[1]);
    expect(f).toContain('sorted by provider ↑');
    await app.press('o');
    f = await app.waitFor('NAME↑');
    expect(order(f, ['Production', 'Team', 'Mistral'])).toEqual(['Mistral', 'Production', 'Team']);
    await app.press('O');
    await app.waitFor('NAME↓');
  });
});

describe(':sort none', () => {
  it('gives the list its own order back', async () => {
    const app = renderApp({ options: { stateDir: stateDir(), profile: 'work' } });
    await app.waitFor('sleeper');
    await app.press('N');
    await app.waitFor('NAME↑');
    await app.type(':sort none');
    await app.press('enter');
    const f = await app.waitFor((fr) => !/NAME[↑↓]/.test(fr) && fr.includes('sleeper'));
    expect(order(f, NAMES)).toEqual(['runner', 'builder', 'broken', 'peer-bot', 'sleeper']);
  });
});

describe('the model picker', () => {
  it('sorts with ^o (by id, then context, longest first) and ^r the other way, "workspace default" first, and keeps the sort for the next opening', async () => {
    const dir = stateDir();
    const app = renderApp({ initial: { name: 'settings', id: IDS.sleeper }, options: { stateDir: dir, profile: 'work' } });
    await app.waitFor('Settings of sleeper');
    await app.press('tab', 'tab', 'enter');
    let f = await app.waitFor('google/gemini-2.5-pro');
    const MODELS = ['workspace default', 'anthropic/claude-sonnet-4', 'openai/gpt-4.1', 'openai/o4-mini', 'google/gemini-2.5-pro', 'deepseek/deepseek-r1:free'];
    // The picker's rows (the form's field above it holds openai/gpt-4.1 too).
    const at = (fr: string) => ((rows) => [...MODELS].sort((a, b) => rows.indexOf(a) - rows.indexOf(b)))(fr.slice(fr.indexOf('Model (')));
    expect(at(f)).toEqual(MODELS);
    await app.press('\x0f');
    f = await app.waitFor('sorted by id ↑');
    expect(at(f)).toEqual(['workspace default', 'anthropic/claude-sonnet-4', 'deepseek/deepseek-r1:free', 'google/gemini-2.5-pro', 'openai/gpt-4.1', 'openai/o4-mini']);
    await app.press('\x0f');
    f = await app.waitFor('sorted by context ↓');
    expect(at(f)).toEqual(['workspace default', 'google/gemini-2.5-pro', 'openai/gpt-4.1', 'anthropic/claude-sonnet-4', 'openai/o4-mini', 'deepseek/deepseek-r1:free']);
    // The cursor is still on the model the field holds.
    expect(f).toMatch(/›•openai\/gpt-4\.1/);
    await app.press('ctrl+r');
    f = await app.waitFor('sorted by context ↑');
    expect(at(f)).toEqual(['workspace default', 'deepseek/deepseek-r1:free', 'anthropic/claude-sonnet-4', 'openai/o4-mini', 'openai/gpt-4.1', 'google/gemini-2.5-pro']);
    await app.press('esc');
    await app.waitFor((s) => !s.includes('sorted by'));
    await app.press('enter');
    await app.waitFor('sorted by context ↑');
  });
});

describe('the recordings', () => {
  it('sort by began with A (newest first, then oldest) and by intern with N', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recordings-'));
    dirs.push(dir);
    const cast = (name: string, at: number) => encodeHeader({ version: 2, width: 80, height: 24, timestamp: Date.UTC(2026, 10, at, 12) / 1000, title: `intern ${name}` }) + encodeEvent(1, 'o', '$ ');
    writeFileSync(join(dir, 'alpha-2026-11-20T12-00-00Z.cast'), cast('alpha', 20));
    writeFileSync(join(dir, 'zulu-2026-11-10T12-00-00Z.cast'), cast('zulu', 10));
    writeFileSync(join(dir, 'mike-2026-11-25T12-00-00Z.cast'), cast('mike', 25));
    const app = renderApp({ initial: { name: 'replay' }, options: { recordingsDir: dir, stateDir: stateDir(), profile: 'work' } });
    await app.waitFor('zulu');
    await app.press('A');
    let f = await app.waitFor('BEGAN (UTC)↓');
    expect(order(f, ['alpha', 'zulu', 'mike'])).toEqual(['mike', 'alpha', 'zulu']);
    await app.press('A');
    f = await app.waitFor('BEGAN (UTC)↑');
    expect(order(f, ['alpha', 'zulu', 'mike'])).toEqual(['zulu', 'alpha', 'mike']);
    await app.press('N');
    f = await app.waitFor('INTERN↑');
    expect(order(f, ['alpha', 'zulu', 'mike'])).toEqual(['alpha', 'mike', 'zulu']);
  });
});

describe('a sort preferences file that is not JSON', () => {
  it('is said in one line, and the list opens in its own order', async () => {
    const dir = stateDir();
    const path = sortPrefsPath(dir, 'work');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{"interns": ');
    const app = renderApp({ options: { stateDir: dir, profile: 'work' } });
    const f = await app.waitFor('not JSON; ignored');
    expect(f).toContain('sort preferences');
    expect(f).not.toMatch(/[↑↓]/);
    expect(readFileSync(path, 'utf8')).toBe('{"interns": ');
  });
});

describe('the vault', () => {
  it('sorts the secrets by name with N and by host with H, keeps the cursor on its secret, and keeps the sort under the filter', async () => {
    const api = new FakeApi();
    await api.putVaultSecret('ZETA_TOKEN', { value: 'z', hosts: ['a.example.com'] });
    await api.putVaultSecret('ALPHA_KEY', { value: 'a', hosts: ['c.example.com'] });
    await api.putVaultSecret('MID_TOKEN', { value: 'm', hosts: ['b.example.com'] });
    const app = renderApp({ api, initial: { name: 'vault' }, options: { stateDir: stateDir(), profile: 'work' } });
    let f = await app.waitFor('MID_TOKEN');
    const names = ['ZETA_TOKEN', 'ALPHA_KEY', 'MID_TOKEN'];
    const first = order(f, names);
    // The cursor on the second row, whichever it is: it stays on that secret.
    await app.press('j');
    f = await app.waitFor(new RegExp(`^›.*${first[1]}`, 'm'));
    await app.press('N');
    f = await app.waitFor('NAME↑');
    expect(order(f, names)).toEqual(['ALPHA_KEY', 'MID_TOKEN', 'ZETA_TOKEN']);
    expect(selected(f)).toContain(first[1]);
    await app.press('H');
    f = await app.waitFor('HOSTS↑');
    expect(order(f, names)).toEqual(['ZETA_TOKEN', 'MID_TOKEN', 'ALPHA_KEY']);
    await app.type('/token');
    f = await app.waitFor((fr) => !fr.includes('ALPHA_KEY') && fr.includes('ZETA_TOKEN'));
    expect(order(f, ['ZETA_TOKEN', 'MID_TOKEN'])).toEqual(['ZETA_TOKEN', 'MID_TOKEN']);
  });
});
