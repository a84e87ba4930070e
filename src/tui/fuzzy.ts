/**
 * The one filter model of the TUI's lists and pickers: fuzzy, with fzf's own scoring (the `fzf`
 * package, a port of fzf's algorithm), over the fields a row declares. Each word of the query must
 * match one field of a row; rows are ranked by the sum of their words' best scores (ties keep the
 * list's order). A row remembers where each word matched, so the view can highlight those
 * characters, and a field that is not drawn (an intern's description) that matched is put on the
 * row, in the column it names, so that no row is there "for no visible reason".
 */
import { Fzf } from 'fzf';
import { sanitize } from '../text.js';

export interface FilterField {
  /** The text as drawn (sanitised here again, so positions are those of the drawn text). */
  text: string;
  /** The column that draws it. */
  column: string;
  /** For a field no column draws: the label it is shown under, in `column`, when it matched. */
  hidden?: string;
}

export interface CellMark {
  /** Text drawn instead of the cell's own (a hidden field that matched). */
  text?: string;
  /** Indices (UTF-16) of the matched characters in the drawn text. */
  positions: ReadonlySet<number>;
}

export interface RowMatch<T> {
  row: T;
  score: number;
  /** By column. */
  marks: ReadonlyMap<string, CellMark>;
}

interface Entry {
  row: number;
  field: number;
  text: string;
}

/** The words of a query: blanks separate them. */
const wordsOf = (query: string): string[] => query.trim().split(/\s+/).filter(Boolean);

/** Every row, unmarked, in order: what an empty query leaves. */
function unfiltered<T>(rows: readonly T[]): RowMatch<T>[] {
  return rows.map((row) => ({ row, score: 0, marks: new Map() }));
}

interface Index {
  fieldsOf: (row: never) => FilterField[];
  fields: FilterField[][];
  finder: Fzf<readonly Entry[]>;
}

/**
 * The rows' fields, sanitised, and fzf's finder over them: made once per list of rows (a list's
 * identity changes when it reloads, not on a key), so a key typed into the filter costs the search
 * alone. At 5,000 interns the fields and the finder were half of a key's time.
 */
const indexes = new WeakMap<readonly unknown[], Index>();

function indexOf<T>(rows: readonly T[], fieldsOf: (row: T) => FilterField[]): Index {
  const had = indexes.get(rows);
  if (had && had.fieldsOf === fieldsOf) return had;
  const fields = rows.map((r) => fieldsOf(r).map((f) => ({ ...f, text: sanitize(f.text) })));
  const entries: Entry[] = [];
  fields.forEach((fs, row) => fs.forEach((f, field) => f.text !== '' && entries.push({ row, field, text: f.text })));
  const index: Index = { fieldsOf: fieldsOf as Index['fieldsOf'], fields, finder: new Fzf(entries as readonly Entry[], { selector: (e: Entry) => e.text, casing: 'case-insensitive' }) };
  indexes.set(rows, index);
  return index;
}

/**
 * The rows the query leaves, with what each matched: best first, or, with `keepOrder` (a list the
 * person sorted: state/sort.ts), in the rows' own order.
 */
export function fuzzyFilter<T>(rows: readonly T[], query: string, fieldsOf: (row: T) => FilterField[], opts: { keepOrder?: boolean } = {}): RowMatch<T>[] {
  const words = wordsOf(query);
  if (words.length === 0) return unfiltered(rows);
  const { fields, finder } = indexOf(rows, fieldsOf);
  // Per row: its score so far, and per field the positions its words matched.
  const found = new Map<number, { score: number; words: number; hits: Map<number, Set<number>> }>();
  for (const [w, word] of words.entries()) {
    const best = new Map<number, { score: number; field: number; positions: Set<number> }>();
    for (const r of finder.find(word)) {
      const had = best.get(r.item.row);
      if (!had || r.score > had.score) best.set(r.item.row, { score: r.score, field: r.item.field, positions: r.positions });
    }
    for (const [row, b] of best) {
      const f = found.get(row) ?? (w === 0 ? { score: 0, words: 0, hits: new Map() } : undefined);
      // A row some earlier word missed is out.
      if (!f || f.words !== w) continue;
      f.score += b.score;
      f.words++;
      const hits = f.hits.get(b.field) ?? new Set<number>();
      for (const p of b.positions) hits.add(p);
      f.hits.set(b.field, hits);
      found.set(row, f);
    }
  }
  const out: (RowMatch<T> & { index: number })[] = [];
  for (const [index, f] of found) {
    if (f.words !== words.length) continue;
    const marks = new Map<string, CellMark>();
    for (const [field, positions] of f.hits) {
      const def = fields[index]![field]!;
      if (def.hidden === undefined) {
        marks.set(def.column, { positions });
      } else if (!marks.has(def.column)) {
        const prefix = `${def.hidden}: `;
        marks.set(def.column, { text: prefix + def.text, positions: new Set([...positions].map((p) => p + prefix.length)) });
      }
    }
    out.push({ row: rows[index]!, score: f.score, marks, index });
  }
  return out.sort((a, b) => (opts.keepOrder ? 0 : b.score - a.score) || a.index - b.index).map(({ index: _, ...m }) => m);
}

/** A cell's text cut into runs of matched and unmatched characters, for drawing. */
export function markedRuns(text: string, positions: ReadonlySet<number> | undefined): { text: string; hit: boolean }[] {
  if (!positions || positions.size === 0) return [{ text, hit: false }];
  const runs: { text: string; hit: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const hit = positions.has(i);
    const last = runs.at(-1);
    if (last && last.hit === hit) last.text += text[i];
    else runs.push({ text: text[i]!, hit });
  }
  return runs;
}
