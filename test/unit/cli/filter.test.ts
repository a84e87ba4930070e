/**
 * `--jq` and `--template`: parsed on every command that prints JSON, compiled by jq itself before
 * the command runs (a bad expression is exit 2 with jq's words), and run on what --json prints.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/context.js';
import { CliError } from '../../../src/cli/exit.js';
import { jqMessage, loadFilter, templateProgram } from '../../../src/cli/filter.js';
import { Output, forceColorFromEnv } from '../../../src/cli/output.js';
import { parseFor } from '../../../src/cli/parse.js';
import { COMMANDS, commandHelp, findCommand } from '../../../src/cli/registry.js';
import { runCommand } from '../../../src/cli/run.js';
import { FakeApi } from '../../component/fakeApi.js';

const spec = (noun: string, verb?: string) => COMMANDS.find((c) => c.noun === noun && c.verb === verb)!;

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

function streams(tty = false, env: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = tty;
  const stdout = new Sink(tty);
  const stderr = new Sink(tty);
  const io: Io = { stdin, stdout, stderr, env };
  return { io, stdout, stderr };
}

async function run(argv: string[], api: FakeApi) {
  const found = findCommand(argv);
  if (!found || !('spec' in found)) throw new Error(`no command ${argv.join(' ')}`);
  const parsed = parseFor(found.spec, found.rest);
  const s = streams();
  const code = await runCommand(found.spec, found.rest, parsed, s.io, () => Promise.resolve(api));
  return { code, stdout: s.stdout.text, stderr: s.stderr.text };
}

describe('--jq and --template parsing', () => {
  it('are taken, with gh\'s short forms, by every command that prints JSON, and imply --json', () => {
    for (const c of COMMANDS.filter((c) => c.json && !c.raw)) {
      const min = Array.from({ length: c.positionals[0] }, () => 'x');
      expect(parseFor(c, [...min, '--jq', '.'])).toMatchObject({ json: [], filter: { jq: '.' } });
      expect(parseFor(c, [...min, '-t', '\\(.id)'])).toMatchObject({ json: [], filter: { template: '\\(.id)' } });
      expect(commandHelp(c)).toMatch(/-q, --jq EXPR/);
    }
    expect(parseFor(spec('interns', 'list'), ['--json', 'id,name', '-q', '.[].id'])).toMatchObject({ json: ['id', 'name'], filter: { jq: '.[].id' } });
    // Without either, nothing changes.
    expect(parseFor(spec('interns', 'list'), []).filter).toBeUndefined();
  });

  it('refuses both at once, and both on a command without JSON (exit 2)', () => {
    expect(() => parseFor(spec('interns', 'list'), ['--jq', '.', '--template', 'x'])).toThrow(/--jq or --template, not both/);
    expect(() => parseFor(spec('attach'), ['runner', '--jq', '.'])).toThrow(/unknown flag --jq/);
  });
});

describe('the filter (jq 1.8 in WebAssembly)', () => {
  it('prints strings raw and other values as indented JSON, one output per line', async () => {
    const f = await loadFilter({ jq: '.[] | .name, {n: .n}' });
    expect(f([{ name: 'a', n: 1 }])).toBe('a\n{\n  "n": 1\n}\n');
    expect(f([])).toBe('');
  });

  it('refuses an expression jq cannot compile, with jq\'s message in one line (exit 2)', async () => {
    const e = await loadFilter({ jq: '.[' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(2);
    expect((e as CliError).message).toBe('--jq: jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 2');
  });

  it('makes a runtime error on the output a usage error too, with jq\'s words', async () => {
    const f = await loadFilter({ jq: '.name' });
    let error: unknown;
    try {
      f([1]);
    } catch (e) {
      error = e;
    }
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toMatch(/^--jq: jq: error: Cannot index array with string \("name"\)$/);
  });

  it('applies a template to each element of a list, or to the one value, and refuses a Go template', async () => {
    const f = await loadFilter({ template: '\\(.name)\\t\\(.status)' });
    expect(f([{ name: 'a', status: 'running' }, { name: 'b', status: 'stopped' }])).toBe('a\trunning\nb\tstopped\n');
    expect(f({ name: 'a', status: 'running' })).toBe('a\trunning\n');
    expect(templateProgram('x')).toBe('(if type == "array" then .[] else . end) | "x"');
    await expect(loadFilter({ template: '{{.name}}' })).rejects.toThrow(/not a Go template/);
    await expect(loadFilter({ jq: ' ' })).rejects.toThrow(/--jq is empty/);
  });

  it('removes control characters a server string would carry to the terminal', async () => {
    const f = await loadFilter({ jq: '.name' });
    expect(f({ name: 'ev\x1b]0;pwned\x07il' })).not.toMatch(/\x1b|\x07/);
  });

  it('keeps jq\'s words and drops the excerpt, the count and where it read', () => {
    expect(jqMessage('jq: error: syntax error, x at <top-level>, line 1, column 2:\n    .[\n     ^\njq: 1 compile error')).toBe('jq: error: syntax error, x at <top-level>, line 1, column 2');
    expect(jqMessage('jq: error (at /dev/stdin:0): Cannot iterate over null')).toBe('jq: error: Cannot iterate over null');
  });
});

describe('commands with --jq and --template', () => {
  it('run the filter on what --json would print, FIELDS picked first', async () => {
    const api = new FakeApi();
    expect(await run(['interns', 'list', '--jq', '.[].name'], api)).toMatchObject({ code: 0, stdout: 'runner\nbuilder\nbroken\npeer-bot\nsleeper\n' });
    expect(await run(['interns', 'list', '--json', 'name', '--jq', '.[0] | keys'], api)).toMatchObject({ code: 0, stdout: '[\n  "name"\n]\n' });
    expect(await run(['interns', 'get', 'sleeper', '-t', '\\(.name) is \\(.status)'], api)).toMatchObject({ code: 0, stdout: 'sleeper is stopped\n' });
  });

  it('stop a delete before it is sent when the expression does not compile; errors stay text', async () => {
    const api = new FakeApi();
    const r = await run(['interns', 'delete', 'runner', '--yes', '--jq', '.id |'], api);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^intern-tui: --jq: jq: error: syntax error/);
    expect(api.calls).toEqual([]);
  });
});

describe('colour', () => {
  it('is forced in a pipe by CLICOLOR_FORCE or FORCE_COLOR, and NO_COLOR or --no-color win over both', () => {
    expect(forceColorFromEnv({ CLICOLOR_FORCE: '1' })).toBe(true);
    expect(forceColorFromEnv({ FORCE_COLOR: '0' })).toBe(false);
    expect(forceColorFromEnv({ FORCE_COLOR: '' })).toBe(false);
    expect(new Output(streams(false).io, null).color).toBe(false);
    expect(new Output(streams(false, { FORCE_COLOR: '1' }).io, null).color).toBe(true);
    expect(new Output(streams(false, { CLICOLOR_FORCE: '1' }).io, null).color).toBe(true);
    expect(new Output(streams(false, { CLICOLOR_FORCE: '1', NO_COLOR: '1' }).io, null).color).toBe(false);
    expect(new Output(streams(true, { FORCE_COLOR: '1' }).io, null, true).color).toBe(false);
  });
});

describe('--watch frames', () => {
  it('on a terminal draw each state over the last; piped, one JSON line per state with FIELDS and the filter applied', async () => {
    const tty = streams(true, { NO_COLOR: '1' });
    const out = new Output(tty.io, null);
    const rows = [['name', (v: { name: string }) => v.name]] as [string, (v: { name: string }) => string][];
    out.frame({ name: 'a' }, () => out.object({ name: 'a' }, rows));
    out.frame({ name: 'b' }, () => out.object({ name: 'b' }, rows));
    expect(tty.stdout.text).toBe('name  a\n\x1b[1F\x1b[0Jname  b\n');
    const piped = streams(false);
    const json = new Output(piped.io, ['name']);
    json.frame([{ name: 'a', id: 1 }], () => undefined);
    json.frame([], () => undefined);
    expect(piped.stdout.text).toBe('[{"name":"a"}]\n[]\n');
    const filtered = streams(false);
    const q = new Output(filtered.io, []);
    q.filter = await loadFilter({ jq: 'length' });
    q.frame([1, 2], () => undefined);
    expect(filtered.stdout.text).toBe('2\n');
  });
});

describe('the pager', () => {
  it('is $PAGER (INTERN_TUI_PAGER first), less -FRX by default, none when set empty or to cat', async () => {
    const { pagerOf } = await import('../../../src/cli/output.js');
    expect(pagerOf({})).toBe('less -FRX');
    expect(pagerOf({ PAGER: 'most' })).toBe('most');
    expect(pagerOf({ PAGER: 'most', INTERN_TUI_PAGER: '' })).toBeNull();
    expect(pagerOf({ PAGER: 'cat' })).toBeNull();
  });

  it('takes output longer than the terminal, and none with --no-pager, in a pipe, or when it cannot run', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'pager-')), 'paged');
    const rows = Array.from({ length: 5 }, (_, i) => ({ n: `row${i}` }));
    const columns = [{ header: 'N', get: (r: { n: string }) => r.n }];
    const tall = (env: NodeJS.ProcessEnv, noPager = false, tty = true) => {
      const s = streams(tty, { NO_COLOR: '1', ...env });
      (s.stdout as unknown as { rows: number }).rows = 4;
      const out = new Output(s.io, null, false, undefined, false, noPager);
      out.list(rows, columns);
      return { s, out };
    };
    const paged = tall({ PAGER: `cat > ${file}` });
    await paged.out.settled();
    expect(paged.s.stdout.text).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('N\nrow0\nrow1\nrow2\nrow3\nrow4\n');
    expect(tall({ PAGER: `cat > ${file}` }, true).s.stdout.text).toMatch(/^N\nrow0\n/);
    expect(tall({ PAGER: `cat > ${file}` }, false, false).s.stdout.text).toBe('row0\nrow1\nrow2\nrow3\nrow4\n');
    const missing = tall({ PAGER: 'no-such-pager-intern-tui' });
    await missing.out.settled();
    expect(missing.s.stdout.text).toMatch(/^N\nrow0\n/);
  });
});

describe('the pager and one object', () => {
  it('leaves one object on the screen however long: what a change prints stays below its prompt', () => {
    const s = streams(true, { NO_COLOR: '1', PAGER: 'false' });
    (s.stdout as unknown as { rows: number }).rows = 2;
    const out = new Output(s.io, null);
    out.object({ a: '1', b: '2', c: '3' }, [['a', (v) => v.a], ['b', (v) => v.b], ['c', (v) => v.c]]);
    expect(s.stdout.text).toBe('a  1\nb  2\nc  3\n');
  });
});
