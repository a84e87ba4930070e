/** The one place an intern (by id or by name) or a BYOK key (by id, the start of its id, or its name) named on the command line becomes one. */
import { BYOK_ID_PREFIX_MIN, matchByok, matchInterns } from '../client/resolve.js';
import type { ByokCredential } from '../contract/byok.js';
import { INTERN_PAGE, internPages } from '../client/pages.js';
import type { InternApi } from '../client/types.js';
import type { Intern } from '../contract/intern.js';
import { sanitize } from '../tui/sanitize.js';
import { CliError, EXIT } from './exit.js';

/** An exact id wins over a name (src/client/resolve.ts). Two interns with the name: exit 2, listing their ids. */
export async function resolveIntern(api: InternApi, ref: string, signal?: AbortSignal): Promise<Intern> {
  const { one, byName } = await matchInterns(api, ref, { signal });
  if (one) return one;
  const shown = sanitize(ref).slice(0, 80);
  if (byName.length > 1) throw new CliError(EXIT.usage, `${byName.length} interns are named "${shown}": name one by id (${byName.map((i) => i.id).join(', ')})`);
  throw new CliError(EXIT.failed, `no intern with the id or name "${shown}"`);
}

/** A key named by several: exit 2, listing them by id and name. None: exit 1. */
export async function resolveByok(api: InternApi, ref: string, signal?: AbortSignal): Promise<ByokCredential> {
  const { one, several } = await matchByok(api, ref, { signal });
  if (one) return one;
  const shown = sanitize(ref).slice(0, 80);
  if (several.length > 1) {
    const listed = several.slice(0, 5).map((b) => `${b.id} (${sanitize(b.provider)}${b.name ? ` "${sanitize(b.name)}"` : ''})`);
    const more = several.length > 5 ? ` and ${several.length - 5} more` : '';
    throw new CliError(EXIT.usage, `"${shown}" names ${several.length} BYOK keys: name one by its id (${listed.join(', ')}${more})`);
  }
  const short = ref.length < BYOK_ID_PREFIX_MIN ? ` (the start of an id needs ${BYOK_ID_PREFIX_MIN} characters at least)` : '';
  throw new CliError(EXIT.failed, `no BYOK key with the id or name "${shown}"${short}`);
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
