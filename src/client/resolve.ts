/** Finding an intern by what a person types (its id or its name), for the TUI's palette and the CLI alike. */
import type { Intern } from '../contract/intern.js';
import type { InternApi } from './types.js';

const PAGE = 500;

export interface InternMatches {
  /** The intern whose id is the reference (an exact id wins over any name). */
  byId: Intern | null;
  /** Every intern with the reference as its name (names are unique per caller and workspace, not across). */
  byName: Intern[];
}

/** Pages through the caller's interns (at most `maxPages` pages of 500) for the reference; stops at an id. */
export async function matchInterns(
  api: Pick<InternApi, 'listInterns'>,
  ref: string,
  opts: { signal?: AbortSignal; maxPages?: number } = {},
): Promise<InternMatches> {
  const byName: Intern[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < (opts.maxPages ?? Infinity); pages++) {
    const page = await api.listInterns({ limit: PAGE, ...(after ? { starting_after: after } : {}) }, { signal: opts.signal });
    for (const i of page.data) {
      if (i.id === ref) return { byId: i, byName };
      if (i.name === ref) byName.push(i);
    }
    if (!page.has_more || !page.next_cursor) break;
    after = page.next_cursor;
  }
  return { byId: null, byName };
}
