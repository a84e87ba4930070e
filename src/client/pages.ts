/**
 * Walking the intern, BYOK, workspace and vault lists page by page, for the CLI's lists and for finding an intern or
 * a key by what a person typed. A service whose pages do not end (a cursor that comes back, an
 * empty page that says there is more) is an error, not a loop of requests.
 */
import type { ByokCredential, ByokListQuery } from '../contract/byok.js';
import type { Intern, InternListQuery } from '../contract/intern.js';
import { LIMITS } from '../contract/limits.js';
import type { Workspace } from '../contract/workspace.js';
import { ResponseShapeError } from './errors.js';
import type { InternApi } from './types.js';

const ROUTE = 'GET /interns';
const BYOK_ROUTE = 'GET /byok';

/** A page as large as the service gives: a walk makes as few requests as it can. */
export const INTERN_PAGE = LIMITS.internList.maxLimit;

/** Each page's interns in turn, from the first; the caller stops when it has what it needs. */
export async function* internPages(api: Pick<InternApi, 'listInterns'>, query: Omit<InternListQuery, 'starting_after'>, signal?: AbortSignal): AsyncGenerator<Intern[]> {
  const seen = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = await api.listInterns({ ...query, ...(after ? { starting_after: after } : {}) }, { signal });
    yield page.data;
    if (!page.has_more || !page.next_cursor) return;
    if (page.data.length === 0) throw new ResponseShapeError(ROUTE, 'an empty page said there were more');
    if (seen.has(page.next_cursor)) throw new ResponseShapeError(ROUTE, 'its pages do not end (a cursor came back)');
    seen.add(page.next_cursor);
    after = page.next_cursor;
  }
}

/** A BYOK page as large as the service gives. */
export const BYOK_PAGE = LIMITS.byokList.maxLimit;

/**
 * Each page of an offset-paged list in turn, until the service's `total_count` is reached; an empty
 * page short of it is the service's fault, not a reason to ask again.
 */
async function* offsetPages<T>(route: string, limit: number, load: (page: { offset: number; limit: number }) => Promise<{ data: T[]; total_count: number }>): AsyncGenerator<T[]> {
  for (let offset = 0; ; ) {
    const page = await load({ offset, limit });
    yield page.data;
    offset += page.data.length;
    if (offset >= page.total_count) return;
    if (page.data.length === 0) throw new ResponseShapeError(route, `an empty page at offset ${offset} of ${page.total_count}`);
  }
}

/** Each page of BYOK keys in turn. */
export function byokPages(api: Pick<InternApi, 'listByok'>, query: Omit<ByokListQuery, 'offset' | 'limit'>, signal?: AbortSignal): AsyncGenerator<ByokCredential[]> {
  return offsetPages(BYOK_ROUTE, BYOK_PAGE, (page) => api.listByok({ ...query, ...page }, { signal }));
}

/** Each page of the account's workspaces in turn (the BYOK list's workspace picker). */
export function workspacePages(api: Pick<InternApi, 'listWorkspaces'>, signal?: AbortSignal): AsyncGenerator<Workspace[]> {
  return offsetPages('GET /workspaces', LIMITS.workspaceList.maxLimit, (page) => api.listWorkspaces(page, { signal }));
}

/**
 * Every item of a vault list (the workspace's secrets, an intern's, its effective ones), offset
 * paged at the service's largest page, up to its offset cap: for the TUI's vault and `vault list`.
 */
export async function allVaultPages<T>(load: (q: { limit: number; offset: number }) => Promise<{ data: T[]; has_more: boolean }>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; offset <= LIMITS.vaultList.maxOffset; offset += LIMITS.vaultList.maxLimit) {
    const page = await load({ limit: LIMITS.vaultList.maxLimit, offset });
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
  }
  return out;
}
