/** Finding things by the name a person types, for the TUI's palette and the CLI alike. */
import type { Intern } from '../contract/intern.js';
import type { CallOptions, InternApi } from './types.js';

/** Pages looked through at most (500 interns each) before giving up on a name. */
export const NAME_LOOKUP_PAGES = 20;

/** The caller's intern with exactly this name, or null when none of the first pages holds it. */
export async function findInternByName(api: Pick<InternApi, 'listInterns'>, name: string, opts?: CallOptions): Promise<Intern | null> {
  let after: string | undefined;
  for (let pages = 0; pages < NAME_LOOKUP_PAGES; pages++) {
    const page = await api.listInterns({ limit: 500, starting_after: after }, opts);
    const found = page.data.find((i) => i.name === name);
    if (found) return found;
    if (!page.has_more || !page.next_cursor) return null;
    after = page.next_cursor;
  }
  return null;
}
