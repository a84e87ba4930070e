/** `vault list|put|delete|copy [--intern NAME]`: secrets by name and host; a value is read, never an argument, never printed. */
import { EffectiveSecretSchema, VaultSecretCopySchema, VaultSecretSchema, checkSecretName, checkSecretValue, validateHosts, type EffectiveSecret, type VaultSecret, type VaultSecretList } from '../../contract/vault.js';
import { schemaFields } from '../../contract/read.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT, refuseWrong, usageError } from '../exit.js';
import { confirm, readSecret } from '../input.js';
import { MORE_THAN_LIMIT, parseLimit, secretRefusal } from '../parse.js';
import type { Column } from '../output.js';
import { resolveIntern, unlessAbsent } from '../resolve.js';
import { allVaultPages } from '../../client/pages.js';
import { relativeTime, shortFingerprint } from '../../tui/format.js';
import { quoted, sanitize } from '../../text.js';


/** What `--json FIELDS` may keep of a secret's record (names and hosts: a value is never in it). */
const SECRET_FIELDS = schemaFields(VaultSecretSchema);

const COLUMNS: Column<VaultSecret & { scope?: string }>[] = [
  { header: 'NAME', get: (s) => s.name, keep: true },
  { header: 'HOSTS', get: (s) => s.hosts?.join(',') ?? '' },
  // On a terminal a short fingerprint and the age, as the TUI shows them; piped, both whole.
  { header: 'FINGERPRINT', get: (s) => s.fingerprint ?? '', short: shortFingerprint },
  { header: 'CREATED', get: (s) => s.created_at, short: (at) => relativeTime(at) },
];

export async function list(ctx: RunContext): Promise<number> {
  const max = parseLimit(ctx.text('limit'));
  const internRef = ctx.text('intern');
  if (ctx.values.effective && !internRef) throw usageError('--effective needs --intern NAME');
  const api = await ctx.api();
  const opts = { signal: ctx.signal };
  // The service's vault pages are read whole (allVaultPages); --limit cuts what is shown.
  const show = <T extends VaultSecret>(rows: T[], columns: Column<T>[]) => {
    ctx.out.list(rows.slice(0, max), columns, 'no secrets');
    if (rows.length > max) ctx.out.aside(MORE_THAN_LIMIT(max));
  };
  if (!internRef) {
    show(await allVaultPages<VaultSecret>((q) => api.listVaultSecrets(q, opts)), COLUMNS);
    return EXIT.ok;
  }
  const intern = await resolveIntern(api, internRef, ctx.signal);
  if (ctx.values.effective) {
    const rows = await allVaultPages<EffectiveSecret>((q) => api.listEffectiveSecrets(intern.id, q, opts));
    show(rows, [COLUMNS[0]!, { header: 'SCOPE', get: (s) => s.scope, keep: true }, ...COLUMNS.slice(1)]);
  } else {
    show(await allVaultPages<VaultSecret>((q): Promise<VaultSecretList> => api.listInternSecrets(intern.id, q, opts)), COLUMNS);
  }
  return EXIT.ok;
}
// `scope` is there with --effective only.
list.jsonFields = schemaFields(EffectiveSecretSchema);

/**
 * Refuses a secret name the contract refuses (exit 2) before anything is sent, and before a value
 * is asked for: typing a secret into the masked prompt only to have its name refused loses it.
 */
function refuseBadNames(names: string[]): void {
  refuseWrong(names.map((name) => [`SECRET ${quoted(name)}`, checkSecretName(name)]));
}

export async function put(ctx: RunContext): Promise<number> {
  if (ctx.positionals.length > 1) throw usageError(secretRefusal('a secret value', 'use --value-stdin, --value-file FILE, or answer the masked prompt'));
  const name = ctx.positionals[0]!;
  refuseBadNames([name]);
  const hosts = validateHosts((ctx.values.host as string[] | undefined) ?? []);
  if ('error' in hosts) throw usageError(`--host: ${hosts.error}`);
  if (hosts.hosts.length === 0) throw usageError('give at least one --host HOST the secret may be sent to');
  const api = await ctx.api();
  const internRef = ctx.text('intern');
  const intern = internRef ? await resolveIntern(api, internRef, ctx.signal) : undefined;
  const value = await readSecret(ctx.io, `value of ${name}`, { stdin: ctx.values['value-stdin'] === true, file: ctx.text('value-file') }, 'value', checkSecretValue);
  const body = { value, hosts: hosts.hosts };
  const saved = intern ? await api.putInternSecret(intern.id, name, body, { signal: ctx.signal }) : await api.putVaultSecret(name, body, { signal: ctx.signal });
  changed(ctx, `Saved secret ${saved.name}${intern ? ` for intern ${intern.name}` : ''} (hosts: ${saved.hosts?.join(', ') ?? 'none'}).`, saved);
  return EXIT.ok;
}
put.jsonFields = SECRET_FIELDS;

/**
 * A secret a command changed, as vault list prints it (there is no vault get): one row on stdout,
 * or its record under --json; what was done on stderr, for people.
 */
function changed(ctx: RunContext, message: string, secret: VaultSecret): void {
  if (ctx.out.printJson(secret)) return;
  ctx.out.note(message);
  ctx.out.list([secret], COLUMNS);
}

export async function remove(ctx: RunContext): Promise<number> {
  const name = ctx.positionals[0]!;
  // Not the naming rule of a new secret: one the service lists (an older one, named before the
  // rule) must be deletable by the name it has, as the TUI's D deletes it. The service judges.
  if (name.trim() === '') throw usageError('the secret to delete is empty');
  if (!ctx.values.yes && !ctx.out.canAsk) throw usageError('pass --yes to delete a secret (there is no terminal to ask on)');
  const api = await ctx.api();
  const internRef = ctx.text('intern');
  const intern = internRef ? await resolveIntern(api, internRef, ctx.signal) : undefined;
  const ignore = ctx.values['ignore-not-found'] === true;
  const note = (m: string) => ctx.out.note(m);
  const where = intern ? ` of intern ${sanitize(intern.name)}` : '';
  // Looked up first: what is printed is the secret as it was (its hosts, its fingerprint).
  const opts = { signal: ctx.signal };
  const find = async () => {
    const listed = await allVaultPages<VaultSecret>((q) => (intern ? api.listInternSecrets(intern.id, q, opts) : api.listVaultSecrets(q, opts)));
    const secret = listed.find((s) => s.name === name);
    if (!secret) throw new CliError(EXIT.failed, `no secret named ${quoted(name)}${where}`, false, { reason: 'not_found' });
    return secret;
  };
  const secret = await unlessAbsent(ignore, note, find());
  if (secret === null) return EXIT.ok;
  if (!ctx.values.yes && !(await confirm(ctx.io, `Delete secret ${name}${where}?`, ctx.signal))) throw new CliError(EXIT.failed, 'not deleted');
  const gone = intern ? api.deleteInternSecret(intern.id, name, opts) : api.deleteVaultSecret(name, opts);
  if ((await unlessAbsent(ignore, note, gone.then(() => true))) === null) return EXIT.ok;
  changed(ctx, `Deleted secret ${name}${where}.`, secret);
  return EXIT.ok;
}
remove.jsonFields = SECRET_FIELDS;

export async function copy(ctx: RunContext): Promise<number> {
  const internRef = ctx.text('intern');
  if (!internRef) throw usageError('--intern NAME is required: the intern to copy the secrets into');
  refuseBadNames(ctx.positionals);
  // The rest of the service's rule for the list (each name once), before anything is sent.
  const whole = VaultSecretCopySchema.safeParse({ names: ctx.positionals });
  if (!whole.success) {
    const twice = [...new Set(ctx.positionals.filter((n, i) => ctx.positionals.indexOf(n) !== i))];
    throw usageError(`SECRET...: ${whole.error.issues[0]?.message ?? 'refused'}${twice.length ? ` (${twice.map((n) => quoted(n)).join(', ')} given more than once)` : ''}`);
  }
  const api = await ctx.api();
  const intern = await resolveIntern(api, internRef, ctx.signal);
  const copied = await api.copySecretsToIntern(intern.id, ctx.positionals, { signal: ctx.signal });
  ctx.out.list(copied, COLUMNS, 'nothing copied');
  return EXIT.ok;
}
copy.jsonFields = SECRET_FIELDS;
