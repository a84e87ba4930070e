/**
 * Finding an intern or a BYOK key from what a person types, for the TUI's palette and the CLI
 * alike, by one rule: its whole id; else its name, when one has it; else the start of its id (as
 * lists show ids, short), when one id starts so.
 */
import type { ByokCredential } from '../contract/byok.js';
import type { Intern } from '../contract/intern.js';
import { closest } from './closest.js';
import { ApiError } from './errors.js';
import { INTERN_PAGE, byokPages, internPages } from './pages.js';
import type { InternApi } from './types.js';

/**
 * The shortest start of an id taken for the whole id: what the lists show of an id (shortIdLength).
 * Shorter starts read as names: with 4, a cleanup script run twice found its deleted intern's name
 * ("feac") at the start of another intern's id, and deleted that one.
 */
export const ID_PREFIX_MIN = 8;

export interface Matches<T> {
  /** What the reference names: the id's; else the only one with it as its name; else the only one whose id starts with it; null when none or several. */
  one: T | null;
  /** Every one with the reference as its name (names are unique per caller and workspace, not across). */
  byName: T[];
  /** Every one whose id starts with the reference (from ID_PREFIX_MIN characters), when none has it as its name. */
  byPrefix: T[];
  /** When the reference names none: the name it was probably meant to be (one or two edits away), or null. */
  near: string | null;
  /** When the reference names none: the names that start with it, sorted (the start of a name typed for the name). */
  startOf: string[];
}

/** Sorts what was listed by how it fits the reference, and picks the one it names. */
class Sorter<T extends { id: string; name: string | null }> {
  readonly byName: T[] = [];
  readonly byPrefix: T[] = [];
  private readonly names: string[] = [];
  private readonly prefix: string | null;
  constructor(private readonly ref: string) {
    this.prefix = ref.length >= ID_PREFIX_MIN ? ref.toLowerCase() : null;
  }
  add(item: T): void {
    if (item.name === this.ref) this.byName.push(item);
    else if (this.prefix && item.id.toLowerCase().startsWith(this.prefix)) this.byPrefix.push(item);
    if (item.name) this.names.push(item.name);
  }
  result(byId: T | null = null): Matches<T> {
    const byPrefix = this.byName.length > 0 ? [] : this.byPrefix;
    const pick = this.byName.length > 0 ? this.byName : byPrefix;
    const one = byId ?? (pick.length === 1 ? pick[0]! : null);
    const none = !one && this.byName.length === 0 && byPrefix.length === 0;
    const startOf = none && this.ref !== '' ? [...new Set(this.names.filter((n) => n.startsWith(this.ref)))].sort() : [];
    const near = none && startOf.length === 0 ? closest(this.ref, this.names) : null;
    return { one, byName: this.byName, byPrefix, near, startOf };
  }
}

/** What made a reference name several: the interns or keys with the name, else those whose ids start with it. */
export const severalOf = <T>(m: Matches<T>): T[] => (m.byName.length > 1 ? m.byName : m.byPrefix.length > 1 ? m.byPrefix : []);

export interface InternMatches extends Matches<Intern> {
  /** The intern whose id is the reference (an exact id wins over any name). */
  byId: Intern | null;
}

/** What an intern id looks like (the service's are UUIDs): worth asking for directly. */
const ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A reference shaped like an id is asked for directly first (an intern's own API key may read
 * its intern but not list interns); then, or otherwise, pages through the caller's interns (at
 * most `maxPages` pages of 500) for the reference, stopping at an id.
 */
export async function matchInterns(
  api: Pick<InternApi, 'listInterns' | 'getIntern'>,
  ref: string,
  opts: { signal?: AbortSignal; maxPages?: number } = {},
): Promise<InternMatches> {
  if (ID_SHAPE.test(ref)) {
    try {
      const byId = await api.getIntern(ref, { signal: opts.signal });
      return { ...new Sorter<Intern>(ref).result(byId), byId };
    } catch (e) {
      // No intern has that id: it may still be a name.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  const found = new Sorter<Intern>(ref);
  let pages = 0;
  for await (const data of internPages(api, { limit: INTERN_PAGE }, opts.signal)) {
    for (const i of data) {
      if (i.id === ref) return { ...found.result(i), byId: i };
      found.add(i);
    }
    if (++pages >= (opts.maxPages ?? Infinity)) break;
  }
  return { ...found.result(), byId: null };
}

/**
 * A key's id is asked for directly (a 404 leaves the reference to be a name), in whatever workspace
 * it is; otherwise every key of `workspaceId` (the default workspace without it) is listed, and the
 * reference is a name or the start of an id.
 */
export async function matchByok(api: Pick<InternApi, 'listByok' | 'getByok'>, ref: string, opts: { signal?: AbortSignal; workspaceId?: string } = {}): Promise<Matches<ByokCredential>> {
  const found = new Sorter<ByokCredential>(ref);
  if (ID_SHAPE.test(ref)) {
    try {
      return found.result(await api.getByok(ref, { signal: opts.signal }));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  // Listed without a workspace, the service gives the default workspace's keys only.
  for await (const data of byokPages(api, opts.workspaceId ? { workspace_id: opts.workspaceId } : {}, opts.signal)) {
    for (const b of data) {
      if (b.id === ref) return found.result(b);
      found.add(b);
    }
  }
  return found.result();
}

/**
 * How many characters of each id tell these apart, `least` at fewest (git's short hashes): what a
 * table shows of a 36-character id, so that what is shown can be typed back.
 */
export function shortIdLength(ids: string[], least = ID_PREFIX_MIN): number {
  const sorted = ids.map((id) => id.toLowerCase()).sort();
  let n = least;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    let same = 0;
    while (same < a.length && a[same] === b[same]) same++;
    n = Math.max(n, Math.min(same + 1, b.length));
  }
  return n;
}
