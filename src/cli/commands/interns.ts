/** `interns list|get|create|update|delete|provision|suspend|wait` and `connections NAME`. */
import { randomUUID } from 'node:crypto';
import { createInternWithModel, type CreateOutcome } from '../../client/create.js';
import { ApiError } from '../../client/errors.js';
import { ConnectionListSchema, INTERN_STATUSES, InternSchema, NO_MODEL, STARTING_STATUSES, type Intern, type InternCreate, type InternUpdate } from '../../contract/intern.js';
import { built, schemaFields } from '../../contract/read.js';
import { checkDescription, checkInstructions, checkModel, checkName } from '../../contract/rules.js';
import type { InternApi } from '../../client/types.js';
import type { RunContext } from '../context.js';
import { DELETED, reached, untilStatus, waitFlags, watch } from './waiting.js';
import { CliError, EXIT, nearest, refuseWrong, usageError } from '../exit.js';
import { shellQuote } from '../quote.js';
import { MORE_THAN_LIMIT, parseLimit } from '../parse.js';
import { confirm, readTextArg } from '../input.js';
import { statusTone, type Column, type DetailRow } from '../output.js';
import { quoted } from '../../text.js';
import { relativeTime, timeAndAge } from '../../tui/format.js';
import { listAllInterns, resolveIntern, unlessAbsent } from '../resolve.js';
import { shortIdLength } from '../../client/resolve.js';


/** What `--json FIELDS` may keep of an intern: the contract's fields. */
const INTERN_FIELDS = schemaFields(InternSchema);

/** The table's columns; ids as long as it takes to tell these interns apart, which commands take (src/client/resolve.ts). */
function columns(interns: Intern[]): Column<Intern>[] {
  const idLength = shortIdLength(interns.map((i) => i.id));
  return [
    { header: 'NAME', get: (i) => i.name, keep: true },
    { header: 'STATUS', get: (i) => i.status, tone: statusTone, keep: true },
    { header: 'MODEL', get: (i) => i.model ?? '', empty: NO_MODEL },
    { header: 'ID', get: (i) => i.id, short: (id) => id.slice(0, idLength), keep: true },
    { header: 'DESCRIPTION', get: (i) => i.description ?? '' },
    // Last, as kubectl's AGE, so that piped lines keep their first five fields where they were: an
    // age on a terminal, as the TUI's list shows it; piped, the time as sent.
    { header: 'UPDATED', get: (i) => i.updated_at, short: (at) => relativeTime(at), keep: true },
  ];
}

const DETAIL: DetailRow<Intern>[] = [
  ['name', (i) => i.name],
  ['id', (i) => i.id],
  ['status', (i) => i.status],
  ['model', (i) => i.model, NO_MODEL],
  ['description', (i) => i.description, undefined, undefined, 'prose'],
  ['instructions', (i) => i.instructions, undefined, undefined, 'prose'],
  ['hostname', (i) => i.hostname],
  ['workspace', (i) => i.workspace_id],
  ['vault', (i) => i.vault_id],
  ['attached vault', (i) => i.attached_vault_id],
  ['last failure', (i) => i.last_failure_message, undefined, undefined, 'prose'],
  ['created', (i) => i.created_at, undefined, timeAndAge],
  ['updated', (i) => i.updated_at, undefined, timeAndAge],
];

export async function list(ctx: RunContext): Promise<number> {
  const max = parseLimit(ctx.text('limit'));
  // Repeated or comma-separated, as the service's own query takes them (`status=running,failed`).
  const status = (ctx.values.status as string[] | undefined)?.flatMap((s) => s.split(',').map((one) => one.trim()).filter(Boolean));
  // Only commas (`--status ,`) would send no filter and list every intern.
  if (status !== undefined && status.length === 0) throw usageError('--status names no status: give STATUS, or leave the flag out');
  // A status this version does not know is refused (exit 2): a typo would list nothing and exit 0,
  // which a script takes for "none".
  const unknown = (status ?? []).filter((s) => !(INTERN_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    const named = unknown.map((s) => `${quoted(s, 40)}${nearest(s, INTERN_STATUSES)}`).join(', ');
    throw usageError(`--status: ${named} ${unknown.length === 1 ? 'is not a status' : 'are not statuses'}; the statuses are ${INTERN_STATUSES.join(', ')}`);
  }
  const api = await ctx.api();
  const query = status?.length ? { status } : {};
  if (ctx.values.watch) return watch(ctx, async () => (await listAllInterns(api, query, max, ctx.signal)).interns, (interns) => ctx.out.list(interns, columns(interns), 'no interns'));
  const { interns, more } = await listAllInterns(api, query, max, ctx.signal);
  ctx.out.list(interns, columns(interns), 'no interns');
  if (more) ctx.out.aside(MORE_THAN_LIMIT(max));
  return EXIT.ok;
}
list.jsonFields = INTERN_FIELDS;

export async function get(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  if (ctx.values.watch) return watch(ctx, () => api.getIntern(intern.id, { signal: ctx.signal }), (now) => ctx.out.object(now, DETAIL));
  ctx.out.object(intern, DETAIL);
  return EXIT.ok;
}
get.jsonFields = INTERN_FIELDS;

async function instructions(ctx: RunContext): Promise<string | undefined> {
  const text = ctx.text('instructions');
  const file = ctx.text('instructions-file');
  if (text !== undefined && file !== undefined) throw usageError('give --instructions or --instructions-file, not both');
  if (file === undefined) return text;
  const read = await readTextArg(ctx.io, file);
  // Stdin closed or a file left empty by mistake must not wipe the instructions: clearing is asked for by name.
  if (read.trim() === '') throw usageError(`${file === '-' ? 'stdin' : file.slice(0, 80)} holds no instructions (--instructions-file); to clear them, pass --instructions ""`);
  return read;
}

/** How the instructions were given, for a message about them. */
const instructionsFlag = (ctx: RunContext) => (ctx.text('instructions-file') !== undefined ? '--instructions-file' : '--instructions');

export async function create(ctx: RunContext): Promise<number> {
  const body: InternCreate = { name: ctx.positionals[0]! };
  const description = ctx.text('description');
  if (description !== undefined) body.description = description;
  const instr = await instructions(ctx);
  if (instr !== undefined) body.instructions = instr;
  if (ctx.text('workspace') !== undefined) body.workspace_id = ctx.text('workspace');
  if (ctx.text('vault') !== undefined) body.vault_id = ctx.text('vault');
  // The service's create takes no model: createInternWithModel sets it by an update right after,
  // before provisioning (a model change takes effect on the next provision).
  const model = ctx.text('model') || undefined;
  if (ctx.values.provision) body.provision = true;
  if (ctx.values.wait && !body.provision) throw usageError('--wait waits for the provisioning to finish: add --provision');
  const timeout = waitFlags(ctx);
  refuseWrong([
    ['NAME', checkName(body.name)],
    ['--description', checkDescription(body.description ?? null)],
    [instructionsFlag(ctx), checkInstructions(body.instructions ?? null)],
    ['--model', checkModel(model ?? null)],
  ]);
  const api = await ctx.api();
  let outcome: CreateOutcome;
  try {
    // One key for this command's attempts: a retry after a 503 or a timeout whose first try went
    // through answers that intern, not 409 name_taken (the TUI sends one the same way).
    outcome = await createInternWithModel(api, body, model ?? null, { signal: ctx.signal, idempotencyKey: randomUUID() });
  } catch (e) {
    const mine = ctx.values['if-not-exists'] === true && e instanceof ApiError && e.reason === 'name_taken' ? await ownNamed(ctx, api, body.name) : null;
    if (!mine) throw e;
    // What was asked for is there: said, printed as it is, and left as it is (nothing provisioned).
    ctx.out.note(`Intern ${mine.name} (${mine.id}) exists already (--if-not-exists); left as it is.`);
    ctx.out.object(mine, DETAIL);
    return EXIT.ok;
  }
  if (outcome.failed) throw unfinished(ctx, outcome.intern, outcome.failed, model!);
  // Provisioned after its model was set: read again, for the status provisioning gave it.
  const created = model !== undefined && body.provision ? ((await readAgain(api, outcome.intern.id, ctx.signal)) ?? outcome.intern) : outcome.intern;
  // With --wait, what is printed is the intern once running.
  const intern = timeout ? ((await untilStatus(ctx, api, created, 'running', timeout)) ?? created) : created;
  ctx.out.changed(`Created intern ${intern.name} (${intern.id}).`, intern, DETAIL);
  return EXIT.ok;
}

/**
 * `create --model` whose step after the create was refused (createInternWithModel): the intern is
 * made; the error says so and how to finish (exit 1, or 4 for a refused credential).
 */
function unfinished(ctx: RunContext, created: Intern, failed: NonNullable<CreateOutcome['failed']>, model: string): CliError {
  const step = failed.step === 'provision' ? 'provisioning it' : 'setting its model';
  // By the name as typed (the service's id goes into no command line unquoted), quoted.
  const name = shellQuote(ctx.positionals[0]!);
  const next = failed.step === 'provision' ? `intern-tui interns provision ${name}` : `intern-tui interns update ${name} --model ${shellQuote(model)}`;
  const e = failed.error;
  const code = e instanceof ApiError && (e.status === 401 || e.status === 403) ? EXIT.auth : EXIT.failed;
  return new CliError(code, `created intern ${created.name} (${created.id}), but ${step} failed: ${(e as Error).message}; finish with: ${next}`);
}

/** The caller's own intern named `name` (names are unique per creator: another's may share it), or null. */
async function ownNamed(ctx: RunContext, api: InternApi, name: string): Promise<Intern | null> {
  const { interns } = await listAllInterns(api, {}, Number.POSITIVE_INFINITY, ctx.signal);
  const mine = interns.filter((i) => i.name === name && i.created_by_you !== false);
  return mine.length === 1 ? mine[0]! : null;
}
create.jsonFields = INTERN_FIELDS;

export async function update(ctx: RunContext): Promise<number> {
  const patch: InternUpdate = {};
  const orNull = (v: string) => (v === '' ? null : v);
  if (ctx.text('name') !== undefined) patch.name = ctx.text('name');
  if (ctx.text('description') !== undefined) patch.description = orNull(ctx.text('description')!);
  if (ctx.text('model') !== undefined) patch.model = orNull(ctx.text('model')!);
  const instr = await instructions(ctx);
  if (instr !== undefined) patch.instructions = orNull(instr);
  if (Object.keys(patch).length === 0) throw usageError('nothing to change: pass --name, --description, --instructions, --instructions-file or --model');
  refuseWrong([
    ['--name', patch.name === undefined ? null : checkName(patch.name)],
    ['--description', checkDescription(patch.description ?? null)],
    ['--model', checkModel(patch.model ?? null)],
    [instructionsFlag(ctx), checkInstructions(patch.instructions ?? null)],
  ]);
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const intern = await api.updateIntern(target.id, patch, { signal: ctx.signal });
  ctx.out.changed(`Updated intern ${intern.name} (${intern.id}).`, intern, DETAIL);
  return EXIT.ok;
}
update.jsonFields = INTERN_FIELDS;

export async function remove(ctx: RunContext): Promise<number> {
  const timeout = waitFlags(ctx);
  const api = await ctx.api();
  const ignore = ctx.values['ignore-not-found'] === true;
  const target = await unlessAbsent(ignore, (m) => ctx.out.note(m), resolveIntern(api, ctx.positionals[0]!, ctx.signal));
  if (target === null) return EXIT.ok;
  // An intern already on its way out is what was asked for (kubectl delete says so and exits 0);
  // the service answers 409 to a second delete, and there is nothing left to confirm.
  const already = target.status === 'destroying';
  if (!ctx.values.yes && !already) {
    if (!ctx.out.canAsk) throw usageError('deleting an intern also deletes its workspace: pass --yes to confirm (there is no terminal to ask on)');
    if (!(await confirm(ctx.io, `Delete intern ${target.name} (${target.id}) and its workspace?`, ctx.signal))) throw new CliError(EXIT.failed, 'not deleted');
  }
  if (already) ctx.out.note(`Intern ${target.name} (${target.id}) is being deleted already.`);
  else if ((await unlessAbsent(ignore, (m) => ctx.out.note(m), api.deleteIntern(target.id, { signal: ctx.signal }).then(() => true))) === null) return EXIT.ok;
  else if (!timeout) ctx.out.note(`Deleting intern ${target.name} (${target.id}).`);
  // Printed as it was, with the status the service gives it now (destroying), or as it was last
  // seen once it is gone.
  const now = already ? target : ((await readAgain(api, target.id, ctx.signal)) ?? target);
  if (timeout) {
    const started = performance.now();
    if (now.status !== DELETED) await untilStatus(ctx, api, now, DELETED, timeout);
    ctx.out.note(reached(target, DELETED, started));
  }
  ctx.out.object(now, DETAIL);
  return EXIT.ok;
}
remove.jsonFields = INTERN_FIELDS;

/** The intern read again after a change (its status has just moved), or null once it is gone. */
async function readAgain(api: InternApi, id: string, signal: AbortSignal): Promise<Intern | null> {
  try {
    return await api.getIntern(id, { signal });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/**
 * Sends a lifecycle action unless the intern is in a status it would reach anyway (`already`):
 * then, or when the service refuses it (409) because it got there meanwhile, that is said on
 * stderr and the command goes on (exit 0). Answers the intern as it is now.
 */
async function toward(ctx: RunContext, api: InternApi, target: Intern, already: readonly string[], send: () => Promise<unknown>, doing: string): Promise<Intern> {
  const there = (i: Intern) => already.includes(i.status);
  const say = (i: Intern) => ctx.out.note(`Intern ${i.name} (${i.id}) is ${i.status} already.`);
  if (there(target)) {
    say(target);
    return target;
  }
  try {
    await send();
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 409)) throw e;
    const now = await api.getIntern(target.id, { signal: ctx.signal });
    if (!there(now)) throw e;
    say(now);
    return now;
  }
  ctx.out.note(`${doing} intern ${target.name} (${target.id}).`);
  return (await readAgain(api, target.id, ctx.signal)) ?? target;
}

export async function provision(ctx: RunContext): Promise<number> {
  const timeout = waitFlags(ctx);
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  // Running, or on its way there: what provisioning would reach.
  const now = await toward(ctx, api, target, ['running', ...STARTING_STATUSES], () => api.provisionIntern(target.id, { signal: ctx.signal }), 'Provisioning');
  if (!timeout) {
    ctx.out.object(now, DETAIL);
    return EXIT.ok;
  }
  // With --wait: the intern once running.
  const started = performance.now();
  const running = (await untilStatus(ctx, api, now, 'running', timeout)) ?? now;
  ctx.out.note(reached(running, 'running', started));
  ctx.out.object(running, DETAIL);
  return EXIT.ok;
}
provision.jsonFields = INTERN_FIELDS;

export async function suspend(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const now = await toward(ctx, api, target, ['stopped'], () => api.suspendIntern(target.id, { signal: ctx.signal }), 'Suspended');
  ctx.out.object(now, DETAIL);
  return EXIT.ok;
}
suspend.jsonFields = INTERN_FIELDS;

export async function connections(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const list = await api.listConnections(target.id, { signal: ctx.signal });
  type Conn = (typeof list.data)[number];
  ctx.out.list<Conn>(
    list.data,
    [
      { header: 'KEY', get: (c) => c.key, keep: true },
      { header: 'ROUTING', get: (c) => c.routing_text ?? c.routing ?? '' },
    ],
    'no connections',
  );
  return EXIT.ok;
}
connections.jsonFields = Object.keys(built(ConnectionListSchema).shape.data.element.shape);

export { wait } from './waiting.js';
