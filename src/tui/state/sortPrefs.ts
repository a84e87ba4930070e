/**
 * The sorts a person chose, per profile and list: one small JSON file a profile under the state
 * folder, `sort/<profile>.json`, `{ "interns": { "column": "name", "direction": "asc" }, ... }`,
 * written whole (atomically, 0600 in 0700 folders) each time a sort changes, after reading it again
 * so that another TUI's choice for another list is kept. A file that cannot be read, or an entry
 * that is not a sort, is said once in one line and skipped: the list opens in its own order.
 * Read on a list's first opening, so the TUI's start does not read it. No React.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../files.js';
import type { SortSpec } from './sort.js';
import { notSaved, privateDir, readLines } from './stateFiles.js';

/** A list's name or a column's, as the file keeps them (the TUI's own words: `interns`, `updated`). */
const WORD = /^[a-z][a-z0-9._-]{0,39}$/;
/** The most of the file read: a few lists' sorts take a few hundred bytes. */
const MAX_BYTES = 64 * 1024;

export function sortPrefsPath(stateDir: string, profile: string | null): string {
  return join(stateDir, 'sort', profile === null ? 'no-profile.json' : `profile-${encodeURIComponent(profile)}.json`);
}

export interface SortPrefs {
  /** The list's sort, null for its own order. */
  get(list: string): SortSpec | null;
  set(list: string, spec: SortSpec | null): void;
  /** What went wrong reading or writing, once (a line for the flash), else null. */
  takeProblem(): string | null;
}

const isSpec = (v: unknown): v is SortSpec =>
  typeof v === 'object' && v !== null && typeof (v as SortSpec).column === 'string' && WORD.test((v as SortSpec).column) && ((v as SortSpec).direction === 'asc' || (v as SortSpec).direction === 'desc');

/** The file's sorts, and how many entries were not sorts; or why it could not be read. */
function parse(text: string): { specs: Map<string, SortSpec>; bad: number } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: 'not a JSON object' };
  const specs = new Map<string, SortSpec>();
  let bad = 0;
  for (const [list, spec] of Object.entries(v)) {
    if (WORD.test(list) && isSpec(spec)) specs.set(list, { column: spec.column, direction: spec.direction });
    else bad++;
  }
  return { specs, bad };
}

/** Sorts kept in memory only (no state folder): they last as long as the process. */
export function memorySortPrefs(): SortPrefs {
  const specs = new Map<string, SortSpec>();
  return {
    get: (list) => specs.get(list) ?? null,
    set: (list, spec) => void (spec ? specs.set(list, spec) : specs.delete(list)),
    takeProblem: () => null,
  };
}

export function fileSortPrefs(path: string): SortPrefs {
  let problem: string | null = null;
  // Each problem is said once a process: a file left unreadable is not said again at every sort.
  const said = new Set<string>();
  const say = (what: string) => {
    if (said.has(what)) return;
    said.add(what);
    // The reason before the path: a flash cut at the terminal's edge keeps what went wrong.
    problem ??= `sort preferences: ${what} (${path})`;
  };
  const read = (): Map<string, SortSpec> | null => {
    const got = readLines(path, MAX_BYTES);
    if (got.problem !== undefined) {
      say(`${got.problem}; not read`);
      return null;
    }
    if (got.lines.length === 0) return new Map();
    const parsed = parse(got.lines.join('\n'));
    if ('problem' in parsed) {
      say(`${parsed.problem}; ignored`);
      return null;
    }
    if (parsed.bad) say(`${parsed.bad} entr${parsed.bad === 1 ? 'y is' : 'ies are'} not a sort; skipped`);
    return parsed.specs;
  };
  let specs: Map<string, SortSpec> | null = null;
  const load = () => (specs ??= read() ?? new Map());
  const put = (into: Map<string, SortSpec>, list: string, spec: SortSpec | null) => void (spec ? into.set(list, spec) : into.delete(list));
  return {
    get: (list) => load().get(list) ?? null,
    set(list, spec) {
      put(load(), list, spec);
      // Read again before writing: another TUI of this profile may have sorted another list since.
      // A file that cannot be read is not written over (what is in it is the person's to mend);
      // the sort then lasts as long as the process.
      const onDisk = read();
      if (onDisk === null) return;
      put(onDisk, list, spec);
      specs = onDisk;
      try {
        privateDir(join(path, '..'));
        writeFileAtomic(path, JSON.stringify(Object.fromEntries(onDisk), null, 2) + '\n');
      } catch (e) {
        say(notSaved(e));
      }
    },
    takeProblem() {
      load();
      const p = problem;
      problem = null;
      return p;
    },
  };
}

const files = new Map<string, SortPrefs>();
const inMemory = new WeakMap<object, SortPrefs>();

/** A profile's sorts: the same object for the life of the process (the file read once); in memory, per client, without a state folder. */
export function sortPrefsFor(stateDir: string | null | undefined, profile: string | null, api: object): SortPrefs {
  if (!stateDir) {
    let m = inMemory.get(api);
    if (!m) inMemory.set(api, (m = memorySortPrefs()));
    return m;
  }
  const path = sortPrefsPath(stateDir, profile);
  let p = files.get(path);
  if (!p) files.set(path, (p = fileSortPrefs(path)));
  return p;
}
