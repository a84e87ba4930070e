/** The one filter model: fzf's scoring over a row's fields, every word matched, marks for the view. */
import { describe, expect, it } from 'vitest';
import { type FilterField, fuzzyFilter, markedRuns } from '../../../src/tui/fuzzy.js';

type Row = { name: string; model: string; description: string };
const fields = (r: Row): FilterField[] => [
  { text: r.name, column: 'NAME' },
  { text: r.model, column: 'MODEL' },
  { text: r.description, column: 'HOSTNAME', hidden: 'description' },
];
const rows: Row[] = [
  { name: 'runner', model: 'anthropic/claude-sonnet-4', description: 'Keeps CI green' },
  { name: 'builder', model: 'openai/gpt-4.1', description: '' },
  { name: 'sleeper', model: 'openai/gpt-4o', description: 'Builds nightly' },
];

describe('fuzzyFilter', () => {
  it('matches fuzzily, as fzf does: "gpt4" finds the gpt-4 models a substring match missed', () => {
    expect(fuzzyFilter(rows, 'gpt4', fields).map((m) => m.row.name)).toEqual(['builder', 'sleeper']);
    expect(fuzzyFilter(rows, 'zzz', fields)).toEqual([]);
  });

  it('leaves every row, in order and unmarked, for an empty query', () => {
    const all = fuzzyFilter(rows, '  ', fields);
    expect(all.map((m) => m.row)).toEqual(rows);
    expect(all.every((m) => m.marks.size === 0)).toBe(true);
  });

  it('ranks by score and marks the matched characters of the column that draws them', () => {
    const [first] = fuzzyFilter(rows, 'run', fields);
    expect(first!.row.name).toBe('runner');
    expect([...first!.marks.get('NAME')!.positions].sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it('needs every word to match some field of the row', () => {
    expect(fuzzyFilter(rows, 'openai sleep', fields).map((m) => m.row.name)).toEqual(['sleeper']);
    expect(fuzzyFilter(rows, 'openai runner', fields)).toEqual([]);
  });

  it('shows a hidden field that matched in the column it names, with its label, and the marks moved past the label', () => {
    const [m] = fuzzyFilter(rows, 'nightly', fields);
    expect(m!.row.name).toBe('sleeper');
    const mark = m!.marks.get('HOSTNAME')!;
    expect(mark.text).toBe('description: Builds nightly');
    const hit = [...mark.positions].sort((a, b) => a - b).map((p) => mark.text![p]).join('');
    expect(hit).toBe('nightly');
  });

  it('matches the text as drawn: control characters are gone before matching', () => {
    const hostile = [{ name: 'ev\x1b[31mil', model: '', description: '' }];
    const [m] = fuzzyFilter(hostile, 'evil', fields);
    expect(m).toBeDefined();
    expect([...m!.marks.get('NAME')!.positions].sort((a, b) => a - b).map((p) => 'evil'[p])).toEqual(['e', 'v', 'i', 'l']);
  });

  it('5,000 rows of 3 fields filter in one pass (the intern list at 100x)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ name: `intern-${i}`, model: i % 2 ? 'openai/gpt-4.1' : 'anthropic/claude', description: `number ${i}` }));
    expect(fuzzyFilter(many, 'intern-4999', fields)[0]!.row.name).toBe('intern-4999');
  });
});

describe('markedRuns', () => {
  it('cuts a text into runs of matched and unmatched characters', () => {
    expect(markedRuns('runner', new Set([0, 1, 4]))).toEqual([
      { text: 'ru', hit: true },
      { text: 'nn', hit: false },
      { text: 'e', hit: true },
      { text: 'r', hit: false },
    ]);
    expect(markedRuns('x', undefined)).toEqual([{ text: 'x', hit: false }]);
  });
});
