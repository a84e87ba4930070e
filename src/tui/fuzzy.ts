/**
 * The one filter model of the TUI's lists and pickers: fuzzy, with fzf's own scoring (the `fzf`
 * package, a port of fzf's algorithm), over the fields a row declares. Each word of the query must
 * match one field of a row; rows are ranked by the sum of their words' best scores (ties keep the
 * list's order). A row remembers where each word matched, so the view can highlight those
 * characters, and a field that is not drawn (an intern's description) that matched is put on the
 * row, in the column it names, so that no row is there "for no visible reason".
 */
import * as fzf from 'fzf';
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

/** The words of a query: blanks separate them. */
const wordsOf = (query: string): string[] => query.trim().split(/\s+/).filter(Boolean);

/** Every row, unmarked, in order: what an empty query leaves. */
function unfiltered<T>(rows: readonly T[]): RowMatch<T>[] {
  return rows.map((row) => ({ row, score: 0, marks: new Map() }));
}

/** The finder fzf's matchers run as (`this`): its `runesList` and `items` are public fields. */
interface Finder {
  runesList: unknown[];
  items: readonly number[];
}
interface Found {
  item: number;
  score: number;
  positions: Set<number>;
}
/**
 * fzf's basic matcher, the one `find` uses by default, called on a view of the finder. (It is
 * exported; its declaration is in a file that `export *` names without an extension, which NodeNext
 * resolution does not follow, so it is typed here.)
 */
const basicMatch = (fzf as unknown as { basicMatch: (this: Finder, query: string) => Found[] }).basicMatch;

/** What one word matched: the distinct texts (by id) and their scores. */
interface WordHits {
  ids: Int32Array;
  scores: Int32Array;
}

/**
 * A word as fzf's basic matcher searches for it (`find` composes it to NFC, the matcher lowers its
 * case whole, then maps each code point on its own): the key of the word cache, compared by code point.
 */
const patternOf = (word: string): string => word.normalize().toLowerCase();

/**
 * Whether every text matching `longer` matches `shorter`. fzf's basic (non-extended) match is "the
 * pattern's code points appear in order in the text's", after a per-code-point mapping (case,
 * diacritics) applied alike to pattern and text, and its V1 fallback for long texts matches the same
 * texts as V2; so a pattern that is a subsequence of another matches every text the other matches.
 * The patterns are compared after NFC and the whole-word lowering the matcher does, so a key that
 * recomposes ("e" then a combining accent) or a final sigma that changes with the next letter
 * falls back to a full search. (Extended-search syntax, `'exact` or `!not`, is not used: with
 * `!` a longer query matches more texts.)
 */
export function narrows(shorter: string, longer: string): boolean {
  const a = [...shorter];
  let i = 0;
  for (const c of longer) if (i < a.length && c === a[i]) i++;
  return i === a.length;
}

/** Word results kept per list: enough for a query typed and backspaced over, a few words long. */
const CACHED_WORDS = 32;
const NONE = -0x80000000;

interface Index {
  fieldsOf: (row: never) => FilterField[];
  fields: FilterField[][];
  /** The distinct texts of every row's fields (statuses and models repeat across a fleet). */
  texts: string[];
  /** Per row, per field: its text's id (-1: empty). */
  textIds: Int32Array[];
  /** Who has text t: ownerRow/ownerField[ownerStart[t] .. ownerStart[t + 1]). */
  ownerStart: Int32Array;
  ownerRow: Int32Array;
  ownerField: Int32Array;
  finder: fzf.Fzf<readonly number[]>;
  /** The texts the next `find` looks at (all when undefined): how a growing word searches only the last one's matches. */
  scope: { ids: ArrayLike<number> | undefined };
  /** Recent words' hits by pattern, least recently used first. */
  words: Map<string, WordHits>;
}

/**
 * The rows' fields, sanitised, their distinct texts and fzf's finder over them: made once per list
 * of rows (a list's identity changes when it reloads, not on a key), so a key typed into the filter
 * costs the search alone. At 5,000 interns the fields and the finder were half of a key's time.
 */
const indexes = new WeakMap<readonly unknown[], Index>();

function indexOf<T>(rows: readonly T[], fieldsOf: (row: T) => FilterField[]): Index {
  const had = indexes.get(rows);
  if (had && had.fieldsOf === fieldsOf) return had;
  const fields = rows.map((r) => fieldsOf(r).map((f) => ({ ...f, text: sanitize(f.text) })));
  const idOf = new Map<string, number>();
  const texts: string[] = [];
  const counts: number[] = [];
  for (const fs of fields) {
    for (const f of fs) {
      if (f.text === '') continue;
      let id = idOf.get(f.text);
      if (id === undefined) {
        id = texts.push(f.text) - 1;
        idOf.set(f.text, id);
        counts.push(0);
      }
      counts[id]!++;
    }
  }
  const textIds = fields.map((fs) => Int32Array.from(fs, (f) => (f.text === '' ? -1 : idOf.get(f.text)!)));
  const ownerStart = new Int32Array(texts.length + 1);
  for (let t = 0; t < texts.length; t++) ownerStart[t + 1] = ownerStart[t]! + counts[t]!;
  const ownerRow = new Int32Array(ownerStart[texts.length]!);
  const ownerField = new Int32Array(ownerRow.length);
  const next = ownerStart.slice(0, texts.length);
  fields.forEach((fs, row) =>
    fs.forEach((f, field) => {
      if (f.text === '') return;
      const at = next[idOf.get(f.text)!]!++;
      ownerRow[at] = row;
      ownerField[at] = field;
    }),
  );
  const scope: Index['scope'] = { ids: undefined };
  // fzf's basic matcher, over the texts in scope only (a view of the finder with fewer runes).
  function match(this: Finder, query: string) {
    const ids = scope.ids;
    if (ids === undefined) return basicMatch.call(this, query);
    const runesList = this.runesList;
    const view = Object.create(this) as Finder;
    view.runesList = Array.from(ids, (id) => runesList[id]);
    view.items = Array.from(ids);
    return basicMatch.call(view, query);
  }
  const ids = texts.map((_, i) => i);
  const finder = new fzf.Fzf(ids as readonly number[], { selector: (id: number) => texts[id]!, casing: 'case-insensitive', match });
  const index: Index = { fieldsOf: fieldsOf as Index['fieldsOf'], fields, texts, textIds, ownerStart, ownerRow, ownerField, finder, scope, words: new Map() };
  indexes.set(rows, index);
  return index;
}

/** fzf's results, with `scope` set for the call alone. */
function findIn(index: Index, word: string, ids: ArrayLike<number> | undefined): Found[] {
  index.scope.ids = ids;
  try {
    return index.finder.find(word);
  } finally {
    index.scope.ids = undefined;
  }
}

/**
 * The texts one word matches, and their scores: from the cache when the word was searched for
 * lately (a backspace), else among the matches of the narrowest cached word it extends (a key
 * typed onto the word), else among all the texts.
 */
function hitsOf(index: Index, word: string): WordHits {
  const key = patternOf(word);
  const cached = index.words.get(key);
  if (cached) {
    index.words.delete(key);
    index.words.set(key, cached);
    return cached;
  }
  let base: WordHits | undefined;
  for (const [k, hits] of index.words) if (narrows(k, key) && (!base || hits.ids.length < base.ids.length)) base = hits;
  const found = findIn(index, word, base?.ids);
  const hits: WordHits = { ids: new Int32Array(found.length), scores: new Int32Array(found.length) };
  found.forEach((r, i) => {
    hits.ids[i] = r.item;
    hits.scores[i] = r.score;
  });
  index.words.set(key, hits);
  if (index.words.size > CACHED_WORDS) index.words.delete(index.words.keys().next().value!);
  return hits;
}

/** The positions a word matched in one text: asked for the rows drawn only. */
function positionsOf(index: Index, word: string, text: number): ReadonlySet<number> {
  return findIn(index, word, [text])[0]?.positions ?? new Set();
}

/**
 * The rows that match every word of the query, best first (ties in the list's order), or, with
 * `keepOrder` (a list the person sorted: state/sort.ts), in the rows' own order. Each word is
 * searched among the distinct texts, narrowed from the last matches while it grows; a row's marks
 * (the positions each word matched, for the highlight) are worked out when first read, so a key
 * costs the marks of the rows on screen, not of every match.
 */
export function fuzzyFilter<T>(rows: readonly T[], query: string, fieldsOf: (row: T) => FilterField[], opts: { keepOrder?: boolean } = {}): RowMatch<T>[] {
  const words = wordsOf(query);
  if (words.length === 0) return unfiltered(rows);
  const index = indexOf(rows, fieldsOf);
  const { ownerStart, ownerRow, ownerField } = index;
  const total = new Float64Array(rows.length);
  /** Per word, the field of each row whose text scored best (the lowest field on a tie). */
  const fieldOf: Int32Array[] = [];
  let alive: number[] | undefined;
  for (const word of words) {
    const { ids, scores } = hitsOf(index, word);
    const best = new Int32Array(rows.length).fill(NONE);
    const field = new Int32Array(rows.length);
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k]!;
      const s = scores[k]!;
      for (let o = ownerStart[t]!; o < ownerStart[t + 1]!; o++) {
        const r = ownerRow[o]!;
        const f = ownerField[o]!;
        if (s > best[r]! || (s === best[r]! && f < field[r]!)) {
          best[r] = s;
          field[r] = f;
        }
      }
    }
    fieldOf.push(field);
    // A row some word missed is out.
    const kept: number[] = [];
    for (const r of alive ?? rows.keys()) {
      if (best[r] === NONE) continue;
      total[r]! += best[r]!;
      kept.push(r);
    }
    alive = kept;
  }
  const order = alive ?? [];
  order.sort((a, b) => (opts.keepOrder ? 0 : total[b]! - total[a]!) || a - b);
  const marksOf = (r: number): ReadonlyMap<string, CellMark> => {
    const hits = new Map<number, Set<number>>();
    words.forEach((word, w) => {
      const f = fieldOf[w]![r]!;
      const set = hits.get(f) ?? new Set<number>();
      for (const p of positionsOf(index, word, index.textIds[r]![f]!)) set.add(p);
      hits.set(f, set);
    });
    const marks = new Map<string, CellMark>();
    for (const [field, positions] of hits) {
      const def = index.fields[r]![field]!;
      if (def.hidden === undefined) {
        marks.set(def.column, { positions });
      } else if (!marks.has(def.column)) {
        const prefix = `${def.hidden}: `;
        marks.set(def.column, { text: prefix + def.text, positions: new Set([...positions].map((p) => p + prefix.length)) });
      }
    }
    return marks;
  };
  return order.map((r) => new LazyMatch(rows[r]!, total[r]!, r, marksOf));
}

/** A match whose marks are worked out when first read (the table reads the rows it draws). */
class LazyMatch<T> implements RowMatch<T> {
  #marks: ReadonlyMap<string, CellMark> | undefined;
  constructor(
    readonly row: T,
    readonly score: number,
    index: number,
    marksOf: (r: number) => ReadonlyMap<string, CellMark>,
  ) {
    this.#read = () => marksOf(index);
  }
  readonly #read: () => ReadonlyMap<string, CellMark>;
  get marks(): ReadonlyMap<string, CellMark> {
    return (this.#marks ??= this.#read());
  }
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
