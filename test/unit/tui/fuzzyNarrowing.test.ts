/**
 * The filter's speed rules do not change what it finds: a word typed onto the last one is searched
 * among the last one's matches, a backspace takes the word's cached matches, and marks are worked
 * out when a row is drawn. Every result here is compared with a search of a fresh list (no cache,
 * nothing to narrow from) and with fzf's own `find` over every field.
 */
import { Fzf } from 'fzf';
import { describe, expect, it } from 'vitest';
import { type FilterField, type RowMatch, fuzzyFilter, narrows } from '../../../src/tui/fuzzy.js';

type Row = { name: string; model: string; status: string; description: string };
const fields = (r: Row): FilterField[] => [
  { text: r.name, column: 'NAME' },
  { text: r.status, column: 'STATUS' },
  { text: r.model, column: 'MODEL' },
  { text: r.description, column: 'HOSTNAME', hidden: 'description' },
];

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['intern', 'runner', 'builder', 'ΑΣΑ-bot', 'café', 'cafe\u0301-old', 'Résumé', 'x-ray', 'nightly'];
const MODELS = ['anthropic/claude-sonnet-4', 'openai/gpt-4.1', 'openai/gpt-4o', 'google/gemini-2.5-pro', ''];
const STATUSES = ['● running', '○ stopped', '✖ failed'];
const DESCRIPTIONS = ['', 'Keeps CI green', 'Builds nightly', 'Watches the release branch of the intern fleet'];

function fleet(rnd: () => number, n: number): Row[] {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  return Array.from({ length: n }, (_, i) => ({ name: `${pick(NAMES)}-${i}`, model: pick(MODELS), status: pick(STATUSES), description: pick(DESCRIPTIONS) }));
}

/** What a result says: rows in order, scores, and every mark. */
const said = (ms: RowMatch<Row>[]) =>
  ms.map((m) => [m.row.name, m.score, [...m.marks].map(([col, mark]) => [col, mark.text ?? null, [...mark.positions].sort((a, b) => a - b)])]);

/** The filter as it was before its speed rules: fzf's `find` over every field of every row, per word. */
function reference(rows: readonly Row[], query: string): [string, number][] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows.map((r) => [r.name, 0]);
  const entries = rows.flatMap((r, row) => fields(r).map((f, field) => ({ row, field, text: f.text })).filter((e) => e.text !== ''));
  const finder = new Fzf(entries, { selector: (e: { text: string }) => e.text, casing: 'case-insensitive' });
  const total = new Map<number, number>();
  words.forEach((word, w) => {
    const best = new Map<number, number>();
    for (const r of finder.find(word)) best.set(r.item.row, Math.max(best.get(r.item.row) ?? -Infinity, r.score));
    for (const [row, s] of best) if (w === 0 || total.has(row)) total.set(row, (w === 0 ? 0 : total.get(row)!) + s);
    for (const row of total.keys()) if (!best.has(row)) total.delete(row);
  });
  return [...total].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([row, s]) => [rows[row]!.name, s]);
}

describe('the filter narrowed as a query grows', () => {
  it('finds what a full search finds, key by key, typing and backspacing at random', () => {
    const KEYS = ['i', 'n', 't', 'e', 'r', 'u', 'b', 'g', 'p', '4', '-', '1', '.', ' ', 'É', 'é', '\u0301', 'Σ', 'σ', 'a', 'o', 'c', 'l', 'N'];
    for (const seed of [1, 2, 3, 4]) {
      const rnd = random(seed);
      const rows = fleet(rnd, 120);
      let query = '';
      for (let step = 0; step < 50; step++) {
        query = rnd() < 0.3 && query ? query.slice(0, -1 - Math.floor(rnd() * 2)) : query + KEYS[Math.floor(rnd() * KEYS.length)];
        const warm = fuzzyFilter(rows, query, fields);
        const cold = fuzzyFilter([...rows], query, fields);
        expect(said(warm), `seed ${seed}, query ${JSON.stringify(query)}`).toEqual(said(cold));
        expect(warm.map((m) => [m.row.name, m.score]), `seed ${seed}, query ${JSON.stringify(query)}`).toEqual(reference(rows, query));
      }
    }
  });

  it('narrows only where fzf matches a subset: a pattern that is a subsequence of the new one, after NFC and lowering', () => {
    expect(narrows('in', 'int')).toBe(true);
    expect(narrows('it', 'int')).toBe(true);
    expect(narrows('int', 'in')).toBe(false);
    // "ας" (the final sigma lowered at the end of a word) is not in "ασα".
    expect(narrows('ΑΣ'.toLowerCase(), 'ΑΣΑ'.toLowerCase())).toBe(false);
    // An accent typed after its letter recomposes it: "e" is not in "é" (NFC).
    expect(narrows('cafe', 'cafe\u0301'.normalize())).toBe(false);
  });

  it('keeps the final sigma apart: "ΑΣ" then "ΑΣΑ" finds what a fresh search finds', () => {
    const rows: Row[] = [{ name: 'ΑΣΑ', model: '', status: '', description: '' }, { name: 'ας', model: '', status: '', description: '' }];
    for (const q of ['Α', 'ΑΣ', 'ΑΣΑ', 'ΑΣ', 'Α']) expect(said(fuzzyFilter(rows, q, fields))).toEqual(said(fuzzyFilter([...rows], q, fields)));
  });

  it('works out a row\'s marks when they are read, and the same marks each time', () => {
    const rows = fleet(random(9), 50);
    const found = fuzzyFilter(rows, 'run gpt', fields);
    expect(found.length).toBeGreaterThan(0);
    const first = found[0]!.marks;
    expect(found[0]!.marks).toBe(first);
    expect(first.get('MODEL')!.positions.size).toBe(3);
  });
});
