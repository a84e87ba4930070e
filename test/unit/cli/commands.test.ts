/**
 * The command layer without a process: flag parsing (--json FIELDS, secrets refused), the output
 * module (alignment by display width, colour rules, sanitising, field picking) and `chat` against the
 * in-memory fake API (streaming, NDJSON, permission answers).
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/context.js';
import { CliError } from '../../../src/cli/exit.js';
import { closest } from '../../../src/client/closest.js';
import { type DetailRow, Output, checkJsonFields, fitColumns, pickFields } from '../../../src/cli/output.js';
import { parseFor } from '../../../src/cli/parse.js';
import { COMMANDS, commandHelp, findCommand, nounHelp, type CommandSpec } from '../../../src/cli/registry.js';
import { CONFIG_HELP, HELP, SANDBOX_HELP } from '../../../src/cli/args.js';
import { runCommand } from '../../../src/cli/run.js';
import { loadRunner } from '../../../src/cli/loaders.js';
import { FakeApi, intern } from '../../component/fakeApi.js';
import { listAllInterns } from '../../../src/cli/resolve.js';
import { INTERN_PAGE } from '../../../src/client/pages.js';
import { ApiError, NetworkError, MissingCredentialError } from '../../../src/client/errors.js';
import type { ChatChunk } from '../../../src/contract/chat.js';

const spec = (noun: string, verb?: string): CommandSpec => COMMANDS.find((c) => c.noun === noun && c.verb === verb)!;

class Sink extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

function io(opts: { tty?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = opts.tty ?? false;
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  const stdout = new Sink(opts.tty ?? false);
  const stderr = new Sink(opts.tty ?? false);
  const value: Io = { stdin, stdout, stderr, env: opts.env ?? {} };
  return { io: value, stdin, stdout, stderr };
}

async function runWithFake(argv: string[], api: FakeApi, opts: Parameters<typeof io>[0] = {}) {
  const found = findCommand(argv);
  if (!found || !('spec' in found)) throw new Error(`no command ${argv.join(' ')}`);
  const parsed = parseFor(found.spec, found.rest);
  const streams = io(opts);
  const code = await runCommand(found.spec, found.rest, parsed, streams.io, () => Promise.resolve(api));
  return { code, stdout: streams.stdout.text, stderr: streams.stderr.text };
}

describe('parseFor', () => {
  it('refuses --sandbox where it would be ignored: login, logout and auth status are about the configured credentials', () => {
    for (const [noun, verb] of [['login'], ['logout'], ['auth', 'status']] as const) {
      expect(() => parseFor(spec(noun, verb), ['--sandbox']), noun).toThrow(/takes no --sandbox/);
      expect(() => parseFor(spec(noun, verb), []), noun).not.toThrow();
    }
  });
  it('takes the word after --json as fields only when the command does not need it as an argument', () => {
    expect(parseFor(spec('interns', 'list'), ['--json', 'id,name'])).toMatchObject({ json: ['id', 'name'], positionals: [] });
    expect(parseFor(spec('interns', 'get'), ['--json', 'alice'])).toMatchObject({ json: [], positionals: ['alice'] });
    expect(parseFor(spec('interns', 'get'), ['--json', 'id', 'alice'])).toMatchObject({ json: ['id'], positionals: ['alice'] });
    expect(parseFor(spec('interns', 'get'), ['alice', '--json=id,status'])).toMatchObject({ json: ['id', 'status'], positionals: ['alice'] });
    expect(parseFor(spec('interns', 'list'), [])).toMatchObject({ json: null });
  });

  it('refuses credentials and secret values given as flags, without repeating them', () => {
    for (const [command, args] of [
      [spec('interns', 'list'), ['--api-key', 'sk-or-v1-visible']],
      [spec('byok', 'create'), ['--provider', 'openai', '--key=sk-visible-key']],
      [spec('vault', 'put'), ['x', '--value', 'hunter2']],
    ] as const) {
      let error: unknown;
      try {
        parseFor(command, [...args]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as Error).message).toMatch(/process list/);
      expect((error as Error).message).not.toMatch(/sk-or-v1-visible|sk-visible-key|hunter2/);
    }
  });

  it('says what is wrong with a --json field list that is not one, or --json given twice', () => {
    for (const args of [['--json', ''], ['--json', 'id,,name'], ['--json', 'id,'], ['--json=id,,name']]) {
      expect(() => parseFor(spec('interns', 'list'), args)).toThrow(/--json FIELDS must be field names separated by commas/);
    }
    expect(() => parseFor(spec('interns', 'list'), ['--json', 'id', '--json', 'name'])).toThrow(/--json is given more than once/);
    // A chat prompt after --json is still the prompt.
    expect(parseFor(spec('chat'), ['runner', '--json', 'hello, world'])).toMatchObject({ json: [], positionals: ['runner', 'hello, world'] });
    // Spaces after the commas (one word to the shell, quoted) where the word cannot be an argument, and after --json=.
    expect(parseFor(spec('interns', 'get'), ['runner', '--json', 'name, id'])).toMatchObject({ json: ['name', 'id'], positionals: ['runner'] });
    expect(parseFor(spec('interns', 'list'), ['--json', ' name ,id '])).toMatchObject({ json: ['name', 'id'], positionals: [] });
    expect(parseFor(spec('interns', 'get'), ['runner', '--json=name, status'])).toMatchObject({ json: ['name', 'status'] });
  });

  it('does not echo an extra argument (it may be a secret)', () => {
    expect(() => parseFor(spec('interns', 'get'), ['alice', 'sk-secret-extra'])).toThrow(/too many arguments/);
    expect(() => parseFor(spec('interns', 'get'), ['alice', 'sk-secret-extra'])).not.toThrow(/sk-secret/);
  });
});

describe('help texts', () => {
  it('fit a terminal of 100 columns, every line of every one', () => {
    const texts: [string, string][] = [
      ['--help', HELP],
      ['config --help', CONFIG_HELP],
      ['sandbox --help', SANDBOX_HELP],
      ...COMMANDS.map((c): [string, string] => [`${[c.noun, c.verb].filter(Boolean).join(' ')} --help`, commandHelp(c)]),
      ...[...new Set(COMMANDS.filter((c) => c.verb).map((c) => c.noun))].map((n): [string, string] => [`${n}`, nounHelp(n, COMMANDS.filter((c) => c.noun === n))]),
    ];
    for (const [where, text] of texts) for (const line of text.split('\n')) expect(line.length, `${where}: ${line}`).toBeLessThanOrEqual(100);
  });

  it('say how to get each credential a command needs: plain login stores an API key only', () => {
    expect(commandHelp(spec('byok', 'create'))).toContain('Needs a management key: set OPENROUTER_MANAGEMENT_KEY, or store it with\n  intern-tui login --with-token --kind management_key');
    expect(commandHelp(spec('attach'))).toContain('Needs an OAuth token: set OPENROUTER_OAUTH_TOKEN, or store it with\n  intern-tui login --oauth');
    expect(commandHelp(spec('interns', 'list'))).toContain('Needs an API key: set OPENROUTER_API_KEY, or store it with\n  intern-tui login\n');
  });
});

describe('a mistyped command or flag', () => {
  it('is named with what was probably meant: one edit away, a swap counting one; two for longer words', () => {
    const nouns = ['interns', 'connections', 'byok', 'vault', 'models', 'chat', 'attach', 'login', 'logout', 'auth', 'config', 'sandbox'];
    expect(closest('intrens', nouns)).toBe('interns');
    expect(closest('Interns', nouns)).toBe('interns');
    expect(closest('vualt', nouns)).toBe('vault');
    expect(closest('modles', nouns)).toBe('models');
    expect(closest('interns', nouns)).toBeNull(); // not mistyped
    expect(closest('xyzzy', nouns)).toBeNull();
    expect(closest('bok', nouns)).toBe('byok');
    // Two as close as each other: no guess.
    expect(closest('logn', ['login', 'logon'])).toBeNull();
    // Short words get one edit only: "aut" is one from "auth", "ax" is two from anything.
    expect(closest('aut', nouns)).toBe('auth');
    expect(closest('ax', ['at', 'ab'])).toBeNull();
  });

  it('a registry command names the flag it does not know, and the one it probably is', () => {
    expect(() => parseFor(spec('interns', 'list'), ['--stauts', 'running'])).toThrow(/^unknown flag --stauts \(did you mean --status\?\); see intern-tui interns list --help$/);
    expect(() => parseFor(spec('interns', 'list'), ['--wat'])).toThrow(/^unknown flag --wat; see intern-tui interns list --help$/);
    // --json on a command without JSON output says so, and where the same is found as JSON.
    expect(() => parseFor(spec('logout'), ['--json'])).toThrow(/^logout prints no JSON; its exit status says whether it worked, and intern-tui auth status --json what is left; see intern-tui logout --help$/);
    expect(() => parseFor(spec('attach'), ['x', '--json=name'])).toThrow(/^attach prints no JSON; see intern-tui attach --help$/);
    // A flag whose value never came says so in its own words, not the parser's ("Option '--status <value>' argument missing").
    expect(() => parseFor(spec('interns', 'list'), ['--status'])).toThrow(/^--status needs a value; see intern-tui interns list --help$/);
    // --no-color is every command's, as NO_COLOR is.
    expect(parseFor(spec('interns', 'list'), ['--no-color']).values['no-color']).toBe(true);
  });
});

describe('Output', () => {
  const rows = [
    { name: '日本語-bot', status: 'running' },
    { name: 'evil\x1b]8;;http://x\x07link\x1b[31m', status: 'failed' },
  ];
  const columns = [
    { header: 'NAME', get: (r: (typeof rows)[number]) => r.name },
    { header: 'STATUS', get: (r: (typeof rows)[number]) => r.status, tone: () => 'green' as const },
  ];

  it('aligns a TTY table by display width, coloured unless NO_COLOR is set, and sanitises server strings', () => {
    const coloured = new Output(io({ tty: true }).io, null).table(rows, columns);
    expect(coloured).toContain('\x1b[32m');
    const plain = new Output(io({ tty: true, env: { NO_COLOR: '1' } }).io, null).table(rows, columns);
    expect(plain).not.toContain('\x1b');
    const lines = plain.trimEnd().split('\n');
    // 日本語 is 6 cells wide: "日本語-bot" (10 cells) pads like "evillink" would in a 10-cell column.
    expect(lines[0]).toBe('NAME        STATUS');
    expect(lines[1]).toBe('日本語-bot  running');
    expect(lines[2]).toBe('evillink    failed');
  });

  it('on a light background (INTERN_TUI_THEME, COLORFGBG) draws yellow as magenta: yellow on white is unreadable', () => {
    const moving = [{ header: 'STATUS', get: (r: { status: string }) => r.status, tone: () => 'yellow' as const }];
    const rowsOf = [{ status: 'provisioning' }];
    expect(new Output(io({ tty: true }).io, null).table(rowsOf, moving)).toContain('\x1b[33mprovisioning');
    expect(new Output(io({ tty: true, env: { INTERN_TUI_THEME: 'light' } }).io, null).table(rowsOf, moving)).toContain('\x1b[35mprovisioning');
    expect(new Output(io({ tty: true, env: { COLORFGBG: '0;15' } }).io, null).table(rowsOf, moving)).toContain('\x1b[35mprovisioning');
    // The variable wins over what the terminal says.
    expect(new Output(io({ tty: true, env: { COLORFGBG: '0;15', INTERN_TUI_THEME: 'dark' } }).io, null).table(rowsOf, moving)).toContain('\x1b[33mprovisioning');
  });

  it('draws an empty cell as a dim dash on a terminal, and leaves it empty when piped', () => {
    const cols = [
      { header: 'NAME', get: (r: { name: string; model: string }) => r.name },
      { header: 'MODEL', get: (r: { name: string; model: string }) => r.model },
      { header: 'END', get: () => 'x' },
    ];
    const data = [{ name: 'runner', model: '' }];
    expect(new Output(io({ tty: true, env: { NO_COLOR: '1' } }).io, null).table(data, cols).split('\n')[1]).toBe('runner  —      x');
    expect(new Output(io({ tty: true }).io, null).table(data, cols)).toContain('\x1b[2m—');
    expect(new Output(io({ tty: false }).io, null).table(data, cols)).toBe('runner\t\tx\n');
  });

  it('shows a column\'s short form on a terminal only (a BYOK id as commands take it), and its whole value piped', () => {
    const cols = [
      { header: 'ID', get: (r: { id: string }) => r.id, short: (id: string) => id.slice(0, 8), keep: true },
      { header: 'END', get: () => 'x' },
    ];
    const data = [{ id: '3f0c1a2b-0000-4000-8000-00000000000a' }];
    expect(new Output(io({ tty: true, env: { NO_COLOR: '1' } }).io, null).table(data, cols).split('\n')).toEqual(['ID        END', '3f0c1a2b  x', '']);
    expect(new Output(io({ tty: false }).io, null).table(data, cols)).toBe('3f0c1a2b-0000-4000-8000-00000000000a\tx\n');
  });

  it('says what an empty cell or value means where the column says so (a null model: "workspace default"), on a terminal only', () => {
    type Row = { name: string; model: string | null };
    const cols = [
      { header: 'NAME', get: (r: Row) => r.name },
      { header: 'MODEL', get: (r: Row) => r.model, empty: 'workspace default' },
      { header: 'END', get: () => 'x' },
    ];
    const data: Row[] = [{ name: 'runner', model: null }, { name: 'b', model: 'a/b' }];
    // The column is as wide as the words it shows.
    expect(new Output(io({ tty: true, env: { NO_COLOR: '1' } }).io, null).table(data, cols).split('\n').slice(1, 3)).toEqual(['runner  workspace default  x', 'b       a/b                x']);
    expect(new Output(io({ tty: true }).io, null).table(data, cols)).toContain('\x1b[2mworkspace default');
    expect(new Output(io({ tty: false }).io, null).table(data, cols)).toBe('runner\t\tx\nb\ta/b\tx\n');
    const rows: [string, (o: Row) => string | null, string][] = [['model', (o) => o.model, 'workspace default']];
    const s = io({ tty: true, env: { NO_COLOR: '1' } });
    new Output(s.io, null).object(data[0]!, rows);
    expect(s.stdout.text).toBe('model  workspace default\n');
    const piped = io({ tty: false });
    new Output(piped.io, null).object(data[0]!, rows);
    expect(piped.stdout.text).toBe('model\t\n');
  });

  it('cuts the columns it may to the terminal width, by display cells, and says so on stderr', () => {
    const s = io({ tty: true, env: { NO_COLOR: '1' } });
    (s.stdout as Sink & { columns?: number }).columns = 20;
    const out = new Output(s.io, null);
    out.list([{ a: 'x', b: '日本語日本語日本語' }], [
      { header: 'A', get: (r: { a: string; b: string }) => r.a },
      { header: 'B', get: (r: { a: string; b: string }) => r.b },
    ]);
    expect(s.stdout.text.split('\n')[1]).toBe('x  日本語日本語日本…');
    expect(s.stderr.text).toContain('cut to fit 20 columns: --json or a pipe prints whole values');
  });

  it('keeps the columns marked keep whole and cuts the widest of the others first, to one width', () => {
    type Row = { name: string; id: string; model: string; note: string };
    const row: Row = { name: 'release-captain', id: '45efdf85-cb04-4f09-a8c7-82eadacd5492', model: 'openai/gpt-4.1', note: 'Cuts releases, writes changelogs, and chases the last blocking issues.' };
    const columns = [
      { header: 'NAME', get: (r: Row) => r.name, keep: true },
      { header: 'MODEL', get: (r: Row) => r.model },
      { header: 'ID', get: (r: Row) => r.id },
      { header: 'NOTE', get: (r: Row) => r.note },
    ];
    const s = io({ tty: true, env: { NO_COLOR: '1' } });
    (s.stdout as Sink & { columns?: number }).columns = 80;
    const lines = new Output(s.io, null).table([row], columns).trimEnd().split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // 80 less the name (15) and three gaps (6) leave 59: the model whole (14), the id 23 and the note 22.
    expect(lines[1]).toBe('release-captain  openai/gpt-4.1  45efdf85-cb04-4f09-a8c…  Cuts releases, writes…');
    // Wide enough: nothing cut, and no remark.
    const wide = io({ tty: true, env: { NO_COLOR: '1' } });
    (wide.stdout as Sink & { columns?: number }).columns = 200;
    new Output(wide.io, null).list([row], columns);
    expect(wide.stdout.text).toContain(row.note);
    expect(wide.stderr.text).toBe('');
  });

  it('gives what a floor leaves over to the first cut columns, and cuts to one cell before it wraps', () => {
    // 80 columns, the BYOK list: the id, provider and state kept; name, label and region share 17.
    expect(fitColumns([36, 9, 17, 10, 8, 6], [true, true, false, false, true, false], 80)).toEqual({ widths: [36, 9, 6, 6, 8, 5], cut: true });
    expect(fitColumns([10, 4, 40], [true, false, false], 40)).toEqual({ widths: [10, 4, 22], cut: true });
    expect(fitColumns([10, 4, 20], [true, false, false], 40)).toEqual({ widths: [10, 4, 20], cut: false });
    expect(fitColumns([30, 40, 40], [true, false, false], 20)).toEqual({ widths: [30, 1, 1], cut: true });
  });

  it('prints an object with long values wrapped under themselves on a terminal, their line breaks kept, nothing as a dash; one line each when piped', () => {
    const obj = { name: 'runner', instructions: 'Watch the main branch of every repository we own, and the release branches too.\n\nWhen a build fails, open an issue.', vault: null };
    const rows: DetailRow<typeof obj>[] = [['name', (o) => o.name], ['instructions', (o) => o.instructions, undefined, undefined, 'prose'], ['vault', (o) => o.vault]];
    const s = io({ tty: true, env: { NO_COLOR: '1' } });
    (s.stdout as Sink & { columns?: number }).columns = 50;
    new Output(s.io, null).object(obj, rows);
    expect(s.stdout.text).toBe(
      [
        'name          runner',
        'instructions  Watch the main branch of every',
        '              repository we own, and the release',
        '              branches too.',
        '',
        '              When a build fails, open an issue.',
        'vault         —',
        '',
      ].join('\n'),
    );
    const piped = io({ tty: false });
    new Output(piped.io, null).object(obj, rows);
    expect(piped.stdout.text.split('\n')[2]).toBe('vault\t');
    expect(piped.stdout.text.split('\n')[1]).toBe('instructions\tWatch the main branch of every repository we own, and the release branches too.  When a build fails, open an issue.');
  });

  it("keeps a line break only in a prose row: in any other, the service's line break would draw a row of its own", () => {
    const obj = { status: 'running\nlast failure  none, honest\u2028x', note: 'one\ntwo' };
    const rows: DetailRow<typeof obj>[] = [['status', (o) => o.status], ['note', (o) => o.note, undefined, undefined, 'prose']];
    const s = io({ tty: true, env: { NO_COLOR: '1' } });
    (s.stdout as Sink & { columns?: number }).columns = 80;
    new Output(s.io, null).object(obj, rows);
    expect(s.stdout.text).toBe(['status  running last failure  none, honest x', 'note    one', '        two', ''].join('\n'));
  });

  it('writes --json with C1 controls and bidi overrides escaped, data and error lines alike', () => {
    const s = io({ tty: true });
    const out = new Output(s.io, []);
    out.printJson({ name: 'x\u009d0;title\u009c\u202e' });
    out.ndjson({ name: 'y\u009b2J' });
    out.error('failed', { exit: 1, reason: 'r\u009b31m' });
    expect(s.stdout.text + s.stderr.text).not.toMatch(/[\x80-\x9f\u202e]/);
    expect(JSON.parse(s.stdout.text.split('\n}')[0] + '}')).toEqual({ name: 'x\u009d0;title\u009c\u202e' });
  });

  it('is tab-separated without a header and without colour when stdout is not a TTY', () => {
    const text = new Output(io({ tty: false }).io, null).table(rows, columns);
    expect(text).toBe('日本語-bot\trunning\nevillink\tfailed\n');
  });

  it('keeps only the named fields; checks them against the fields a command names, naming the available ones', () => {
    expect(pickFields([{ id: 'a', name: 'x', z: 1 }], ['id', 'name'])).toEqual([{ id: 'a', name: 'x' }]);
    expect(pickFields({ id: 'a', name: 'x' }, ['name'])).toEqual({ name: 'x' });
    expect(pickFields({ id: 'a' }, ['id', 'name'])).toEqual({ id: 'a' });
    expect(() => checkJsonFields('x', ['id', 'name'], ['nope', 'id', 'nope'])).toThrow(/unknown field "nope" for --json; available: id, name/);
    expect(() => checkJsonFields('x', ['id'], ['id'])).not.toThrow();
    expect(() => checkJsonFields('x', undefined, null)).not.toThrow();
    expect(() => checkJsonFields('x', undefined, ['id'])).toThrow(/does not name its JSON fields/);
  });

  it('writes streamed text with its line breaks and tabs (the terminal sets the stops), other controls removed', async () => {
    const streams = io({ tty: true });
    const out = new Output(streams.io, null);
    expect(await out.say('bin\tetc\x1b[2J\r\n')).toBe('bin\tetc\n');
    out.note('a\tb\x07');
    expect(streams.stdout.text).toBe('bin\tetc\n');
    expect(streams.stderr.text).toBe('a\tb\n');
  });

  it('writes errors to stderr, as JSON under --json', () => {
    const s = io();
    new Output(s.io, []).error('boom \x1b[2J', { exit: 1, status: 500 });
    expect(JSON.parse(s.stderr.text)).toEqual({ error: { message: 'boom ', exit: 1, status: 500 } });
    expect(s.stdout.text).toBe('');
  });
});

describe('commands against the fake API', () => {
  it('login without any terminal and without --with-token or --no-browser refuses at once (exit 2) instead of waiting for a browser', async () => {
    const r = await runWithFake(['login'], new FakeApi());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give --with-token (the key on stdin), or --no-browser');
  });

  it('interns delete on an intern already being deleted says so and exits 0, asking and sending nothing', async () => {
    const api = new FakeApi();
    api.interns[0]!.status = 'destroying';
    const name = api.interns[0]!.name;
    const r = await runWithFake(['interns', 'delete', name], api);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Intern ${name} (${api.interns[0]!.id}) is being deleted already.`);
    // Printed as get prints it, and nothing else on stdout.
    expect(r.stdout).toMatch(new RegExp(`^name\t${name}\nid\t${api.interns[0]!.id}\nstatus\tdestroying\n`));
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
    // An empty reference is a usage error, not a lookup.
    // Under --json the error says not_found, as the service's own 404 does: absent, not down.
    const absent = await runWithFake(['interns', 'get', 'nobody-here', '--json', 'name'], api);
    expect(JSON.parse(absent.stderr)).toMatchObject({ error: { exit: 1, reason: 'not_found' } });
    const empty = await runWithFake(['interns', 'get', ''], api);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the intern to act on is empty');
  });

  it('chat streams the answer to stdout and the session id to stderr', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['chat', 'runner', 'hello there'], api);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('**Echo**: hello there\n');
    expect(r.stderr).toMatch(/session: sess-1/);
  });

  it('chat: a stream that breaks mid-answer leaves the answer on its own line, the error after it', async () => {
    const api = new FakeApi();
    api.chat = async () => ({
      kind: 'stream',
      events: (async function* () {
        yield { id: 'g', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'partial answer' }, finish_reason: null }] } as ChatChunk;
        throw new ApiError(502, 502, 'stream_severed', true, 'the connection was lost', 'POST /interns/{internId}/chat/completions');
      })(),
    });
    const r = await runWithFake(['chat', 'runner', 'hello'], api);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('partial answer\n');
    expect(r.stderr).toContain('intern-tui: the connection was lost');
  });

  it('chat interrupted (ctrl+c, SIGTERM) still says the session to continue, on stderr', async () => {
    const api = new FakeApi();
    api.chat = () => Promise.reject(new CliError(130, 'interrupted'));
    const r = await runWithFake(['chat', 'runner', 'hello', '--session', 'sess-7'], api);
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('session: sess-7 (continue with --session sess-7)\nintern-tui: interrupted\n');
  });

  it('chat puts no session id the service names into a command to paste unless it is a plain id, and strips control characters from every line that shows it', async () => {
    const api = new FakeApi();
    const evil = 'sess-\x1b]0;pwned\x07-9\nsession: fake';
    const r = await runWithFake(['chat', 'runner', 'hello', '--session', evil], api);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('session: the service named a session id that is not a plain id ("sess-\\u001b]0;pwned\\u0007-9\\nsession: fake"), so no command to paste is given');
    expect(r.stderr).not.toContain('--session');
    expect(r.stderr).not.toMatch(/^session: fake/m);
    expect(r.stderr).not.toContain('\x1b');
    api.steerNext = true;
    const steered = await runWithFake(['chat', 'runner', 'again', '--session', evil], api);
    expect(steered.stderr).toContain('the session sess--9 session: fake was already running');
    expect(steered.stderr).not.toContain('\x1b');
    // The issue's own: the session id a hostile service names runs nothing when pasted.
    const hostile = new FakeApi();
    const chat = hostile.chat.bind(hostile);
    hostile.chat = async (...args: Parameters<FakeApi['chat']>) => chat(args[0], { ...args[1], session_id: 'sess_$(touch /tmp/PWNED);x' }, args[2]);
    const pasted = await runWithFake(['chat', 'runner', 'hello'], hostile);
    expect(pasted.stderr).toContain('the service named a session id that is not a plain id');
    expect(pasted.stderr).not.toContain('--session sess_$(');
    hostile.invoke = async () => ({ session_id: 'sess_$(touch /tmp/PWNED);x', status: 'started' as const });
    const noWait = await runWithFake(['chat', 'runner', 'hello', '--no-wait'], hostile);
    expect(noWait.stderr).toContain('started a self-drive run; the service named a session id that is not a plain id');
    expect(noWait.stderr).not.toContain('--session sess_$(');
  });

  it('chat quotes the session to continue for the shell when it is not a plain word', async () => {
    const api = new FakeApi();
    api.chat = () => Promise.reject(new CliError(130, 'interrupted'));
    const r = await runWithFake(['chat', 'runner', 'hello', '--session', "it's mine; $(touch x)"], api);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`(continue with --session 'it'\\''s mine; $(touch x)')`);
    // Typed with a line break, it would fake a line of its own: no command then.
    const broken = await runWithFake(['chat', 'runner', 'hello', '--session', 'a\nsession: fake'], api);
    expect(broken.stderr).toContain('session: the session id holds control characters ("a\\nsession: fake"), so no command to paste is given');
    expect(broken.stderr).not.toMatch(/^session: fake/m);
  });

  it('chat strips control characters from the permission option --approve picks before naming it', async () => {
    const api = new FakeApi();
    const chat = api.chat.bind(api);
    // The service's options, one with a control sequence in it.
    api.chat = async (...args: Parameters<FakeApi['chat']>) => {
      const start = await chat(...args);
      if (start.kind !== 'stream') return start;
      const events = start.events;
      return {
        kind: 'stream',
        events: (async function* () {
          for await (const c of events) {
            for (const call of c.choices[0]?.delta.tool_calls ?? []) {
              const args = JSON.parse(call.function.arguments) as { options: string[] };
              args.options = args.options.map((o) => (o === 'allow_once' ? 'allow_\x1b[2Jonce' : o));
              call.function.arguments = JSON.stringify(args);
            }
            yield c;
          }
        })(),
      };
    };
    const r = await runWithFake(['chat', 'runner', 'run: ls', '--approve'], api);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('intern-tui: permission for shell: Allow once\n');
    expect(r.stderr).not.toContain('\x1b');
  });

  it('chat reads the prompt from stdin when it is not a TTY, and prints NDJSON chunks under --json', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['chat', 'runner', '--json'], api, { stdin: 'from stdin\n' });
    expect(r.code).toBe(0);
    const chunks = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { object: string; session_id?: string });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.at(-1)!.session_id).toBe('sess-1');
    const body = api.callsOf('chat')[0]![1] as { messages: { content: string }[] };
    expect(body.messages).toEqual([{ role: 'user', content: 'from stdin' }]);
  });

  it('chat answers a permission request with --approve, and without a TTY or a flag exits 2', async () => {
    const api = new FakeApi();
    const approved = await runWithFake(['chat', 'runner', 'run: ls', '--approve'], api);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('You answered: allow_once');
    const chatBodies = api.callsOf('chat').map((c) => c[1] as { session_id?: string; approval_mode?: string; messages: { role: string }[] });
    expect(chatBodies).toHaveLength(2);
    expect(chatBodies[0]!.approval_mode).toBe('manual');
    expect(chatBodies[1]).toMatchObject({ session_id: 'sess-1', messages: [{ role: 'assistant' }, { role: 'tool' }] });

    const denied = await runWithFake(['chat', 'runner', 'run: ls', '--deny'], new FakeApi());
    expect(denied.stdout).toContain('You answered: reject_once');

    const stuckApi = new FakeApi();
    const stuck = await runWithFake(['chat', 'runner', 'run: ls'], stuckApi);
    expect(stuck.code).toBe(2);
    expect(stuck.stderr).toContain('--approve or --deny');
    // The interaction is cancelled rather than left waiting.
    const cancel = stuckApi.callsOf('chat')[1]![1] as { messages: { role: string; content?: unknown }[] };
    expect(cancel.messages.at(-1)).toMatchObject({ role: 'tool', content: 'cancel' });
  });

  it('interns wait reads a duration with its unit (src/cli/duration.ts), and answers at once for an intern already there', async () => {
    const api = new FakeApi();
    const there = await runWithFake(['interns', 'wait', 'runner'], api, { tty: true });
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout).toMatch(/^runner is running \(after \d+s\)\.\n$/);
    const stopped = await runWithFake(['interns', 'wait', 'sleeper', '--for', 'stopped', '--json', 'name,status'], api);
    expect(JSON.parse(stopped.stdout)).toEqual({ name: 'sleeper', status: 'stopped' });
    const bad = await runWithFake(['interns', 'wait', 'runner', '--timeout', 'soon'], api);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timeout must be a duration with a unit, such as 500ms, 30s, 5m or 1h30m, not "soon"');
    // A number alone is refused, saying a unit is needed; 0s looks once.
    const bare = await runWithFake(['interns', 'wait', 'runner', '--timeout', '2'], api);
    expect([bare.code, bare.stderr]).toEqual([2, 'intern-tui: --timeout needs a unit (ms, s, m or h), such as 2s or 5m, not "2"\n']);
    expect((await runWithFake(['interns', 'wait', 'runner', '--timeout', '0s'], api)).code).toBe(0);
    expect((await runWithFake(['interns', 'wait', 'sleeper', '--timeout', '0s'], api)).stderr).toMatch(/gave up after 0s: sleeper is still stopped, not running/);
    // On a terminal, a failed intern says why, the status it is in told on stderr first.
    const broken = await runWithFake(['interns', 'wait', 'broken'], api, { tty: true });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('broken: failed');
    expect(broken.stderr).toMatch(/broken is failed.*; it will not become running/);
  });

  it('interns wait outlives a dropped connection: said once on stderr, asked again, and ends when the status comes', async () => {
    const api = new FakeApi();
    const real = api.getIntern.bind(api);
    let polls = 0;
    api.getIntern = async (id: string) => {
      if (++polls === 1) throw new NetworkError('GET /interns/{internId}', 'ECONNREFUSED', false, '127.0.0.1:9');
      api.interns.find((i) => i.id === id)!.status = 'running';
      return real(id);
    };
    const r = await runWithFake(['interns', 'wait', 'sleeper', '--timeout', '30s'], api);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/could not ask about sleeper \(.*ECONNREFUSED.*\); trying again until 30s have passed/);
    // Piped, stdout carries data only: what was reached is said on stderr.
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^sleeper is running/m);
    expect(polls).toBe(2);
  }, 15_000);

  it('interns wait looks the intern up again while the service cannot be reached, and no request outlives --timeout', async () => {
    const api = new FakeApi();
    const list = api.listInterns.bind(api);
    let lookups = 0;
    api.listInterns = async (query) => {
      if (++lookups === 1) throw new NetworkError('GET /interns', 'ECONNREFUSED', false, '127.0.0.1:9');
      return list(query);
    };
    const up = await runWithFake(['interns', 'wait', 'runner', '--timeout', '30s'], api);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toMatch(/could not look up runner \(.*ECONNREFUSED.*\); trying again until 30s have passed/);
    // A service that takes the connection and never answers: given up at --timeout, not at the client's 15 s.
    const silent = new FakeApi();
    silent.listInterns = ((_query: unknown, opts?: { signal?: AbortSignal }) =>
      new Promise((_, reject) => opts?.signal?.addEventListener('abort', () => reject(new NetworkError('GET /interns', 'aborted', false))))) as FakeApi['listInterns'];
    const started = Date.now();
    const gone = await runWithFake(['interns', 'wait', 'runner', '--timeout', '1s'], silent);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('gave up after 1s: could not look up runner in time');
    expect(Date.now() - started).toBeLessThan(5_000);
    // Found, then its status never answered: given up at --timeout with reason timeout, no "trying again".
    const mute = new FakeApi();
    mute.getIntern = ((_id: string, opts?: { signal?: AbortSignal }) =>
      new Promise((_, reject) => opts?.signal?.addEventListener('abort', () => reject(new NetworkError('GET /interns/{internId}', 'aborted', false))))) as FakeApi['getIntern'];
    const stuck = await runWithFake(['interns', 'wait', 'sleeper', '--timeout', '2s', '--json', 'status'], mute);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).not.toContain('trying again');
    expect(JSON.parse(stuck.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { reason: 'timeout', message: expect.stringContaining('gave up after 2s: sleeper is still stopped, not running (the service did not answer in time)') } });
  }, 15_000);

  it('chat --no-wait starts a run through invoke and prints only its session id on stdout', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['chat', 'runner', 'nightly report', '--no-wait'], api);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('sess-1\n');
    expect(r.stderr).toContain('runner started a self-drive run; add to its session with --no-wait --session sess-1');
    expect(api.callsOf('invoke')).toEqual([[api.interns.find((i) => i.name === 'runner')!.id, { input: 'nightly report' }]]);
    expect(api.callsOf('chat')).toEqual([]);
    const again = await runWithFake(['chat', 'runner', 'more', '--no-wait', '--session', 'sess-9', '--json', 'status'], api);
    expect(JSON.parse(again.stdout)).toEqual({ status: 'started' });
    expect(api.callsOf('invoke')[1]![1]).toEqual({ input: 'more', session_id: 'sess-9' });
    const refused = await runWithFake(['chat', 'runner', 'x', '--no-wait', '--deny'], api);
    expect(refused.code).toBe(2);
    expect(api.callsOf('invoke')).toHaveLength(2);
  });

  it('chat on an intern that is not running exits 1 with the service message', async () => {
    const r = await runWithFake(['chat', 'sleeper', 'hi'], new FakeApi());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('stopped');
  });

  it('resolves an intern by name or id in every command', async () => {
    const api = new FakeApi();
    const byName = await runWithFake(['interns', 'get', 'runner', '--json', 'id'], api);
    const id = (JSON.parse(byName.stdout) as { id: string }).id;
    const byId = await runWithFake(['interns', 'suspend', id, '--json', 'id,name,status'], api);
    expect(JSON.parse(byId.stdout)).toEqual({ id, name: 'runner', status: 'stopped' });
    const conns = await runWithFake(['connections', 'runner'], api);
    expect(conns.stdout.split('\n')).toContain('github\t');
  });

  it('an unknown --json field is refused with the fields there are, and no flag named for an API field in the list', async () => {
    const r = await runWithFake(['byok', 'list', '--json', 'zzz'], new FakeApi());
    expect(r.code).toBe(2);
    const message = (JSON.parse(r.stderr) as { error: { message: string } }).error.message;
    expect(message).toMatch(/^unknown field "zzz" for --json; available: .*workspace_id.*created_at$/);
  });

  it('names the intern or key a mistyped reference was probably meant to be', async () => {
    const api = new FakeApi();
    const intern = await runWithFake(['interns', 'get', 'runer'], api);
    expect(intern.code).toBe(1);
    expect(intern.stderr).toContain('no intern with the id or name "runer" (did you mean runner?)');
    const start = await runWithFake(['interns', 'get', 'b'], api);
    expect(start.stderr).toContain('no intern with the id or name "b" (broken, builder start so: type more of it)');
    const far = await runWithFake(['interns', 'get', 'xyzzy'], api);
    expect(far.stderr).toContain('no intern with the id or name "xyzzy"\n');
    const key = await runWithFake(['byok', 'get', 'Production OpenAi'], api);
    expect(key.stderr).toContain('(did you mean Production OpenAI?)');
  });

  it('shows the invisible characters of a reference that names nothing, rather than a name that exists', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['interns', 'get', 'runn\x1b[31mer'], api);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no intern with the id or name "runn\\u001b[31mer"');
    const bidi = await runWithFake(['byok', 'get', 'Production\u202eOpenAI'], api);
    expect(bidi.stderr).toContain('no BYOK key with the id or name "Production\\u202eOpenAI"');
  });

  it('asks whether the base URL ends in /api/v1 when a route every service has is not found, not when an intern is', async () => {
    const api = new FakeApi();
    api.listModels = () => Promise.reject(new ApiError(404, 404, 'not_found', false, 'No route for GET /models', 'GET /models'));
    const wrongBase = await runWithFake(['models'], api);
    expect([wrongBase.code, wrongBase.stderr]).toEqual([1, 'intern-tui: No route for GET /models (does the base URL end in /api/v1? if it does, this key may not reach this route)\n']);
    api.suspendIntern = () => Promise.reject(new ApiError(404, 404, 'not_found', false, 'Intern not found', 'POST /interns/{internId}/suspend'));
    const gone = await runWithFake(['interns', 'suspend', 'runner'], api);
    expect(gone.stderr).not.toContain('/api/v1');
  });

  it('maps a missing credential and a refused one to exit 4, naming the variable and login (not a flag)', async () => {
    const api = new FakeApi();
    api.listModels = () => Promise.reject(new MissingCredentialError('api_key', 'GET /models'));
    const missing = await runWithFake(['models'], api);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('set OPENROUTER_API_KEY, or run `intern-tui login`');
    expect(missing.stderr).not.toContain('--api-key');
    api.listModels = () => Promise.reject(new ApiError(403, 403, 'forbidden', false, 'This key may not list models', 'GET /models'));
    const refused = await runWithFake(['models', '--json'], api);
    expect(refused.code).toBe(4);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { status: 403, reason: 'forbidden', exit: 4 } });
  });
});

describe('--json FIELDS is checked before anything is sent', () => {
  it('every command that prints JSON names its fields', async () => {
    for (const c of COMMANDS.filter((x) => x.json)) {
      const run = await loadRunner(c);
      expect(run.jsonFields, `${c.noun} ${c.verb ?? ''}`).toEqual(expect.arrayContaining([expect.any(String)]));
    }
  });

  it('a misspelt field stops a delete, a create and a secret before they reach the service', async () => {
    const api = new FakeApi();
    const del = await runWithFake(['interns', 'delete', 'runner', '--yes', '--json', 'bogus'], api);
    expect(del.code).toBe(2);
    expect(JSON.parse(del.stderr)).toMatchObject({ error: { message: expect.stringMatching(/^unknown field "bogus" for --json; available: id, name, description, /), exit: 2 } });
    const created = await runWithFake(['interns', 'create', 'newbie', '--json', 'nme'], api);
    expect(created.code).toBe(2);
    const put = await runWithFake(['vault', 'put', 'token', '--host', 'api.example.com', '--value-stdin', '--json', 'valu'], api, { stdin: 'v' });
    expect(put.code).toBe(2);
    expect(api.calls.map((c) => c.method)).toEqual([]);
    // An empty answer no longer lets it pass.
    expect((await runWithFake(['models', 'zzz', '--json', 'bogus'], api)).code).toBe(2);
  });

  it('interns list shows when each intern changed as an age on a terminal, and the time as sent when piped', async () => {
    const api = new FakeApi();
    api.interns[0]!.updated_at = new Date(Date.now() - 3 * 3600_000).toISOString();
    const tty = await runWithFake(['interns', 'list'], api, { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout.split('\n')[0]).toMatch(/^NAME +STATUS +MODEL +ID +DESCRIPTION +UPDATED$/);
    expect(tty.stdout).toMatch(/^runner .* Keeps CI green\. +3h ago$/m);
    const piped = await runWithFake(['interns', 'list'], api);
    expect(piped.stdout.split('\n')[0]!.split('\t')[5]).toBe(api.interns[0]!.updated_at);
    // interns get, as the TUI's details: the time as sent, and how long ago it was; piped, the time alone.
    const got = await runWithFake(['interns', 'get', 'runner'], api, { tty: true, env: { NO_COLOR: '1' } });
    expect(got.stdout).toContain(`\nupdated         ${api.interns[0]!.updated_at} (3h ago)\n`);
    expect((await runWithFake(['interns', 'get', 'runner'], api)).stdout).toContain(`\nupdated\t${api.interns[0]!.updated_at}\n`);
  });

  it('models reads the context as 200k or 1.05M and prices per million tokens on a terminal, as the TUI\'s picker does; piped, the tokens and prices per token as sent', async () => {
    const api = new FakeApi();
    const tty = await runWithFake(['models', 'gpt-4.1'], api, { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout.split('\n')).toEqual(['ID              NAME             CONTEXT  IN $/M  OUT $/M', 'openai/gpt-4.1  OpenAI: GPT-4.1  1.05M    $2.00   $8.00', '']);
    expect((await runWithFake(['models', 'sonnet'], api, { tty: true })).stdout).toMatch(/ 200k +\$3\.00 +\$15\.00/);
    expect((await runWithFake(['models', 'gpt-4.1'], api)).stdout).toBe('openai/gpt-4.1\tOpenAI: GPT-4.1\t1047576\t0.000002\t0.000008\n');
    expect((await runWithFake(['models', 'free'], api, { tty: true })).stdout).toMatch(/ free +free\n/);
  });

  it('byok get says what each setting means as the TUI does, takes a name or a start of an id, and refuses one that fits several', async () => {
    const api = new FakeApi();
    const tty = await runWithFake(['byok', 'get', 'Production OpenAI'], api, { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/^region +us$/m);
    expect(tty.stdout).toMatch(/^zdr +not declared$/m);
    expect(tty.stdout).toMatch(/^fallback +no$/m);
    expect(tty.stdout).toMatch(/^allowed models +all \(no restriction\)$/m);
    expect(tty.stdout).toMatch(/^created +\d{4}-\d\d-\d\dT[\d:.]+Z \(\d+[smhd] ago\)$/m);
    const piped = await runWithFake(['byok', 'get', 'c2'], api);
    expect(piped.stdout).toMatch(/^created\t\d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    expect(piped.stdout).toContain('zdr\t\n');
    expect(piped.stdout).toContain('fallback\tyes\n');
    api.byok[1]!.name = 'Production OpenAI';
    const two = await runWithFake(['byok', 'get', 'Production OpenAI'], api);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('2 BYOK keys are named "Production OpenAI": name one by its id (c1 (openai "Production OpenAI"), c2 (anthropic "Production OpenAI"))');
    expect(api.callsOf('deleteByok')).toHaveLength(0);
    const del = await runWithFake(['byok', 'delete', 'Production OpenAI', '--yes'], api);
    expect(del.code).toBe(2);
    expect(api.callsOf('deleteByok')).toHaveLength(0);
  });

  it('takes a documented field the service left out, and prints what each command prints', async () => {
    const api = new FakeApi();
    delete api.interns[0]!.created_by_you;
    const list = await runWithFake(['interns', 'list', '--json', 'name,created_by_you'], api);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toContainEqual({ name: 'runner' });
    await api.putVaultSecret('gone_soon', { value: 'v', hosts: ['api.example.com'] });
    for (const argv of [
      ['interns', 'get', 'runner'],
      ['interns', 'provision', 'sleeper'],
      ['interns', 'delete', 'broken', '--yes'],
      ['connections', 'runner'],
      ['byok', 'get', 'c1'],
      ['byok', 'delete', 'c2', '--yes'],
      ['vault', 'delete', 'gone_soon', '--yes'],
      ['vault', 'list'],
      ['models'],
    ]) {
      const found = findCommand(argv);
      if (!found || !('spec' in found)) throw new Error(argv.join(' '));
      const fields = (await loadRunner(found.spec)).jsonFields!;
      const r = await runWithFake([...argv, '--json'], api);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      const printed = JSON.parse(r.stdout) as Record<string, unknown> | Record<string, unknown>[];
      for (const o of Array.isArray(printed) ? printed : [printed]) for (const k of Object.keys(o)) expect(fields, `${argv.join(' ')}: ${k}`).toContain(k);
    }
  });

  it('chat keeps the named fields of every line', async () => {
    const r = await runWithFake(['chat', 'runner', 'hi', '--json', 'session_id'], new FakeApi());
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((l) => Object.keys(l).every((k) => k === 'session_id'))).toBe(true);
    expect(lines.at(-1)).toEqual({ session_id: 'sess-1' });
  });
});

describe('what commands refuse or strip', () => {
  it('chat strips control characters from the answer when piped too', async () => {
    const r = await runWithFake(['chat', 'runner', 'hi \x1b[31mred\x1b[0m \x1b]0;title\x07 \x9b2J'], new FakeApi(), { tty: false });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hi');
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it('an empty or closed stdin for --instructions-file does not clear the instructions', async () => {
    const api = new FakeApi();
    for (const stdin of ['', '  \n']) {
      const r = await runWithFake(['interns', 'update', 'runner', '--instructions-file', '-'], api, { stdin });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('stdin holds no instructions (--instructions-file); to clear them, pass --instructions ""');
    }
    expect(api.callsOf('updateIntern')).toEqual([]);
    const cleared = await runWithFake(['interns', 'update', 'runner', '--instructions', ''], api);
    expect(cleared.code).toBe(0);
    expect(api.callsOf('updateIntern')[0]![1]).toEqual({ instructions: null });
  });

  it('interns create and update refuse a field the contract refuses before sending (exit 2), naming the flag, in the form\'s words', async () => {
    const api = new FakeApi();
    const name = await runWithFake(['interns', 'create', 'Bad Name'], api);
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('NAME: must be lowercase letters and digits in hyphen-separated groups');
    const long = await runWithFake(['interns', 'create', 'fine-name', '--description', 'x'.repeat(2001)], api);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--description: must be at most 2000 characters');
    expect(api.callsOf('createIntern')).toEqual([]);
    const both = await runWithFake(['interns', 'update', 'runner', '--model', 'bad model', '--name', 'x'], api);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--name: must be at least 2 characters; --model: must look like author/slug');
    const file = await runWithFake(['interns', 'update', 'runner', '--instructions-file', '-'], api, { stdin: 'y'.repeat(100_001) });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('--instructions-file: must be at most 100000 characters');
    expect(api.callsOf('updateIntern')).toEqual([]);
    // What the rules allow still goes: an empty model is the workspace default (null).
    expect((await runWithFake(['interns', 'update', 'runner', '--model', ''], api)).code).toBe(0);
    expect(api.callsOf('updateIntern')[0]![1]).toEqual({ model: null });
  });

  it('vault refuses a secret name the contract refuses before asking for its value or sending anything (exit 2)', async () => {
    const api = new FakeApi();
    // On a terminal the value would be asked for with a masked prompt: it is not, the name is wrong.
    const put = await runWithFake(['vault', 'put', 'Bad Name', '--host', 'api.example.com'], api, { tty: true });
    expect(put.code).toBe(2);
    expect(put.stderr).toContain('SECRET "Bad Name": must be lowercase letters, digits and single underscores');
    expect(put.stderr).not.toContain('value of');
    const copy = await runWithFake(['vault', 'copy', 'ok_name', 'x_', '--intern', 'runner'], api);
    expect(copy.code).toBe(2);
    expect(copy.stderr).toMatch(/SECRET "x_": must be lowercase/);

    // Every wrong name is named, not only the first.
    const two = await runWithFake(['vault', 'copy', 'Bad', 'ok_name', 'x_', '--intern', 'runner'], api);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/SECRET "Bad": must be lowercase[^\n]*; SECRET "x_": must be lowercase/);
    // A value over the limit is refused by what is wrong with it, never by what it is.
    const long = 's3cr3t'.repeat(11_000);
    const big = await runWithFake(['vault', 'put', 'token', '--host', 'api.example.com', '--value-stdin'], api, { stdin: long });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('the value of token must be at most 65536 characters');
    expect(big.stderr).not.toContain('s3cr3t');
    expect(api.calls.filter((c) => /Secret/.test(c.method))).toEqual([]);
  });

  it('interns create sends an Idempotency-Key, so a retry of its POST answers the intern it made', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['interns', 'create', 'newbie', '--json', 'name'], api);
    expect(r.code, r.stderr).toBe(0);
    const key = (api.callsOf('createIntern')[0] as [unknown, string])[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('vault delete takes the name a secret has, even one from before the naming rule, which the service lists', async () => {
    const api = new FakeApi();
    await api.putVaultSecret('LEGACY_Token', { value: 'v', hosts: ['a.example.com'] });
    const legacy = await runWithFake(['vault', 'delete', 'LEGACY_Token', '--yes'], api);
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(api.callsOf('deleteVaultSecret')).toEqual([['LEGACY_Token']]);
  });

  it('byok create refuses a name too long or byok-only with fallback before asking for the key (exit 2)', async () => {
    const api = new FakeApi();
    const flags = await runWithFake(['byok', 'create', '--provider', 'openai', '--byok-only', 'true', '--fallback', 'true'], api, { tty: true });
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('is_byok_only cannot be combined with is_fallback');
    expect(flags.stderr).toContain('is_fallback: --fallback, is_byok_only: --byok-only');
    expect(flags.stderr).not.toContain('openai key');
    const name = await runWithFake(['byok', 'create', '--provider', 'openai', '--name', 'n'.repeat(256)], api, { tty: true });
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('--name: must be at most 255 characters');
    expect(api.callsOf('createByok')).toEqual([]);
  });

  it('interns list --status refuses a status it does not know (exit 2), naming the closest, before anything is sent', async () => {
    const api = new FakeApi();
    const r = await runWithFake(['interns', 'list', '--status', 'runing', '--status', 'running'], api);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('intern-tui: --status: "runing" (did you mean running?) is not a status; the statuses are awaiting_slack_install, queued, provisioning, running, failed, stopped, destroying, destroy_failed\n');
    expect(api.callsOf('listInterns')).toHaveLength(0);
    const ok = await runWithFake(['interns', 'list', '--status', 'running'], api);
    expect(ok.stderr).toBe('');
    // Comma-separated, as the service's query takes them: each one checked, all of them sent.
    const both = await runWithFake(['interns', 'list', '--status', 'running, failed'], api);
    expect(both.stderr).toBe('');
    expect(api.callsOf('listInterns').at(-1)![0]).toMatchObject({ status: ['running', 'failed'] });
    // Commas alone name nothing: refused, not a list of every intern.
    const commas = await runWithFake(['interns', 'list', '--status', ','], api);
    expect([commas.code, commas.stderr]).toEqual([2, 'intern-tui: --status names no status: give STATUS, or leave the flag out\n']);
  });

  it('refuses an empty filter or target before anything is sent, rather than acting on all or elsewhere (exit 2)', () => {
    for (const [command, args, flag] of [
      [spec('interns', 'list'), ['--status', ''], '--status is empty: give STATUS, or leave the flag out'],
      [spec('interns', 'list'), ['--status', 'running', '--status='], '--status is empty'],
      [spec('byok', 'list'), ['--provider', ''], '--provider is empty'],
      [spec('byok', 'list'), ['--workspace', ' '], '--workspace is empty'],
      [spec('vault', 'list'), ['--intern', ''], '--intern is empty: give NAME'],
      [spec('vault', 'put'), ['tok', '--intern', '', '--host', 'a.com'], '--intern is empty'],
      [spec('vault', 'delete'), ['tok', '--intern', ''], '--intern is empty'],
      [spec('vault', 'copy'), ['tok', '--intern', ''], '--intern is empty'],
    ] as const) {
      let error: unknown;
      try {
        parseFor(command, [...args]);
      } catch (e) {
        error = e;
      }
      expect(error, args.join(' ')).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as Error).message).toContain(flag);
    }
    expect(parseFor(spec('interns', 'update'), ['runner', '--description', ''])).toMatchObject({ values: { description: '' } });
  });

  it('refuses before sending, naming the flag, what the service would refuse by an API field (exit 2)', async () => {
    const api = new FakeApi();
    for (const [args, flag] of [
      [['interns', 'create', 'new1', '--workspace', ''], '--workspace is empty'],
      [['interns', 'create', 'new1', '--vault', ''], '--vault is empty'],
      [['byok', 'create', '--provider', 'openai', '--workspace', '', '--key-stdin'], '--workspace is empty'],
      [['chat', 'runner', 'hi', '--session', ''], '--session is empty'],
    ] as const) {
      const found = findCommand([...args]) as { spec: CommandSpec; rest: string[] };
      expect(() => parseFor(found.spec, found.rest), args.join(' ')).toThrow(flag);
    }
    const long = await runWithFake(['chat', 'runner', 'hi', '--session', 's'.repeat(3000)], api);
    expect([long.code, long.stderr]).toEqual([2, 'intern-tui: --session: must be at most 256 characters\n']);
    const spaced = await runWithFake(['byok', 'create', '--provider', 'Open AI', '--key-stdin'], api, { stdin: 'sk-1234\n' });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toBe('intern-tui: --provider "Open AI" must be a lowercase provider slug (letters, digits, hyphens, optional /sub-path) (did you mean openai?); see intern-tui providers list\n');
    // One shaped like a slug but not in the catalogue: refused too, with the closest (a typo listed nothing and exited 0).
    const typo = await runWithFake(['byok', 'list', '--provider', 'opnai'], api);
    expect([typo.code, typo.stderr]).toEqual([2, 'intern-tui: --provider "opnai" is not a provider (did you mean openai?); see intern-tui providers list\n']);
    const twice = await runWithFake(['vault', 'copy', 'my_tok', 'other', 'my_tok', '--intern', 'runner'], api);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('names must be unique ("my_tok" given more than once)');
    expect(api.callsOf('chat').length + api.callsOf('createByok').length + api.callsOf('copySecretsToIntern').length).toBe(0);
  });

  it('byok refuses a region it does not know before sending, and --zdr none clears the declaration', async () => {
    const api = new FakeApi();
    const bad = await runWithFake(['byok', 'update', 'c1', '--region', 'mars'], api);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--region: must be global, europe, us or none, not "mars"');
    expect(api.callsOf('updateByok')).toEqual([]);
    // Every wrong flag at once, create's missing provider included, before a key is asked for.
    const all = await runWithFake(['byok', 'create', '--region', 'mars', '--zdr', 'maybe', '--fallback', 'sure'], api);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain(
      '--provider: is required (a provider slug, e.g. openai); --region: must be global, europe, us or none, not "mars"; --zdr: must be true, false or none, not "maybe"; --fallback: must be true or false, not "sure"',
    );
    expect(api.callsOf('createByok')).toEqual([]);
    // One list rule with the TUI's form (contract/byok.ts): nothing but commas is no restriction, not an empty list.
    expect((await runWithFake(['byok', 'update', 'c1', '--users', ' , '], api)).code).toBe(0);
    expect(api.callsOf('updateByok').at(-1)![1]).toEqual({ allowed_user_ids: null });
    const model = await runWithFake(['byok', 'update', 'c1', '--models', 'openai/gpt-4o, bad model'], api);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('--models: "bad model" must look like author/slug');
    // The hashes and the counts too, in the form's words, before anything is sent.
    const sent = api.callsOf('updateByok').length;
    const hash = await runWithFake(['byok', 'update', 'c1', '--key-hashes', 'nothex, alsonot'], api);
    expect(hash.code).toBe(2);
    expect(hash.stderr).toContain('--key-hashes: "nothex" (and 1 more) must be 64 lowercase hex characters');
    const many = await runWithFake(['byok', 'update', 'c1', '--users', Array.from({ length: 101 }, (_, i) => `u${i}`).join(',')], api);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--users: at most 100 user ids, not 101');
    // Every wrong flag at once, not one per try.
    const both = await runWithFake(['byok', 'update', 'c1', '--models', 'bad model', '--key-hashes', 'nothex'], api);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--models: "bad model" must look like[^\n]*; --key-hashes: "nothex" must be 64/);
    expect(api.callsOf('updateByok')).toHaveLength(sent);
    expect((await runWithFake(['byok', 'update', 'c1', '--zdr', 'none'], api)).code).toBe(0);
    expect(api.callsOf('updateByok').at(-1)![1]).toEqual({ declared_zdr: null });
  });

  it("follows a service message that names an API field with the flag that sets it", async () => {
    const api = new FakeApi();
    api.createIntern = () => Promise.reject(new ApiError(400, 400, null, false, 'The default workspace was deleted: pass workspace_id', 'POST /interns'));
    const created = await runWithFake(['interns', 'create', 'newbie'], api);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('The default workspace was deleted: pass workspace_id (workspace_id: --workspace)');
    api.updateByok = () => Promise.reject(new ApiError(400, 400, null, false, 'is_byok_only cannot be combined with is_fallback', 'PATCH /byok/{id}'));
    const flags = await runWithFake(['byok', 'update', 'c1', '--fallback', 'true'], api);
    expect(flags.stderr).toContain('is_byok_only cannot be combined with is_fallback (is_fallback: --fallback, is_byok_only: --byok-only)');
    // A field whose flag has its name, or a word inside another, gets nothing.
    api.updateByok = () => Promise.reject(new ApiError(400, 400, null, false, 'name: must be at most 100 characters; not_is_required_x', 'PATCH /byok/{id}'));
    expect((await runWithFake(['byok', 'update', 'c1', '--name', 'x'], api)).stderr).not.toContain('(');
  });

  it('interns list --limit says on a terminal that there are more, and nothing in a pipe or under --json', async () => {
    const api = new FakeApi();
    const tty = await runWithFake(['interns', 'list', '--limit', '2'], api, { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('the first 2 shown; there are more (a larger --limit, or none for all)');
    // One request told: it asked for one more than it shows.
    expect(api.callsOf('listInterns').at(-1)![0]).toMatchObject({ limit: 3 });
    expect((await runWithFake(['interns', 'list', '--limit', '2'], api)).stderr).toBe('');
    expect((await runWithFake(['interns', 'list', '--limit', '2', '--json'], api, { tty: true })).stderr).toBe('');
    expect((await runWithFake(['interns', 'list', '--limit', String(api.interns.length)], api, { tty: true })).stderr).toBe('');
  });

  it('listAllInterns knows whether more are left, across pages too', async () => {
    const api = new FakeApi();
    const many = INTERN_PAGE + 100;
    api.interns = Array.from({ length: many }, (_, i) => intern({ id: `i${i}`, name: `n${i}` }));
    expect(await listAllInterns(api, {}, 2)).toMatchObject({ more: true });
    expect((await listAllInterns(api, {}, many - 50)).interns).toHaveLength(many - 50);
    expect(await listAllInterns(api, {}, many - 50)).toMatchObject({ more: true });
    const all = await listAllInterns(api, {}, many);
    expect(all.interns.map((i) => i.id)).toEqual(api.interns.map((i) => i.id));
    expect(all.more).toBe(false);
    expect(await listAllInterns(api, {}, Number.POSITIVE_INFINITY)).toMatchObject({ more: false });
  });

  it('a missing management key or OAuth token names the login that stores it', async () => {
    const api = new FakeApi();
    api.listByok = () => Promise.reject(new MissingCredentialError('management_key', 'GET /byok'));
    expect((await runWithFake(['byok', 'list'], api)).stderr).toContain('or run `intern-tui login --with-token --kind management_key`');
    api.listModels = () => Promise.reject(new MissingCredentialError('oauth_token', 'GET /models'));
    expect((await runWithFake(['models'], api)).stderr).toContain('or run `intern-tui login --oauth`');
  });
});
