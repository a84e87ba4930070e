/** The one place an intern or a BYOK key named on the command line (by id, name or the start of its id) becomes one. */
import { ID_PREFIX_MIN, matchByok, matchInterns, severalOf, type Matches } from '../client/resolve.js';
import type { ByokCredential } from '../contract/byok.js';
import { INTERN_PAGE, internPages } from '../client/pages.js';
import type { InternApi } from '../client/types.js';
import type { Intern } from '../contract/intern.js';
import { someOf } from '../tui/format.js';
import { quoted, sanitize } from '../text.js';
import { CliError, EXIT } from './exit.js';
import { ApiError } from '../client/errors.js';

/**
 * What a reference names, or the error: several (exit 2, listing their ids, the first five) or
 * none (exit 1). `what` names the kind ("intern", "BYOK key"); `describe` tells one apart.
 */
function theOne<T extends { id: string }>(m: Matches<T>, ref: string, what: string, describe: (item: T) => string, whereLooked = ''): T {
  if (m.one) return m.one;
  const shown = quoted(ref);
  const several = severalOf(m);
  if (several.length > 0) {
    const how = m.byName.length > 1 ? `${several.length} ${what}s are named ${shown}` : `the ids of ${several.length} ${what}s start with ${shown}`;
    const listed = several.slice(0, 5).map((x) => `${x.id} (${describe(x)})`);
    const more = several.length > 5 ? ` and ${several.length - 5} more` : '';
    throw new CliError(EXIT.usage, `${how}: name one by its id (${listed.join(', ')}${more})`);
  }
  const short = m.startOf.length === 0 && ref.length < ID_PREFIX_MIN && /^[0-9a-f]+$/i.test(ref) ? ` (the start of an id needs ${ID_PREFIX_MIN} characters at least)` : '';
  const near = m.near
    ? ` (did you mean ${sanitize(m.near)}?)`
    : m.startOf.length > 0
      ? ` (${someOf(m.startOf, 4)} ${m.startOf.length === 1 ? 'starts' : 'start'} so: type more of it)`
      : '';
  // reason not_found under --json, as a 404 of the service carries: a script tells absent from down.
  throw new CliError(EXIT.failed, `no ${what} with the id or name ${shown}${short}${near}${whereLooked}`, false, { reason: 'not_found' });
}

/** An empty reference (`interns get ""`, a variable unset in a script) is a mistake on the command line, not a lookup. */
function named(ref: string, what: string): void {
  if (ref.trim() === '') throw new CliError(EXIT.usage, `the ${what} to act on is empty: give its name or id`);
}

/** An exact id wins over a name, and a name over the start of an id (src/client/resolve.ts). */
export async function resolveIntern(api: InternApi, ref: string, signal?: AbortSignal): Promise<Intern> {
  named(ref, 'intern');
  return theOne(await matchInterns(api, ref, { signal }), ref, 'intern', (i) => `${sanitize(i.name)}, ${sanitize(i.status)}`);
}

/**
 * A BYOK key by its id (in any workspace), or its name or the start of its id among the keys of
 * `workspaceId` (`--workspace`; the default workspace's without it, as the service lists them).
 */
export async function resolveByok(api: InternApi, ref: string, signal?: AbortSignal, workspaceId?: string): Promise<ByokCredential> {
  named(ref, 'BYOK key');
  const whereLooked = workspaceId ? ` in workspace ${quoted(workspaceId)}` : " among the default workspace's keys (--workspace ID looks in another)";
  return theOne(await matchByok(api, ref, { signal, workspaceId }), ref, 'BYOK key', (b) => `${sanitize(b.provider)}${b.name ? ` "${sanitize(b.name)}"` : ''}`, whereLooked);
}

/**
 * Every intern, page by page, up to `max`, and whether there are more. Under a page's size the
 * page asks for one more than `max`, so that one request tells.
 */
export async function listAllInterns(api: InternApi, query: { status?: string[] }, max: number, signal?: AbortSignal): Promise<{ interns: Intern[]; more: boolean }> {
  const interns: Intern[] = [];
  if (max <= 0) return { interns, more: false };
  for await (const data of internPages(api, { ...query, limit: Math.min(INTERN_PAGE, max + 1) }, signal)) {
    if (interns.length + data.length > max) {
      interns.push(...data.slice(0, max - interns.length));
      return { interns, more: true };
    }
    interns.push(...data);
  }
  return { interns, more: false };
}

/** What a delete did not find: a reference that names nothing (exit 1, `not_found`), or the service's 404. */
export const isNotFound = (e: unknown): boolean => (e instanceof CliError && e.detail?.reason === 'not_found') || (e instanceof ApiError && e.status === 404);

/**
 * `--ignore-not-found` (kubectl's): what a delete looked up or deleted, or null when it was not
 * there and the flag was given: said on stderr, nothing on stdout, exit 0. Without the flag, or
 * for any other error, the error.
 */
export async function unlessAbsent<T>(ignore: boolean, note: (message: string) => void, work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (e) {
    if (!ignore || !isNotFound(e)) throw e;
    note(`${(e as Error).message}: nothing to delete (--ignore-not-found)`);
    return null;
  }
}
