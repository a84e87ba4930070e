/** `byok list|get|create|update|delete`: provider keys. The raw key is read, never an argument, never printed. */
import { ByokCredentialSchema, checkByokList, parseByokList, type ByokCreate, type ByokCredential, type ByokUpdate } from '../../contract/byok.js';
import { schemaFields } from '../../contract/read.js';
import { REGIONS, checkByokFlags, checkByokKey, checkByokName, checkProviderSlug } from '../../contract/rules.js';
import { PROVIDERS, providerOf } from '../../contract/providers.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT, nearest, refuseWrong, usageError } from '../exit.js';
import { confirm, readSecret } from '../input.js';
import type { Column, DetailRow } from '../output.js';
import { BYOK_FLAG_FIELDS } from '../spec.js';
import { resolveByok, unlessAbsent } from '../resolve.js';
import { MORE_THAN_LIMIT, parseLimit } from '../parse.js';
import { byokPages } from '../../client/pages.js';
import { shortIdLength } from '../../client/resolve.js';
import { byokFacts, timeAndAge } from '../../tui/format.js';
import { quoted } from '../../text.js';


/** What `--json FIELDS` may keep of a key's record: the contract's fields. */
const BYOK_FIELDS = schemaFields(ByokCredentialSchema);

/** The table's columns; the ids are shown as long as it takes to tell these keys apart (commands take that much). */
function columns(keys: ByokCredential[]): Column<ByokCredential>[] {
  const idLength = shortIdLength(keys.map((b) => b.id));
  return [
    { header: 'ID', get: (b) => b.id, short: (id) => id.slice(0, idLength), keep: true },
    { header: 'PROVIDER', get: (b) => b.provider, keep: true },
    { header: 'NAME', get: (b) => b.name ?? '' },
    { header: 'LABEL', get: (b) => b.label },
    { header: 'STATE', get: (b) => (b.disabled ? 'disabled' : 'enabled'), tone: (t) => (t === 'disabled' ? 'dim' : 'green'), keep: true },
    { header: 'REGION', get: (b) => b.declared_region ?? '' },
  ];
}

/** The key's details as the TUI shows them (`byokFacts`): dim words for what a null means on a terminal, empty when piped. */
const detail = (b: ByokCredential): DetailRow<ByokCredential>[] => byokFacts(b).map((f) => [f.label, () => f.value, f.ifNone, f.time ? timeAndAge : undefined]);

/** true or false (yes, no), else null. */
function bool(v: string): boolean | null {
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return null;
}

/** A declaration's value that clears it: `none`, or empty. */
const clears = (v: string) => v === 'none' || v === '';

/**
 * The settings flags shared by create and update, as a body. Every wrong one is named at once,
 * with `more` (create's missing --provider), before a key is asked for or anything is sent.
 */
function settings(ctx: RunContext, more: [string, string | null][] = []): ByokUpdate {
  const body: ByokUpdate = {};
  const wrong: [string, string | null][] = [...more];
  const name = ctx.text('name');
  if (name !== undefined) body.name = name === '' ? null : name;
  const region = ctx.text('region');
  if (region !== undefined) {
    if (clears(region) || (REGIONS as readonly string[]).includes(region)) body.declared_region = clears(region) ? null : (region as ByokUpdate['declared_region']);
    else wrong.push(['--region', `must be ${REGIONS.join(', ')} or none, not ${quoted(region, 20)}${nearest(region, [...REGIONS, 'none'])}`]);
  }
  const zdr = ctx.text('zdr');
  if (zdr !== undefined) {
    const v = clears(zdr) ? null : bool(zdr);
    if (v === null && !clears(zdr)) wrong.push(['--zdr', `must be true, false or none, not ${quoted(zdr, 20)}${nearest(zdr, ['true', 'false', 'none'])}`]);
    else body.declared_zdr = v;
  }
  // The TUI's form refuses the same (the contract's rule): a typo in --models would limit the key to no model.
  for (const flag of ['models', 'users', 'key-hashes'] as const) {
    const field = BYOK_FLAG_FIELDS[flag];
    const typed = ctx.text(flag);
    if (typed === undefined) continue;
    const items = parseByokList(typed);
    wrong.push([`--${flag}`, checkByokList(field, items)]);
    body[field] = items;
  }
  for (const flag of ['disabled', 'fallback', 'byok-only', 'required'] as const) {
    const typed = ctx.text(flag);
    if (typed === undefined) continue;
    const v = bool(typed);
    if (v === null) wrong.push([`--${flag}`, `must be true or false, not "${typed.slice(0, 20)}"`]);
    else body[BYOK_FLAG_FIELDS[flag]] = v;
  }
  // Refused here as the service would refuse them. (An update that sets one of the two flags is
  // judged by the service against the stored other.)
  refuseWrong([...wrong, ['--name', checkByokName(body.name ?? null)]]);
  const wrongFlags = checkByokFlags(body);
  if (wrongFlags) throw usageError(wrongFlags);
  return body;
}

/**
 * The provider a --provider names: the catalogue's slug in any case ("OpenAI" is openai). One the
 * catalogue lacks is refused before anything is sent (exit 2), with the closest slug: a typo would
 * list nothing and exit 0, which a script takes for "no keys". (`intern-tui providers list` has the slugs.)
 */
function providerFlag(ctx: RunContext): string | undefined {
  const typed = ctx.text('provider');
  if (typed === undefined || typed === '') return typed;
  const slug = providerOf(typed);
  if (slug !== null) return slug;
  const near = nearest(typed.toLowerCase(), PROVIDERS.map((p) => p.slug));
  const wrong = checkProviderSlug(typed);
  throw usageError(`--provider ${quoted(typed, 40)} ${wrong ?? 'is not a provider'}${near}; see intern-tui providers list`);
}

export async function list(ctx: RunContext): Promise<number> {
  const max = parseLimit(ctx.text('limit'));
  const provider = providerFlag(ctx);
  const api = await ctx.api();
  const all: ByokCredential[] = [];
  const query = { ...(provider ? { provider } : {}), ...(ctx.text('workspace') ? { workspace_id: ctx.text('workspace') } : {}) };
  let more = false;
  for await (const data of byokPages(api, query, ctx.signal)) {
    all.push(...data);
    // One more than asked tells whether there are more; the pages stop being asked for here.
    if (all.length > max) {
      more = true;
      break;
    }
  }
  const shown = all.slice(0, max);
  ctx.out.list(shown, columns(shown), 'no BYOK keys');
  if (more) ctx.out.aside(MORE_THAN_LIMIT(max));
  return EXIT.ok;
}
list.jsonFields = BYOK_FIELDS;

export async function get(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const b = await resolveByok(api, ctx.positionals[0]!, ctx.signal, ctx.text('workspace'));
  ctx.out.object(b, detail(b));
  return EXIT.ok;
}
get.jsonFields = BYOK_FIELDS;

export async function create(ctx: RunContext): Promise<number> {
  const provider = providerFlag(ctx) ?? '';
  const body: ByokCreate = { ...settings(ctx, [['--provider', provider ? null : 'is required (a provider slug, e.g. openai)']]), provider, key: '' };
  if (ctx.text('workspace')) body.workspace_id = ctx.text('workspace');
  const api = await ctx.api();
  body.key = await readSecret(ctx.io, `${provider} key`, { stdin: ctx.values['key-stdin'] === true, file: ctx.text('key-file') }, 'key', checkByokKey);
  const created = await api.createByok(body, { signal: ctx.signal });
  ctx.out.changed(`Added ${created.provider} key ${created.id}.`, created, detail(created));
  return EXIT.ok;
}
create.jsonFields = BYOK_FIELDS;

export async function update(ctx: RunContext): Promise<number> {
  const body = settings(ctx);
  if (ctx.values['key-stdin'] === true || ctx.text('key-file') !== undefined) {
    body.key = await readSecret(ctx.io, 'new key', { stdin: ctx.values['key-stdin'] === true, file: ctx.text('key-file') }, 'key', checkByokKey);
  }
  if (Object.keys(body).length === 0) throw usageError('nothing to change; see intern-tui byok update --help');
  const api = await ctx.api();
  const { id } = await resolveByok(api, ctx.positionals[0]!, ctx.signal, ctx.text('workspace'));
  const updated = await api.updateByok(id, body, { signal: ctx.signal });
  ctx.out.changed(`Updated BYOK key ${updated.id}.`, updated, detail(updated));
  return EXIT.ok;
}
update.jsonFields = BYOK_FIELDS;

export async function remove(ctx: RunContext): Promise<number> {
  if (!ctx.values.yes && !ctx.out.canAsk) throw usageError('pass --yes to delete a BYOK key (there is no terminal to ask on)');
  const api = await ctx.api();
  const ignore = ctx.values['ignore-not-found'] === true;
  const note = (m: string) => ctx.out.note(m);
  const b = await unlessAbsent(ignore, note, resolveByok(api, ctx.positionals[0]!, ctx.signal, ctx.text('workspace')));
  if (b === null) return EXIT.ok;
  if (!ctx.values.yes && !(await confirm(ctx.io, `Delete the ${b.provider} key ${b.label}${b.name ? ` ("${b.name}")` : ''}?`, ctx.signal))) throw new CliError(EXIT.failed, 'not deleted');
  if ((await unlessAbsent(ignore, note, api.deleteByok(b.id, { signal: ctx.signal }).then(() => true))) === null) return EXIT.ok;
  // The key as it was: the service keeps no state for a deleted key to report.
  ctx.out.changed(`Deleted BYOK key ${b.id}.`, b, detail(b));
  return EXIT.ok;
}
remove.jsonFields = BYOK_FIELDS;

/** A provider as `providers list` prints it: its slug, and the regions a key of it may declare (none is always allowed). */
interface ProviderRow {
  slug: string;
  /** `global` (most), `only` (those regions), `from_key` (the key's JSON names its region; a declared one must match). */
  region_rule: string;
  regions: string[];
}

export async function providers(ctx: RunContext): Promise<number> {
  const rows: ProviderRow[] = PROVIDERS.map((p) => ({
    slug: p.slug,
    region_rule: p.region.kind,
    regions: p.region.kind === 'only' ? [...p.region.regions] : p.region.kind === 'from_key' ? [...REGIONS] : ['global'],
  }));
  ctx.out.list<ProviderRow>(
    rows,
    [
      { header: 'SLUG', get: (p) => p.slug, keep: true },
      { header: 'REGIONS', get: (p) => p.regions.join(',') + (p.region_rule === 'from_key' ? ' (from the key)' : '') },
    ],
    'no providers',
  );
  return EXIT.ok;
}
providers.jsonFields = ['slug', 'region_rule', 'regions'];
