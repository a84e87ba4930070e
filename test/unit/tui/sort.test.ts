/** The one sort model (state/sort.ts) and the sorts kept per profile (state/sortPrefs.ts). */
import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzyFilter } from '../../../src/tui/fuzzy.js';
import { nextColumn, parseSort, registerSortTarget, reverse, sortColumns, sortRows, sortTargetOf, toggle, validSpec, type Sortable, type Ties } from '../../../src/tui/state/sort.js';
import { fileSortPrefs, sortPrefsPath } from '../../../src/tui/state/sortPrefs.js';

type Row = { id: string; name: string; status: string; model: string | null; updated: string; cost: number | null };
const COLUMNS: Sortable<Row>[] = [
  { header: '' },
  { header: 'NAME', sort: { kind: 'text', by: (r) => r.name, key: 'sortName' } },
  { header: 'STATUS', sort: { kind: 'status', by: (r) => r.status, key: 'sortStatus' } },
  { header: 'MODEL', sort: { kind: 'text', by: (r) => r.model } },
  { header: 'UPDATED', sort: { kind: 'time', by: (r) => r.updated, key: 'sortAge' } },
  { header: 'COST', sort: { kind: 'number', by: (r) => r.cost } },
  { header: 'BEGAN (UTC)', sort: { kind: 'time', by: (r) => r.updated } },
];
const TIES: Ties<Row> = { name: (r) => r.name, id: (r) => r.id };
const row = (id: string, name: string, status: string, model: string | null, updated: string, cost: number | null = null): Row => ({ id, name, status, model, updated, cost });
const ROWS: Row[] = [
  row('4', 'intern-10', 'stopped', 'openai/gpt-4o', '2026-11-01T10:00:00Z', 2),
  row('1', 'Zeta', 'running', null, '2026-11-03T10:00:00Z', 0.5),
  row('3', 'alpha', 'failed', 'anthropic/claude', '2026-11-02T10:00:00Z'),
  row('2', 'intern-2', 'queued', 'Anthropic/claude', '2026-11-04T10:00:00Z', 10),
];
const names = (rows: readonly Row[]) => rows.map((r) => r.name);
const by = (column: string, direction: 'asc' | 'desc' = 'asc') => ({ column, direction });

describe('sortRows', () => {
  it('leaves the rows as they are (the same array) with no sort, or one of a column the list lacks', () => {
    expect(sortRows(ROWS, COLUMNS, null, TIES)).toBe(ROWS);
    expect(sortRows(ROWS, COLUMNS, by('hostname'), TIES)).toBe(ROWS);
  });

  it('sorts text by the locale, in any case, numbers in names by value, and the other way', () => {
    expect(names(sortRows(ROWS, COLUMNS, by('name'), TIES))).toEqual(['alpha', 'intern-2', 'intern-10', 'Zeta']);
    expect(names(sortRows(ROWS, COLUMNS, by('name', 'desc'), TIES))).toEqual(['Zeta', 'intern-10', 'intern-2', 'alpha']);
  });

  it('sorts the sanitised text: a control character in a name does not put it first', () => {
    const odd = [row('a', '\u001b[31mbeta', 'running', null, ''), row('b', 'alpha', 'running', null, '')];
    expect(names(sortRows(odd, COLUMNS, by('name'), TIES))).toEqual(['alpha', '\u001b[31mbeta']);
  });

  it('puts statuses in the status filter order (running, failed first), times by instant, numbers by value', () => {
    expect(names(sortRows(ROWS, COLUMNS, by('status'), TIES))).toEqual(['Zeta', 'alpha', 'intern-10', 'intern-2']);
    expect(names(sortRows(ROWS, COLUMNS, by('updated', 'desc'), TIES))).toEqual(['intern-2', 'Zeta', 'alpha', 'intern-10']);
    expect(names(sortRows(ROWS, COLUMNS, by('cost'), TIES))).toEqual(['Zeta', 'intern-10', 'intern-2', 'alpha']);
  });

  it('puts rows with no value last in either direction', () => {
    expect(names(sortRows(ROWS, COLUMNS, by('model'), TIES)).at(-1)).toBe('Zeta');
    expect(names(sortRows(ROWS, COLUMNS, by('model', 'desc'), TIES)).at(-1)).toBe('Zeta');
    expect(names(sortRows(ROWS, COLUMNS, by('cost', 'desc'), TIES))).toEqual(['intern-2', 'intern-10', 'Zeta', 'alpha']);
  });

  it('breaks ties by name, then id, whatever order the rows came in', () => {
    // anthropic/claude and Anthropic/claude are the same text to a case-insensitive compare.
    const tied = names(sortRows(ROWS, COLUMNS, by('model'), TIES)).slice(0, 2);
    expect(tied).toEqual(['alpha', 'intern-2']);
    const twins = [row('b', 'same', 'running', null, ''), row('a', 'same', 'running', null, '')];
    expect(sortRows(twins, COLUMNS, by('status'), TIES).map((r) => r.id)).toEqual(['a', 'b']);
    expect(sortRows([...twins].reverse(), COLUMNS, by('status', 'desc'), TIES).map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('keys and steps', () => {
  const col = (name: string) => sortColumns(COLUMNS).find((c) => c.name === name)!;
  it('names columns by their header\'s first word, and only those that sort', () => {
    expect(sortColumns(COLUMNS).map((c) => c.name)).toEqual(['name', 'status', 'model', 'updated', 'cost', 'began']);
  });

  it('sorts by a column first in its own direction (newest first for times), and the other way when it is pressed again', () => {
    expect(toggle(null, col('name'))).toEqual(by('name'));
    expect(toggle(by('name'), col('name'))).toEqual(by('name', 'desc'));
    expect(toggle(by('name', 'desc'), col('name'))).toEqual(by('name'));
    expect(toggle(by('name', 'desc'), col('updated'))).toEqual(by('updated', 'desc'));
  });

  it('steps through the columns, then back to the list\'s own order; reverses the one there is', () => {
    expect(nextColumn(null, COLUMNS)).toEqual(by('name'));
    expect(nextColumn(by('name', 'desc'), COLUMNS)).toEqual(by('status'));
    expect(nextColumn(by('began'), COLUMNS)).toBeNull();
    expect(reverse(by('status'), COLUMNS)).toEqual(by('status', 'desc'));
    expect(reverse(null, COLUMNS)).toEqual(by('name', 'desc'));
  });

  it('keeps a stored sort only when the list has its column', () => {
    expect(validSpec(by('name'), COLUMNS)).toEqual(by('name'));
    expect(validSpec(by('scope'), COLUMNS)).toBeNull();
  });
});

describe(':sort COLUMN [asc|desc]', () => {
  it('takes a name or header in any case, the start of one, and a direction', () => {
    expect(parseSort('NAME', COLUMNS)).toEqual({ spec: by('name') });
    expect(parseSort('upd', COLUMNS)).toEqual({ spec: by('updated', 'desc') });
    expect(parseSort('updated asc', COLUMNS)).toEqual({ spec: by('updated') });
    expect(parseSort('BEGAN', COLUMNS)).toEqual({ spec: by('began', 'desc') });
    expect(parseSort('Status DESC', COLUMNS)).toEqual({ spec: by('status', 'desc') });
    expect(parseSort('none', COLUMNS)).toEqual({ spec: null });
  });

  it('says in one line what is wrong, naming the columns there are and the closest', () => {
    const typo = parseSort('stauts', COLUMNS);
    expect(typo).toEqual({ error: 'no column "stauts" here (did you mean status?); columns: name, status, model, updated, cost, began' });
    expect(parseSort('', COLUMNS)).toEqual({ error: expect.stringContaining('columns: name, status') });
    expect(parseSort('name sideways', COLUMNS)).toEqual({ error: '"sideways" is no direction: asc or desc' });
    expect(parseSort('name asc now', COLUMNS)).toEqual({ error: expect.stringMatching(/too many/) });
    expect(parseSort('\u001b[2Jx', COLUMNS)).toEqual({ error: expect.not.stringContaining('\u001b') });
    for (const r of [typo, parseSort('name sideways', COLUMNS)]) expect('error' in r && r.error.includes('\n')).toBe(false);
  });

  it('reaches the list a shell shows, and only while it is registered', () => {
    const shell = {};
    const target = { columns: ['name'], parse: () => ({ spec: null }), apply: () => {} };
    const undo = registerSortTarget(shell, target);
    expect(sortTargetOf(shell)).toBe(target);
    const later = { ...target };
    const undoLater = registerSortTarget(shell, later);
    undo();
    expect(sortTargetOf(shell)).toBe(later);
    undoLater();
    expect(sortTargetOf(shell)).toBeUndefined();
  });
});

describe('a sorted list under the filter', () => {
  it('keeps the sort\'s order for the rows the filter leaves (keepOrder), and the filter\'s best first without one', () => {
    const rows = [{ name: 'r-u-n' }, { name: 'zzz' }, { name: 'runner' }];
    const fields = (r: { name: string }) => [{ text: r.name, column: 'NAME' }];
    expect(fuzzyFilter(rows, 'run', fields).map((m) => m.row.name)).toEqual(['runner', 'r-u-n']);
    expect(fuzzyFilter(rows, 'run', fields, { keepOrder: true }).map((m) => m.row.name)).toEqual(['r-u-n', 'runner']);
  });
});

describe('sort preferences', () => {
  const dir = () => join(mkdtempSync(join(tmpdir(), 'intern-tui-sort-')), 'intern-tui');
  const mode = (p: string) => statSync(p).mode & 0o777;

  it('keeps each list\'s sort per profile, in a 0600 file in 0700 folders, read again by the next process', () => {
    const state = dir();
    const path = sortPrefsPath(state, 'work');
    expect(sortPrefsPath(state, null)).not.toBe(path);
    const prefs = fileSortPrefs(path);
    expect(prefs.get('interns')).toBeNull();
    prefs.set('interns', by('name', 'desc'));
    prefs.set('byok', by('provider'));
    expect(mode(path)).toBe(0o600);
    expect(mode(dirname(path))).toBe(0o700);
    const again = fileSortPrefs(path);
    expect(again.get('interns')).toEqual(by('name', 'desc'));
    expect(again.get('byok')).toEqual(by('provider'));
    again.set('byok', null);
    expect(fileSortPrefs(path).get('byok')).toBeNull();
    expect(again.takeProblem()).toBeNull();
  });

  it('keeps another process\'s sort of another list when it writes its own', () => {
    const path = sortPrefsPath(dir(), 'work');
    const one = fileSortPrefs(path);
    const two = fileSortPrefs(path);
    one.get('interns');
    two.set('vault', by('name'));
    one.set('interns', by('status'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ vault: by('name'), interns: by('status') });
  });

  it('says a corrupt file once, in one line, ignores it, and does not write over it', () => {
    const path = sortPrefsPath(dir(), 'work');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{"interns": {"column": "name", "dir');
    const prefs = fileSortPrefs(path);
    expect(prefs.get('interns')).toBeNull();
    const problem = prefs.takeProblem();
    expect(problem).toMatch(/^sort preferences: not JSON; ignored \(.*profile-work\.json\)$/);
    prefs.set('interns', by('name'));
    expect(prefs.get('interns')).toEqual(by('name'));
    expect(prefs.takeProblem()).toBeNull();
    expect(readFileSync(path, 'utf8')).toContain('"dir');
  });

  it('skips entries that are not sorts, and says so', () => {
    const path = sortPrefsPath(dir(), 'work');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ interns: by('name'), byok: { column: 'name', direction: 'up' }, 'Bad List': by('name'), vault: { column: '\u001b[2J' , direction: 'asc' } }));
    const prefs = fileSortPrefs(path);
    expect(prefs.get('interns')).toEqual(by('name'));
    expect(prefs.get('byok')).toBeNull();
    expect(prefs.get('vault')).toBeNull();
    expect(prefs.takeProblem()).toMatch(/^sort preferences: 3 entries are not a sort; skipped \(/);
  });
});
