/** `interns list|get|create|update|delete|provision|suspend` and `connections NAME`. */
import { ConnectionListSchema, INTERN_STATUSES, InternSchema, type Intern, type InternCreate, type InternUpdate } from '../../contract/intern.js';
import { checkDescription, checkInstructions, checkModel, checkName } from '../../contract/rules.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT, refuseWrong, usageError } from '../exit.js';
import { confirm, readTextArg } from '../input.js';
import { statusTone, type Column } from '../output.js';
import { listAllInterns, resolveIntern } from '../resolve.js';

const str = (ctx: RunContext, name: string) => ctx.values[name] as string | undefined;

/** What `--json FIELDS` may keep of an intern: the contract's fields. */
const INTERN_FIELDS = Object.keys(InternSchema.shape);

const COLUMNS: Column<Intern>[] = [
  { header: 'NAME', get: (i) => i.name, keep: true },
  { header: 'STATUS', get: (i) => i.status, tone: statusTone, keep: true },
  { header: 'MODEL', get: (i) => i.model ?? '' },
  { header: 'ID', get: (i) => i.id },
  { header: 'DESCRIPTION', get: (i) => i.description ?? '' },
];

const DETAIL: [string, (i: Intern) => string | null | boolean | undefined][] = [
  ['name', (i) => i.name],
  ['id', (i) => i.id],
  ['status', (i) => i.status],
  ['model', (i) => i.model],
  ['description', (i) => i.description],
  ['instructions', (i) => i.instructions],
  ['hostname', (i) => i.hostname],
  ['workspace', (i) => i.workspace_id],
  ['vault', (i) => i.vault_id],
  ['attached vault', (i) => i.attached_vault_id],
  ['last failure', (i) => i.last_failure_message],
  ['created', (i) => i.created_at],
  ['updated', (i) => i.updated_at],
];

export async function list(ctx: RunContext): Promise<number> {
  const limitText = str(ctx, 'limit');
  let max = Number.POSITIVE_INFINITY;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) throw usageError(`--limit must be a whole number of at least 1, not "${limitText.slice(0, 20)}"`);
    max = Number(limitText);
  }
  const status = ctx.values.status as string[] | undefined;
  // The statuses are an open enum, so one this version does not know is sent as given; but a typo
  // would list nothing and exit 0, so it says so.
  const unknown = (status ?? []).filter((s) => !(INTERN_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    const named = unknown.map((s) => `"${s.slice(0, 40)}"`).join(', ');
    ctx.warn(`${named} ${unknown.length === 1 ? 'is not a status' : 'are not statuses'} this version knows (${INTERN_STATUSES.join(', ')}); sent as given`);
  }
  const api = await ctx.api();
  const { interns, more } = await listAllInterns(api, status?.length ? { status } : {}, max, ctx.signal);
  ctx.out.list(interns, COLUMNS, 'no interns');
  if (more) ctx.out.aside(`the first ${max} shown; there are more (a larger --limit, or none for all)`);
  return EXIT.ok;
}
list.jsonFields = INTERN_FIELDS;

export async function get(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  ctx.out.object(intern, DETAIL);
  return EXIT.ok;
}
get.jsonFields = INTERN_FIELDS;

async function instructions(ctx: RunContext): Promise<string | undefined> {
  const text = str(ctx, 'instructions');
  const file = str(ctx, 'instructions-file');
  if (text !== undefined && file !== undefined) throw usageError('give --instructions or --instructions-file, not both');
  if (file === undefined) return text;
  const read = await readTextArg(ctx.io, file);
  // Stdin closed or a file left empty by mistake must not wipe the instructions: clearing is asked for by name.
  if (read.trim() === '') throw usageError(`${file === '-' ? 'stdin' : file.slice(0, 80)} holds no instructions (--instructions-file); to clear them, pass --instructions ""`);
  return read;
}

/** How the instructions were given, for a message about them. */
const instructionsFlag = (ctx: RunContext) => (str(ctx, 'instructions-file') !== undefined ? '--instructions-file' : '--instructions');

export async function create(ctx: RunContext): Promise<number> {
  const body: InternCreate = { name: ctx.positionals[0]! };
  const description = str(ctx, 'description');
  if (description !== undefined) body.description = description;
  const instr = await instructions(ctx);
  if (instr !== undefined) body.instructions = instr;
  if (str(ctx, 'workspace') !== undefined) body.workspace_id = str(ctx, 'workspace');
  if (str(ctx, 'vault') !== undefined) body.vault_id = str(ctx, 'vault');
  if (ctx.values.provision) body.provision = true;
  refuseWrong([
    ['NAME', checkName(body.name)],
    ['--description', checkDescription(body.description ?? null)],
    [instructionsFlag(ctx), checkInstructions(body.instructions ?? null)],
  ]);
  const api = await ctx.api();
  const intern = await api.createIntern(body, { signal: ctx.signal });
  if (!ctx.out.printJson(intern)) ctx.out.object(intern, DETAIL);
  return EXIT.ok;
}
create.jsonFields = INTERN_FIELDS;

export async function update(ctx: RunContext): Promise<number> {
  const patch: InternUpdate = {};
  const orNull = (v: string) => (v === '' ? null : v);
  if (str(ctx, 'name') !== undefined) patch.name = str(ctx, 'name');
  if (str(ctx, 'description') !== undefined) patch.description = orNull(str(ctx, 'description')!);
  if (str(ctx, 'model') !== undefined) patch.model = orNull(str(ctx, 'model')!);
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
  ctx.out.object(intern, DETAIL);
  return EXIT.ok;
}
update.jsonFields = INTERN_FIELDS;

export async function remove(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  if (!ctx.values.yes) {
    if (!ctx.io.stdin.isTTY || !ctx.io.stderr.isTTY) throw usageError('deleting an intern also deletes its workspace: pass --yes to confirm (there is no terminal to ask on)');
    if (!(await confirm(ctx.io, `Delete intern ${target.name} (${target.id}) and its workspace?`, ctx.signal))) throw new CliError(EXIT.failed, 'not deleted');
  }
  await api.deleteIntern(target.id, { signal: ctx.signal });
  ctx.out.done(`Deleting intern ${target.name} (${target.id}).`, { id: target.id, name: target.name, deleting: true });
  return EXIT.ok;
}
remove.jsonFields = ['id', 'name', 'deleting'];

export async function provision(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  await api.provisionIntern(target.id, { signal: ctx.signal });
  ctx.out.done(`Provisioning intern ${target.name} (${target.id}).`, { id: target.id, name: target.name, provisioning: true });
  return EXIT.ok;
}
provision.jsonFields = ['id', 'name', 'provisioning'];

export async function suspend(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const target = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  await api.suspendIntern(target.id, { signal: ctx.signal });
  ctx.out.done(`Suspended intern ${target.name} (${target.id}).`, { id: target.id, name: target.name, suspended: true });
  return EXIT.ok;
}
suspend.jsonFields = ['id', 'name', 'suspended'];

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
connections.jsonFields = Object.keys(ConnectionListSchema.shape.data.element.shape);
