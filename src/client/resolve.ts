/**
 * Finding an intern (by its id or its name) or a BYOK key (by its id, the start of its id, or its
 * name) from what a person types, for the TUI's palette and the CLI alike.
 */
import type { ByokCredential } from '../contract/byok.js';
import type { Intern } from '../contract/intern.js';
import { ApiError } from './errors.js';
import { INTERN_PAGE, byokPages, internPages } from './pages.js';
import type { InternApi } from './types.js';

export interface InternMatches {
  /** The intern whose id is the reference (an exact id wins over any name). */
  byId: Intern | null;
  /** Every intern with the reference as its name (names are unique per caller and workspace, not across). */
  byName: Intern[];
  /** The intern the reference names: the id's, else the only one with the name; null when none or several. */
  one: Intern | null;
}

const matches = (byId: Intern | null, byName: Intern[]): InternMatches => ({ byId, byName, one: byId ?? (byName.length === 1 ? byName[0]! : null) });

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
      return matches(await api.getIntern(ref, { signal: opts.signal }), []);
    } catch (e) {
      // No intern has that id: it may still be a name.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  const byName: Intern[] = [];
  let pages = 0;
  for await (const data of internPages(api, { limit: INTERN_PAGE }, opts.signal)) {
    for (const i of data) {
      if (i.id === ref) return matches(i, byName);
      if (i.name === ref) byName.push(i);
    }
    if (++pages >= (opts.maxPages ?? Infinity)) break;
  }
  return matches(null, byName);
}

/** The shortest start of a key's id that names it, as tables show it and `matchByok` takes it. */
export const BYOK_ID_PREFIX_MIN = 4;

export interface ByokMatches {
  /** The key the reference names: its id; else the only key with it as its name; else the only key whose id starts with it. */
  one: ByokCredential | null;
  /** Every key the reference could mean, when it names several (by name, or by the start of their ids). */
  several: ByokCredential[];
}

/**
 * A key's id is asked for directly (a 404 leaves the reference to be a name); otherwise every key
 * is listed, and the reference is a name or, from `BYOK_ID_PREFIX_MIN` characters, the start of
 * an id. A name wins over the start of another key's id.
 */
export async function matchByok(api: Pick<InternApi, 'listByok' | 'getByok'>, ref: string, opts: { signal?: AbortSignal } = {}): Promise<ByokMatches> {
  if (ID_SHAPE.test(ref)) {
    try {
      return { one: await api.getByok(ref, { signal: opts.signal }), several: [] };
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  const byName: ByokCredential[] = [];
  const byPrefix: ByokCredential[] = [];
  const prefix = ref.length >= BYOK_ID_PREFIX_MIN ? ref.toLowerCase() : null;
  for await (const data of byokPages(api, {}, opts.signal)) {
    for (const b of data) {
      if (b.id === ref) return { one: b, several: [] };
      if (b.name === ref) byName.push(b);
      else if (prefix && b.id.toLowerCase().startsWith(prefix)) byPrefix.push(b);
    }
  }
  const pick = byName.length > 0 ? byName : byPrefix;
  return pick.length === 1 ? { one: pick[0]!, several: [] } : { one: null, several: pick };
}

/**
 * How many characters of each id tell these keys apart, `least` at fewest (git's short hashes):
 * what a table shows of a 36-character id, so that what is shown can be typed back.
 */
export function shortIdLength(ids: string[], least = 8): number {
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
