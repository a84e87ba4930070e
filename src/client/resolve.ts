/** Finding an intern by what a person types (its id or its name), for the TUI's palette and the CLI alike. */
import type { Intern } from '../contract/intern.js';
import { ApiError } from './errors.js';
import { INTERN_PAGE, internPages } from './pages.js';
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
