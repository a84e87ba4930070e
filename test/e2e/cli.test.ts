/**
 * The scriptable command line as a script uses it: the built CLI (dist/), no TTY, against a sandbox on
 * 127.0.0.1. Output is parsed as JSON; exit codes are checked one by one; no secret reaches an output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { HELP } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { CLI, PtyScreen, ROOT, startSandboxProcess, type SandboxProcess } from './harness.js';
import { KEPT } from '../../scripts/ink-kept-caches.mjs';

let sandbox: SandboxProcess;
let home: string;
beforeAll(async () => {
  sandbox = await startSandboxProcess();
  home = mkdtempSync(join(tmpdir(), 'e2e-cli-home-'));
}, 30_000);
afterAll(async () => {
  await sandbox?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  child: ChildProcess;
}

/** Env with only what the test gives: no credential leaks in from the machine running the tests. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'SYSTEMROOT', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k];
  env.HOME = home;
  env.XDG_CONFIG_HOME = join(home, 'config');
  env.XDG_CACHE_HOME = join(home, 'cache');
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

function serviceEnv(over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const c = sandbox.manifest.credentials;
  return cleanEnv({ OPENROUTER_BASE_URL: sandbox.manifest.base_url, OPENROUTER_API_KEY: c.api_key, OPENROUTER_MANAGEMENT_KEY: c.management_key, ...over });
}

function start(args: string[], opts: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): { child: ChildProcess; done: Promise<Result> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: opts.env ?? serviceEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin!.end(opts.stdin ?? '');
  const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, child })));
  return { child, done };
}
const run = (args: string[], opts: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) => start(args, opts).done;

async function json<T = unknown>(args: string[], opts: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<T> {
  const r = await run(args, opts);
  if (r.code !== 0) throw new Error(`intern-tui ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

interface Intern {
  id: string;
  name: string;
  description: string | null;
  status: string;
}

describe('intern-tui commands without a TTY', () => {
  it('creates, lists, gets by name, updates and deletes an intern, with --json parsed', async () => {
    const created = await json<Intern>(['interns', 'create', 'cli-alpha', '--description', 'made by the e2e test', '--json']);
    expect(created).toMatchObject({ name: 'cli-alpha', description: 'made by the e2e test' });
    expect(created.id).toEqual(expect.any(String));

    const list = await json<Intern[]>(['interns', 'list', '--json']);
    expect(list.map((i) => i.name)).toContain('cli-alpha');

    const picked = await json<Record<string, unknown>>(['interns', 'get', 'cli-alpha', '--json', 'id,name']);
    expect(picked).toEqual({ id: created.id, name: 'cli-alpha' });
    const byId = await json<Intern>(['interns', 'get', created.id, '--json']);
    expect(byId.name).toBe('cli-alpha');

    const updated = await json<Intern>(['interns', 'update', 'cli-alpha', '--description', 'changed', '--json']);
    expect(updated).toMatchObject({ id: created.id, description: 'changed' });
    expect((await json<Intern>(['interns', 'get', created.id, '--json'])).description).toBe('changed');
    // The start of its id, as interns list shows it on a terminal.
    expect(await json(['interns', 'get', created.id.slice(0, 8), '--json', 'name'])).toEqual({ name: 'cli-alpha' });

    const table = await run(['interns', 'list']);
    expect(table.code).toBe(0);
    const row = table.stdout.split('\n').find((l) => l.startsWith('cli-alpha\t'));
    expect(row?.split('\t')).toEqual(['cli-alpha', expect.any(String), '', created.id, 'changed', expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);

    const refused = await run(['interns', 'delete', 'cli-alpha']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const deleted = await json<Record<string, unknown>>(['interns', 'delete', 'cli-alpha', '--yes', '--json']);
    // Printed as get prints it, as it was, with the status the service gives it now.
    expect(deleted).toMatchObject({ id: created.id, name: 'cli-alpha', status: 'destroying' });
  }, 60_000);

  it("finds a BYOK key by name in the default workspace's keys, or --workspace's; a whole id in any", async () => {
    // The account's other workspace, as a key of it says (GET /key).
    const key = await fetch(`${sandbox.manifest.base_url}/key`, { headers: { authorization: `Bearer ${sandbox.manifest.credentials.api_key_other_workspace}` } });
    const w2 = ((await key.json()) as { data: { workspace_id: string } }).data.workspace_id;
    const made = await json<{ id: string }>(['byok', 'create', '--provider', 'mistral', '--name', 'e2e-elsewhere', '--workspace', w2, '--key-stdin', '--json'], { stdin: 'mistral-e2e-elsewhere-0001\n' });
    const missed = await run(['byok', 'get', 'e2e-elsewhere']);
    expect(missed.code).toBe(1);
    expect(missed.stderr).toContain(`no BYOK key with the id or name "e2e-elsewhere" among the default workspace's keys (--workspace ID looks in another)`);
    expect(await json(['byok', 'get', 'e2e-elsewhere', '--workspace', w2, '--json', 'id'])).toEqual({ id: made.id });
    expect(await json(['byok', 'get', made.id, '--json', 'id'])).toEqual({ id: made.id });
    // The key as it was, as byok get prints it.
    expect(await json(['byok', 'delete', 'e2e-elsewhere', '--workspace', w2, '--yes', '--json', 'id,name'])).toEqual({ id: made.id, name: 'e2e-elsewhere' });
  });

  it('puts a secret read from stdin and never prints it; a value given as an argument is refused', async () => {
    const value = 'e2e-vault-value-never-printed-5678';
    const put = await run(['vault', 'put', 'e2e_token', '--host', 'api.example.com', '--value-stdin', '--json'], { stdin: `${value}\n` });
    expect(put.code, put.stderr).toBe(0);
    expect(JSON.parse(put.stdout)).toMatchObject({ name: 'e2e_token', hosts: ['api.example.com'] });
    const list = await run(['vault', 'list']);
    expect(list.stdout.split('\n').some((l) => l.startsWith('e2e_token\tapi.example.com\t'))).toBe(true);
    for (const r of [put, list]) expect(r.stdout + r.stderr).not.toContain(value);

    const onArgv = await run(['vault', 'put', 'e2e_token', value, '--host', 'api.example.com']);
    expect(onArgv.code).toBe(2);
    expect(onArgv.stderr).toMatch(/process list/);
    expect(onArgv.stderr).not.toContain(value);
    const asFlag = await run(['vault', 'put', 'e2e_token', `--value=${value}`, '--host', 'api.example.com']);
    expect(asFlag.code).toBe(2);
    expect(asFlag.stderr).toMatch(/process list/);
    expect(asFlag.stderr).not.toContain(value);
    const keyFlag = await run(['interns', 'list', '--api-key', 'sk-or-v1-on-the-command-line']);
    expect(keyFlag.code).toBe(2);
    expect(keyFlag.stderr).toMatch(/OPENROUTER_API_KEY/);

    const removed = await run(['vault', 'delete', 'e2e_token', '--yes']);
    expect(removed.code).toBe(0);
    expect((await run(['vault', 'list'])).stdout).not.toContain('e2e_token');
  }, 60_000);

  it('adds a BYOK key read from stdin and shows only its label', async () => {
    const key = 'sk-e2e-byok-key-never-printed-abcdef';
    const r = await run(['byok', 'create', '--provider', 'openai', '--key-stdin', '--name', 'e2e', '--json'], { stdin: key });
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout) as { id: string; label: string };
    expect(created.label).not.toContain(key);
    expect(r.stdout + r.stderr).not.toContain(key);
    const got = await json<{ id: string }[]>(['byok', 'list', '--json', 'id']);
    expect(got).toContainEqual({ id: created.id });
    // A provider in another case is its slug; a typo is said, with what it probably was.
    expect(await json<{ id: string }[]>(['byok', 'list', '--provider', 'OpenAI', '--json', 'id'])).toContainEqual({ id: created.id });
    const typo = await run(['byok', 'list', '--provider', 'opnai']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--provider "opnai" is not a provider (did you mean openai?)');
    expect(await json(['byok', 'get', created.id, '--json', 'provider,name'])).toEqual({ provider: 'openai', name: 'e2e' });
    const disabled = await json<{ disabled: boolean }>(['byok', 'update', created.id, '--disabled', 'true', '--json']);
    expect(disabled.disabled).toBe(true);
    const rotatedKey = 'sk-e2e-rotated-key-never-printed-WXYZ';
    const rotated = await run(['byok', 'update', created.id, '--key-stdin', '--json', 'label'], { stdin: rotatedKey });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ label: expect.stringMatching(/WXYZ$/) });
    expect(rotated.stdout + rotated.stderr).not.toContain(rotatedKey);
    const badBool = await run(['byok', 'update', created.id, '--disabled', 'maybe']);
    expect(badBool.code).toBe(2);
    // A key is named by its name or the start of its id too, as the table shows it on a terminal.
    expect(await json(['byok', 'get', 'e2e', '--json', 'id'])).toEqual({ id: created.id });
    expect(await json(['byok', 'get', created.id.slice(0, 8), '--json', 'id'])).toEqual({ id: created.id });
    const none = await run(['byok', 'get', 'no-such-key']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no BYOK key with the id or name "no-such-key"');
    expect((await run(['byok', 'delete', 'e2e', '--yes'])).code).toBe(0);
    expect(await json<{ id: string }[]>(['byok', 'list', '--json', 'id'])).not.toContainEqual({ id: created.id });
  }, 60_000);

  it('exits 0, 1, 2, 4 and 130 as documented, errors on stderr (JSON under --json)', async () => {
    const ok = await run(['models', '--json', 'id']);
    expect(ok.code).toBe(0);

    const missing = await run(['interns', 'get', 'no-such-intern', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { message: expect.stringContaining('no-such-intern'), exit: 1 } });

    // A name the contract allows and the service refuses: taken.
    const refusedByService = await run(['interns', 'create', 'runner', '--json']);
    expect(refusedByService.code).toBe(1);
    expect(JSON.parse(refusedByService.stderr)).toMatchObject({ error: { status: 409, reason: 'name_taken', exit: 1 } });
    // One the contract refuses is refused before it is sent: a usage error.
    const refusedHere = await run(['interns', 'create', 'Not A Valid Name', '--json']);
    expect(refusedHere.code).toBe(2);
    expect(JSON.parse(refusedHere.stderr)).toMatchObject({ error: { message: expect.stringContaining('NAME: must be lowercase'), exit: 2 } });

    for (const args of [['interns', 'list', '--no-such-flag'], ['interns', 'frobnicate'], ['no-such-command'], ['interns', 'get'], ['interns']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    // An unknown flag under --json is a JSON error with where the help is, for every command.
    for (const [args, help] of [
      [['config', 'show', '--bogus', '--json'], 'config'],
      [['interns', 'list', '--bogus', '--json'], 'interns list'],
      [['sandbox', '--bogus', '--json'], 'sandbox'],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stderr), args.join(' ')).toMatchObject({ error: { message: expect.stringMatching(new RegExp(`^unknown flag --\\w+; see intern-tui ${help} --help$`)), exit: 2 } });
    }
    // --json on a command that prints none says so, in JSON, and where the same facts are.
    const noJson = await run(['config', 'show', '--json']);
    expect(noJson.code).toBe(2);
    expect(JSON.parse(noJson.stderr)).toMatchObject({ error: { message: expect.stringMatching(/^config prints no JSON; intern-tui auth status --json gives/), exit: 2 } });
    // A typo is named with what it probably was.
    const typo = await run(['intrens', 'lsit']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "intrens" (did you mean "interns"?)');
    expect((await run(['interns', 'lsit'])).stderr).toContain('(did you mean "interns list"?)');

    const noProfile = await run(['--profile', 'nope', 'interns', 'list']);
    expect(noProfile.code).toBe(2);
    expect(noProfile.stderr).toContain('no profile "nope"');
    const hoisted = await run(['--base-url', sandbox.manifest.base_url, 'models', '--json', 'id'], { env: serviceEnv({ OPENROUTER_BASE_URL: undefined }) });
    expect(hoisted.code, hoisted.stderr).toBe(0);
    expect(hoisted.stderr).not.toContain('sandbox');

    const noKey = await run(['interns', 'list'], { env: serviceEnv({ OPENROUTER_API_KEY: undefined }) });
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toContain('OPENROUTER_API_KEY');
    expect(noKey.stderr).toContain('intern-tui login');
    const noManagement = await run(['byok', 'list'], { env: serviceEnv({ OPENROUTER_MANAGEMENT_KEY: undefined }) });
    expect(noManagement.code).toBe(4);
    expect(noManagement.stderr).toContain('OPENROUTER_MANAGEMENT_KEY');
    const badKey = await run(['interns', 'list', '--json'], { env: serviceEnv({ OPENROUTER_API_KEY: 'sk-or-v1-wrong-key-e2e-000000' }) });
    expect(badKey.code).toBe(4);
    expect(JSON.parse(badKey.stderr)).toMatchObject({ error: { status: 401, exit: 4 } });
    expect(badKey.stderr).not.toContain('sk-or-v1-wrong-key-e2e-000000');
    // A refused key is named, with where it came from: the service's words do not say which one.
    const badManagement = await run(['byok', 'list'], { env: serviceEnv({ OPENROUTER_MANAGEMENT_KEY: 'sk-or-v1-wrong-management-e2e-0' }) });
    expect(badManagement.code).toBe(4);
    expect(badManagement.stderr).toContain('the service refused the management key: check OPENROUTER_MANAGEMENT_KEY');
    expect(badManagement.stderr).not.toContain('sk-or-v1-wrong-management-e2e-0');
  }, 60_000);

  it('exits 130 when interrupted while waiting for the service', async () => {
    const sockets: Socket[] = [];
    let connected = 0;
    const silent: Server = createServer((s) => {
      connected++;
      sockets.push(s);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const { child, done } = start(['interns', 'list'], { env: serviceEnv({ OPENROUTER_BASE_URL: `http://127.0.0.1:${port}/api/v1` }) });
      const deadline = Date.now() + 20_000;
      while (connected === 0) {
        if (Date.now() > deadline) throw new Error('the CLI never connected');
        await new Promise((r) => setTimeout(r, 15));
      }
      child.kill('SIGINT');
      const r = await done;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain('interrupted');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  }, 30_000);

  it('reads a secret from a file too, and a missing secret source without a TTY is a usage error naming the flags', async () => {
    const file = join(home, 'value.txt');
    writeFileSync(file, 'from-a-file-value\n', { mode: 0o600 });
    const put = await run(['vault', 'put', 'e2e_file', '--host', 'api.example.com', '--value-file', file, '--json', 'name']);
    expect(put.code, put.stderr).toBe(0);
    expect(JSON.parse(put.stdout)).toEqual({ name: 'e2e_file' });
    const none = await run(['vault', 'put', 'e2e_file', '--host', 'api.example.com']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--value-stdin');
  }, 30_000);

  it('prints --help for every subcommand, with its usage and the exit codes', async () => {
    for (const c of COMMANDS.filter((c) => !c.raw)) {
      const args = [c.noun, ...(c.verb ? [c.verb] : []), '--help'];
      const r = await run(args, { env: cleanEnv({}) });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toContain(`intern-tui ${[c.noun, c.verb].filter(Boolean).join(' ')}`);
      expect(r.stdout).toContain('Exit codes:');
    }
    const top = await run(['--help'], { env: cleanEnv({}) });
    expect(top.stdout).toContain('130  interrupted');
    // The built CLI prints the help rendered at build time: the same text the registry gives now.
    expect(top.stdout).toBe(HELP);
    for (const c of COMMANDS) expect(top.stdout).toContain(`intern-tui ${[c.noun, c.verb].filter(Boolean).join(' ')}`);
  }, 60_000);

  it('on a terminal: asks for a secret with a masked prompt, and draws an aligned, coloured table (none with NO_COLOR)', async () => {
    const secret = 'typed-secret-never-drawn-42';
    const env = serviceEnv({ TERM: 'xterm-256color' }) as Record<string, string>;
    const put = new PtyScreen(process.execPath, [CLI, 'vault', 'put', 'pty_secret', '--host', 'api.example.com'], { cols: 100, rows: 20, cwd: ROOT, env });
    try {
      await put.waitFor('value of pty_secret:');
      await put.type(secret);
      await put.press('\r');
      expect(await put.waitForExit(20_000)).toBe(0);
      expect(put.output).toContain('*'.repeat(secret.length));
      expect(put.output).not.toContain(secret);
    } finally {
      await put.close();
    }
    expect(await json<{ name: string }[]>(['vault', 'list', '--json', 'name'])).toContainEqual({ name: 'pty_secret' });
    const piped = (await run(['vault', 'list'])).stdout.split('\n').find((l) => l.startsWith('pty_secret\t'))!;
    expect(piped).toMatch(/\tsha256:[0-9a-f]{64}\t\d{4}-\d\d-\d\dT/);

    for (const noColor of [false, true]) {
      const list = new PtyScreen(process.execPath, [CLI, 'vault', 'list'], { cols: 160, rows: 20, cwd: ROOT, env: { ...env, ...(noColor ? { NO_COLOR: '1' } : {}) } });
      try {
        expect(await list.waitForExit(20_000)).toBe(0);
        const screen = list.screen();
        const header = screen.split('\n').find((l) => l.startsWith('NAME'))!;
        const row = screen.split('\n').find((l) => l.startsWith('pty_secret'))!;
        expect(header).toMatch(/^NAME +HOSTS +FINGERPRINT +CREATED$/);
        expect(row.indexOf('api.example.com')).toBe(header.indexOf('HOSTS'));
        // On a terminal the fingerprint is short and the time an age, as in the TUI; piped, both whole.
        expect(row).toMatch(/ [0-9a-f]{8} +\d+s ago$/);
        expect(list.output.includes('\x1b[1m')).toBe(!noColor);
      } finally {
        await list.close();
      }
    }
  }, 60_000);

  it('chat streams the answer to stdout, reads the prompt from stdin, continues a session, answers permission with --approve, and prints NDJSON under --json', async () => {
    await json(['interns', 'create', 'cli-chatter', '--provision', '--json', 'id']);
    expect(await json(['interns', 'wait', 'cli-chatter', '--timeout', '40s', '--json', 'status'])).toEqual({ status: 'running' });

    const first = await run(['chat', 'cli-chatter', 'hello from the e2e test']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('You said: "hello from the e2e test"');
    const session = /session: (\S+)/.exec(first.stderr)?.[1];
    expect(session).toBeTruthy();

    const piped = await run(['chat', 'cli-chatter', '--session', session!], { stdin: 'a prompt on stdin\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('You said: "a prompt on stdin"');
    expect(piped.stdout).toContain('Earlier in this session you said: "hello from the e2e test"');

    const ndjson = await run(['chat', 'cli-chatter', 'json please', '--json']);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    const chunks = ndjson.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { object: string; choices: { delta: { content?: string } }[]; usage?: unknown });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain('You said: "json please"');
    expect(chunks.at(-1)!.usage).toBeTruthy();

    const approved = await run(['chat', 'cli-chatter', 'run: echo cli-$((40+2))', '--approve']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('Allow once');
    expect(approved.stdout).toContain('cli-42');

    // The reader of its output is gone (`| head` had its lines): it stops quietly with 141, the
    // status a shell shows for a program a closed pipe ended, not as if its terminal went away (129).
    const headed = start(['chat', 'cli-chatter', 'run: seq 1 200000', '--approve']);
    headed.child.stdout!.destroy();
    const closed = await headed.done;
    expect(closed.code, closed.stderr).toBe(141);
    expect(closed.stderr).not.toMatch(/went away|EPIPE/);

    const unanswered = await run(['chat', 'cli-chatter', 'run: echo never']);
    expect(unanswered.code).toBe(2);
    expect(unanswered.stderr).toContain('--approve or --deny');

    const failed = await run(['chat', 'cli-chatter', 'fail: turn_failed']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('turn_failed');
    // Under --json the error line carries the service's code and reason, as a refused request's does.
    const failedJson = await run(['chat', 'cli-chatter', 'fail: turn_failed', '--json', 'error']);
    expect(failedJson.code).toBe(1);
    expect(JSON.parse(failedJson.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit: 1, code: expect.any(Number), reason: 'turn_failed' } });
    // The chunks printed are those holding a field asked for: the error chunk, not empty objects.
    expect(failedJson.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ error: expect.objectContaining({ metadata: expect.objectContaining({ reason: 'turn_failed' }) }) }]);

    // --no-wait: a self-drive run through POST /invoke; stdout holds its session id alone, and a
    // second prompt to that session while it runs joins its turn.
    const started = await run(['chat', 'cli-chatter', 'run: sleep 2', '--no-wait']);
    expect(started.code, started.stderr).toBe(0);
    const sid = started.stdout.trim();
    expect(sid).toMatch(/^\S+$/);
    expect(started.stderr).toContain(`started a self-drive run; add to its session with --no-wait --session ${sid}`);
    expect(await json(['chat', 'cli-chatter', 'and this too', '--no-wait', '--session', sid, '--json'])).toEqual({ session_id: sid, status: 'steered' });
    const mixed = await run(['chat', 'cli-chatter', 'hi', '--no-wait', '--approve']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--no-wait runs the intern self-drive');
    // The run ends on its own: the intern takes a chat again.
    const free = Date.now() + 20_000;
    while ((await run(['chat', 'cli-chatter', 'free again?'])).code !== 0) {
      if (Date.now() > free) throw new Error('the --no-wait run never ended');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { child, done } = start(['chat', 'cli-chatter', 'a long answer to interrupt']);
    let seen = '';
    child.stdout!.on('data', (d: Buffer) => (seen += d.toString()));
    const until = Date.now() + 20_000;
    while (!seen.includes('You said')) {
      if (Date.now() > until) throw new Error('no answer started');
      await new Promise((r) => setTimeout(r, 15));
    }
    child.kill('SIGINT');
    expect((await done).code).toBe(130);

    // Terminated (timeout(1) sends SIGTERM): it still says the session to continue with, and ends by the signal.
    const term = start(['chat', 'cli-chatter', 'run: sleep 20', '--approve', '--session', 'e2e-term-session']);
    let termErr = '';
    term.child.stderr!.on('data', (d: Buffer) => (termErr += d.toString()));
    const termUntil = Date.now() + 20_000;
    while (!termErr.includes('Allow once')) {
      if (Date.now() > termUntil) throw new Error('the command never started');
      await new Promise((r) => setTimeout(r, 15));
    }
    term.child.kill('SIGTERM');
    const ended = await term.done;
    expect(ended.child.signalCode).toBe('SIGTERM');
    expect(ended.stderr).toContain('session: e2e-term-session (continue with --session e2e-term-session)');
  }, 90_000);

  it('--sandbox with --base-url says the base URL is not used', async () => {
    const r = await run(['interns', 'list', '--sandbox', '--base-url', 'http://127.0.0.1:9/api/v1', '--json', 'name'], { env: cleanEnv({}) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('--sandbox uses the built-in sandbox: --base-url is not used');
  });

  it('SIGTERM on the built-in sandbox ends by the signal without a false network error', async () => {
    const term = start(['chat', 'runner', 'run: sleep 20', '--approve'], { env: cleanEnv({}) });
    let err = '';
    term.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const until = Date.now() + 30_000;
    while (!err.includes('Allow once')) {
      if (Date.now() > until) throw new Error(`the command never started: ${err}`);
      await new Promise((r) => setTimeout(r, 15));
    }
    term.child.kill('SIGTERM');
    const ended = await term.done;
    expect(ended.child.signalCode).toBe('SIGTERM');
    expect(ended.stderr).not.toMatch(/could not reach|aborted/);
  }, 60_000);

  it('output that cannot be written (a full disk) is one line and exit 1, and the built-in sandbox is cleaned up', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'e2e-full-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [CLI, 'interns', 'list', '--json'], { env: cleanEnv({ TMPDIR: scratch }), stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('intern-tui: cannot write the output: ENOSPC (no space left on the device)');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(scratch)).toEqual([]);
    // Only stderr full: the notes are lost, the data is written, and nothing is left behind.
    const fullErr = openSync('/dev/full', 'w');
    const quiet = spawn(process.execPath, [CLI, 'interns', 'list', '--json', 'name'], { env: cleanEnv({ TMPDIR: scratch }), stdio: ['ignore', 'pipe', fullErr] });
    closeSync(fullErr);
    let stdout = '';
    quiet.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    expect(await new Promise<number | null>((resolve) => quiet.on('close', resolve))).toBe(0);
    expect(JSON.parse(stdout)).toEqual(expect.arrayContaining([{ name: 'runner' }]));
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('config use PROFILE sets the default profile, and refuses one the file does not have', async () => {
    const env = cleanEnv({});
    const dir = join(env.XDG_CONFIG_HOME!, 'intern-tui');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'config.json');
    // Nothing configured: it says the sandbox is used, not the default URL nothing goes to.
    const bare = (await run(['config', 'show'], { env })).stdout;
    expect(bare).toContain('base URL: none configured, so the TUI and the commands use a temporary built-in sandbox');
    expect(bare).not.toContain('openrouter.ai');
    writeFileSync(path, JSON.stringify({ profiles: { work: { base_url: 'http://127.0.0.1:9/api/v1' }, home: { base_url: 'http://127.0.0.1:8/api/v1' } } }), { mode: 0o600 });
    // The other tests share this home: the file goes whatever happens here.
    onTestFinished(() => rmSync(path, { force: true }));
    const used = await run(['config', 'use', 'work'], { env });
    expect(used.code, used.stderr).toBe(0);
    // Prose goes to stderr when stdout is piped.
    expect([used.stdout, used.stderr]).toEqual(['', 'The default profile is now work.\n']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ default_profile: 'work', profiles: { work: {}, home: {} } });
    const shown = (await run(['config', 'show'], { env: { ...env, OPENROUTER_API_KEY: 'sk-or-v1-config-show-secret' } })).stdout;
    expect(shown).toContain('known profile: work (default)');
    expect(shown).toContain('base URL: http://127.0.0.1:9/api/v1 (from the config file)');
    // Where each credential comes from, as its help says; never the value.
    expect(shown).toContain('API key: set, from the environment (OPENROUTER_API_KEY)');
    expect(shown).toContain('management key: not set (OPENROUTER_MANAGEMENT_KEY)');
    expect(shown).not.toContain('config-show-secret');
    const typo = await run(['config', 'use', 'hom'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('no profile "hom"');
    expect(typo.stderr).toContain('(did you mean "home"?)');
    expect(JSON.parse(readFileSync(path, 'utf8')).default_profile).toBe('work');
    // A variable naming another profile wins over the file's default: it is said.
    const shadowed = await run(['config', 'use', 'home'], { env: { ...env, INTERN_TUI_PROFILE: 'work' } });
    expect(shadowed.code).toBe(0);
    expect(shadowed.stderr).toContain('INTERN_TUI_PROFILE=work is set in this shell and wins over the default');
  });

  it('interns wait: until running, failing early on a failed intern, giving up at --timeout, and until deleted', async () => {
    await json(['interns', 'create', 'cli-waiter', '--provision', '--json', 'id']);
    const running = await run(['interns', 'wait', 'cli-waiter', '--json', 'status']);
    expect(running.code, running.stderr).toBe(0);
    expect(JSON.parse(running.stdout)).toEqual({ status: 'running' });
    // Piped: no progress on stderr, only data on stdout.
    expect(running.stderr).toBe('');

    const failed = await run(['interns', 'wait', sandbox.manifest.interns.failed!]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/is failed: .+; it will not become running/);

    const stuck = await run(['interns', 'wait', sandbox.manifest.interns.stopped!, '--timeout', '1s']);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('gave up after 1s');
    expect(stuck.stderr).toContain('is still stopped, not running');

    // Suspended, then provisioned again with --wait: the command returns once it runs.
    expect((await run(['interns', 'suspend', 'cli-waiter'])).code).toBe(0);
    expect(await json(['interns', 'wait', 'cli-waiter', '--for', 'stopped', '--json', 'status'])).toEqual({ status: 'stopped' });
    expect(await json(['interns', 'provision', 'cli-waiter', '--wait', '--json', 'name,status'])).toEqual({ name: 'cli-waiter', status: 'running' });

    expect((await run(['interns', 'delete', 'cli-waiter', '--yes'])).code).toBe(0);
    expect(await json(['interns', 'wait', 'cli-waiter', '--for', 'deleted', '--json', 'deleted'])).toEqual({ deleted: true });

    // create --provision --wait: one command to a running intern.
    expect(await json(['interns', 'create', 'cli-waiter2', '--provision', '--wait', '--json', 'status'])).toEqual({ status: 'running' });
    const noProvision = await run(['interns', 'create', 'cli-waiter3', '--wait']);
    expect(noProvision.code).toBe(2);
    expect(noProvision.stderr).toContain('--wait waits for the provisioning to finish: add --provision');
    expect((await run(['interns', 'provision', 'cli-waiter2', '--timeout', '1m'])).stderr).toContain('--timeout goes with --wait');

    // delete --wait: one command until it is gone, so that its name can be taken again at once.
    const gone = await run(['interns', 'delete', 'cli-waiter2', '--yes', '--wait']);
    expect(gone.code, gone.stderr).toBe(0);
    // The intern as it was on stdout; what happened on stderr.
    expect(gone.stdout).toMatch(/^name\tcli-waiter2\n/);
    expect(gone.stderr).toMatch(/cli-waiter2 is deleted \(after \d+s\)\.\n/);
    expect((await run(['interns', 'get', 'cli-waiter2'])).code).toBe(1);
    expect(await json(['interns', 'create', 'cli-waiter2', '--json', 'name'])).toEqual({ name: 'cli-waiter2' });
    expect(await json(['interns', 'delete', 'cli-waiter2', '--yes', '--wait', '--json'])).toMatchObject({ name: 'cli-waiter2' });

    const typo = await run(['interns', 'wait', 'anything', '--for', 'runing']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(did you mean running?)');
  }, 60_000);

  it('copies a workspace secret to an intern named by name, lists its effective secrets, its connections, models by query, and provisions it', async () => {
    await json(['interns', 'create', 'cli-beta', '--json', 'id']);
    const put = await run(['vault', 'put', 'shared_token', '--host', 'api.example.com', '--value-stdin'], { stdin: 'shared-value' });
    expect(put.code, put.stderr).toBe(0);
    const copied = await json<{ name: string }[]>(['vault', 'copy', 'shared_token', '--intern', 'cli-beta', '--json', 'name']);
    expect(copied).toEqual([{ name: 'shared_token' }]);
    expect(await json(['vault', 'list', '--intern', 'cli-beta', '--json', 'name'])).toEqual([{ name: 'shared_token' }]);
    const effective = await json<{ name: string; scope: string }[]>(['vault', 'list', '--intern', 'cli-beta', '--effective', '--json', 'name,scope']);
    expect(effective).toContainEqual({ name: 'shared_token', scope: 'intern' });
    const noIntern = await run(['vault', 'copy', 'shared_token']);
    expect(noIntern.code).toBe(2);

    const connections = await run(['connections', 'cli-beta', '--json']);
    expect(connections.code, connections.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(connections.stdout))).toBe(true);

    const models = await json<{ id: string; name: string }[]>(['models', 'claude', '--json', 'id,name']);
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) expect(`${m.id} ${m.name}`.toLowerCase()).toContain('claude');

    const before = await json<{ status: string }>(['interns', 'get', 'cli-beta', '--json', 'status']);
    const provisioned = await json<Record<string, unknown>>(['interns', 'provision', 'cli-beta', '--json']);
    expect(provisioned).toMatchObject({ name: 'cli-beta' });
    // Every field the command lists for --json is there: the intern as it is once provisioning started.
    expect(provisioned.status).not.toBe(before.status);
    expect(Object.keys(provisioned)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'updated_at']));
    const after = await json<{ status: string }>(['interns', 'get', 'cli-beta', '--json', 'status']);
    expect(after.status).not.toBe(before.status);
  }, 60_000);

  it('on a terminal: delete asks first; "n" keeps the intern (exit 1), ctrl+c exits 130, "y" deletes', async () => {
    const created = await json<{ id: string }>(['interns', 'create', 'cli-asked', '--json', 'id']);
    const env = serviceEnv({ TERM: 'xterm-256color' }) as Record<string, string>;
    const ask = async (answer: string) => {
      const t = new PtyScreen(process.execPath, [CLI, 'interns', 'delete', 'cli-asked'], { cols: 120, rows: 10, cwd: ROOT, env });
      try {
        await t.waitFor(`Delete intern cli-asked (${created.id}) and its workspace? [y/N]`);
        await t.press(answer);
        if (answer !== '\x03') await t.press('\r');
        return { code: await t.waitForExit(20_000), screen: t.screen() };
      } finally {
        await t.close();
      }
    };
    const no = await ask('n');
    expect(no.code).toBe(1);
    expect(no.screen).toContain('not deleted');
    expect((await ask('\x03')).code).toBe(130);
    expect((await json<{ id: string }>(['interns', 'get', created.id, '--json', 'id'])).id).toBe(created.id);
    const yes = await ask('y');
    expect(yes.code).toBe(0);
    // The note on stderr, then the intern as get shows it (the screen's last rows).
    expect(yes.screen).toMatch(/hostname/);
    expect((await run(['interns', 'get', created.id, '--json', 'status'])).stdout).toMatch(/destroying|^$/);
  }, 60_000);

  it('loads only the registry at start-up: the statically imported part of the bundle holds no client, zod, Ink or sandbox, and --version loads only the version', () => {
    // The bundle is minified: esbuild's metafile (written by the build) says what each chunk holds and imports.
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { bytes: number; imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
    };
    const seen = new Set<string>();
    const visit = (out: string) => {
      if (seen.has(out)) return;
      seen.add(out);
      for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) visit(i.path);
    };
    visit('dist/cli.js');
    // What --version and --help load: the entry alone (their text is rendered at build time).
    expect([...seen]).toEqual(['dist/cli.js']);
    expect(Object.keys(meta.outputs['dist/cli.js']!.inputs)).toEqual(['src/cli/main.ts']);
    // What --help and every command load before their own import(): dispatch.ts and what it imports.
    const dispatch = Object.keys(meta.outputs).find((o) => !o.endsWith('.map') && Object.keys(meta.outputs[o]!.inputs).includes('src/cli/dispatch.ts'));
    expect(dispatch).toBeDefined();
    visit(dispatch!);
    const inputs = [...seen].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));
    expect(seen.size).toBeGreaterThan(1);
    // (The attach help names the detach key from src/attach/detach.ts: two constants, not attach code.)
    for (const heavy of ['src/client/http.ts', 'node_modules/zod', 'node_modules/ink', 'src/sandbox/app.ts', 'node_modules/undici', 'src/attach/', 'node_modules/pngjs']) {
      expect(inputs.filter((i) => i.includes(heavy) && i !== 'src/attach/detach.ts'), heavy).toEqual([]);
    }
    expect(inputs).toContain('src/cli/registry.ts');
    // The registry names each command's module and the dispatcher's table (loaders.ts) imports it
    // when the command runs: no command's code, nor run.ts, is in what --help loads.
    expect(inputs.filter((i) => i.startsWith('src/cli/commands/') || i === 'src/cli/run.ts' || i === 'src/cli/legacy.ts')).toEqual([]);
    for (const command of ['interns', 'byok', 'vault', 'chat', 'attach', 'completion']) {
      expect(Object.values(meta.outputs).some((o) => Object.keys(o.inputs).includes(`src/cli/commands/${command}.ts`)), command).toBe(true);
    }
    // The dynamic part does exist (the check above is not vacuous).
    expect(Object.values(meta.outputs).some((o) => Object.keys(o.inputs).some((i) => i.includes('node_modules/zod')))).toBe(true);
    expect([...seen].reduce((n, o) => n + meta.outputs[o]!.bytes, 0)).toBeLessThan(100_000);
  });

  it('starts the TUI of an empty command line without the registry, the parser or the dispatcher (tuiEntry.ts)', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
    };
    // main.ts's import() of tuiBundle.ts, and everything that chunk imports (statically or not) to run dist/tui.cjs.
    const bundle = Object.keys(meta.outputs).find((o) => !o.endsWith('.map') && Object.keys(meta.outputs[o]!.inputs).includes('src/cli/tuiBundle.ts'));
    expect(bundle).toBeDefined();
    const seen = new Set<string>();
    const visit = (out: string) => {
      if (seen.has(out)) return;
      seen.add(out);
      for (const i of meta.outputs[out]!.imports) if (meta.outputs[i.path]) visit(i.path);
    };
    visit(bundle!);
    const inputs = [...seen].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));
    expect(inputs).toContain('src/codeCache.ts');
    expect(inputs.filter((i) => i.startsWith('src/cli/'))).toEqual(expect.arrayContaining(['src/cli/tuiBundle.ts', 'src/cli/dirs.ts']));
    expect(inputs.filter((i) => i.startsWith('src/cli/') && i !== 'src/cli/tuiBundle.ts' && i !== 'src/cli/dirs.ts')).toEqual([]);
    // dist/tui.cjs's entry is tuiEntry.ts, with the quick start and the command it loads when run.
    const tui = Object.keys(meta.outputs['dist/tui.cjs']!.inputs);
    for (const part of ['src/cli/tuiEntry.ts', 'src/cli/earlySandbox.ts', 'src/cli/finish.ts', 'src/cli/tuiCommand.ts']) expect(tui, part).toContain(part);
    for (const skipped of ['src/cli/dispatch.ts', 'src/cli/registry.ts', 'src/cli/args.ts', 'src/cli/parse.ts', 'src/cli/loaders.ts', 'src/cli/legacy.ts']) {
      expect(tui.filter((i) => i === skipped), skipped).toEqual([]);
    }
  });

  it('builds the TUI command as one CommonJS file (dist/tui.cjs, for the code cache) with the TUI and without the sandbox', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const tui = Object.keys(meta.outputs['dist/tui.cjs']!.inputs);
    for (const part of ['src/cli/tuiCommand.ts', 'src/tui/app.tsx', 'src/tui/screens/ChatScreen.tsx', 'node_modules/ink/', 'src/client/http.ts', 'src/sandbox/thread.ts']) {
      expect(tui.some((i) => i.includes(part)), part).toBe(true);
    }
    // The sandbox itself runs in its worker (dist/sandbox.cjs).
    for (const part of ['src/sandbox/app.ts', 'node_modules/fastify', 'src/sandbox/store']) expect(tui.filter((i) => i.includes(part)), part).toEqual([]);
    const esm = Object.entries(meta.outputs).filter(([o]) => o.endsWith('.js')).flatMap(([, v]) => Object.keys(v.inputs));
    expect(esm.filter((i) => i.includes('node_modules/ink/') || i === 'src/cli/tuiCommand.ts')).toEqual([]);
  });

  it("gives Ink the synchronous yoga (scripts/yoga-sync.mjs), not the package's entry that fetches its wasm, and the table-backed string-width", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const inputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    expect(inputs).toContain('scripts/yoga-sync.mjs');
    expect(inputs).toContain('node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js');
    expect(inputs.filter((i) => i.startsWith('node_modules/yoga-layout/dist/src/index'))).toEqual([]);
    // And the table-backed string-width (scripts/string-width-fast.mjs), generated at build time.
    expect(inputs).toContain('scripts/string-width-fast.mjs');
    expect(inputs).toContain('string-width-table:string-width-table');
    // The inlined wasm moved to an export, once: the bundle holds no second copy of it. The TUI, and
    // so Ink and yoga, is dist/tui.cjs alone: no chunk of the ES module build holds Ink.
    const chunks = readdirSync(join(ROOT, 'dist', 'chunks')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(ROOT, 'dist', 'chunks', f), 'utf8')).join('');
    expect(chunks.split('AGFzbQEAAAAB').length - 1).toBe(0);
    expect(readFileSync(join(ROOT, 'dist', 'tui.cjs'), 'utf8').split('AGFzbQEAAAAB').length - 1).toBe(1);
  });

  it("keeps Ink's text caches from frame to frame, bounded (scripts/ink-kept-caches.mjs)", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const tui = Object.keys(meta.outputs['dist/tui.cjs']!.inputs);
    expect(tui).toContain('scripts/ink-kept-caches.mjs');
    // The rewrite made Ink's four caches KeptMaps (their limits: KEPT), and only those.
    const made = [...readFileSync(join(ROOT, 'dist', 'tui.cjs'), 'utf8').matchAll(/new ([\w$]+)\((\d+)\)/g)];
    const kept = made.find(([, , n]) => n === String(KEPT.widths))?.[1];
    const limits = made.filter(([, made]) => made === kept).map(([, , n]) => Number(n));
    expect(limits.sort((a, b) => a - b)).toEqual([KEPT.styledChars, KEPT.widths, KEPT.blockWidths, KEPT.measured].sort((a, b) => a - b));
  });

  it("loads node:https, node:http2 and semver in the sandbox only where fastify uses them (scripts/bundling.mjs's fastify-lazy-requires)", () => {
    const sandbox = readFileSync(join(ROOT, 'dist', 'sandbox.cjs'), 'utf8');
    // semver is bundled: the plugin check calls the function that loads it, where it had a variable.
    expect(sandbox).toMatch(/\w\(\)\.satisfies\(this\.version,/);
    expect(sandbox.match(/require\("node:http2"\)/g)).toHaveLength(2);
    expect(sandbox).toContain('require("node:http2").createServer(');
    expect(sandbox).toContain('require("node:https").createServer(');
    expect(sandbox.match(/require\("node:https"\)/g)).toHaveLength(1);
  });

  it('chat on a terminal: asks permission and questions on the terminal and streams the answer', async () => {
    await json(['interns', 'create', 'cli-tty', '--provision', '--json', 'id']);
    const deadline = Date.now() + 40_000;
    while ((await json<{ status: string }>(['interns', 'get', 'cli-tty', '--json', 'status'])).status !== 'running') {
      if (Date.now() > deadline) throw new Error('cli-tty never ran');
      await new Promise((r) => setTimeout(r, 100));
    }
    const env = serviceEnv({ TERM: 'xterm-256color' }) as Record<string, string>;
    const permission = new PtyScreen(process.execPath, [CLI, 'chat', 'cli-tty', 'run: echo tty-$((6*7))'], { cols: 120, rows: 30, cwd: ROOT, env });
    try {
      await permission.waitFor('1) Allow once');
      await permission.press('1', '\r');
      expect(await permission.waitForExit(30_000)).toBe(0);
      expect(permission.screen()).toContain('tty-42');
    } finally {
      await permission.close();
    }
    const question = new PtyScreen(process.execPath, [CLI, 'chat', 'cli-tty', 'ask: favourite colour?'], { cols: 120, rows: 30, cwd: ROOT, env });
    try {
      await question.waitFor('Your answer:');
      await question.type('teal');
      await question.press('\r');
      await question.waitFor('How sure are you?');
      await question.press('2', '\r');
      expect(await question.waitForExit(30_000)).toBe(0);
      expect(question.screen()).toContain('You answered "teal" (fairly sure)');
    } finally {
      await question.close();
    }
    // No PROMPT on a terminal: a conversation in one session, a failed turn reported and the
    // conversation going on, until ctrl+d.
    const talk = new PtyScreen(process.execPath, [CLI, 'chat', 'cli-tty'], { cols: 120, rows: 40, cwd: ROOT, env });
    try {
      await talk.waitFor('Chatting with cli-tty; ctrl+d or exit ends.');
      await talk.waitFor(/prompt> $/m);
      // A paste's line breaks do not send it (bracketed paste): its lines and what follows are one prompt.
      await talk.press('\x1b[200~first words\ron two lines\x1b[201~');
      await talk.waitFor(/^\.\.\. on two lines/m);
      await talk.type(' and typed');
      await talk.press('\r');
      const first = await talk.waitFor('Turn 1 of session');
      expect(first).toContain('You said: "first words on two lines and typed"');
      await talk.type('fail: stream_severed');
      await talk.press('\r');
      await talk.waitFor('the run failed (stream_severed)');
      await talk.type('second words');
      await talk.press('\r');
      const screen = await talk.waitFor('Turn 3 of session');
      expect(screen).toContain('Earlier in this session you said: "fail: stream_severed"');
      // The fourth prompt, after the third turn's answer.
      await talk.waitFor((s) => (s.match(/prompt>/g) ?? []).length === 4);
      await talk.press('\x04');
      expect(await talk.waitForExit(30_000)).toBe(0);
      expect(talk.screen()).toMatch(/session: [\w-]+ \(continue with --session [\w-]+\)/);
    } finally {
      await talk.close();
    }
    // ctrl+c while an answer streams stops the turn, and the conversation goes on in its session.
    const stopped = new PtyScreen(process.execPath, [CLI, 'chat', 'cli-tty', '--self-drive'], { cols: 120, rows: 40, cwd: ROOT, env });
    try {
      await stopped.waitFor(/prompt> $/m);
      await stopped.type('run: sleep 5; echo slept');
      await stopped.press('\r');
      await stopped.waitFor('Running `sleep 5; echo slept`');
      await stopped.press('\x03');
      await stopped.waitFor('stopped the turn');
      await stopped.type('after the stop');
      await stopped.press('\r');
      await stopped.waitFor('Earlier in this session you said: "run: sleep 5; echo slept"');
      await stopped.waitFor((s) => (s.match(/prompt>/g) ?? []).length === 3);
      await stopped.press('\x04');
      expect(await stopped.waitForExit(30_000)).toBe(0);
    } finally {
      await stopped.close();
    }
    // So does ctrl+c at a permission request: the request is cancelled with the turn (the intern is
    // not left waiting for it, so the next prompt starts a turn of its own, not steering this one).
    const refused = new PtyScreen(process.execPath, [CLI, 'chat', 'cli-tty'], { cols: 120, rows: 40, cwd: ROOT, env });
    try {
      await refused.waitFor(/prompt> $/m);
      await refused.type('run: echo never-$((6*7))');
      await refused.press('\r');
      await refused.waitFor(/choose 1-\d+ \(empty cancels\): $/m);
      await refused.press('\x03');
      await refused.waitFor('intern-tui: stopped the turn; ctrl+d or exit ends the conversation');
      await refused.waitFor((s) => (s.match(/prompt>/g) ?? []).length === 2);
      await refused.type('after the request');
      await refused.press('\r');
      const after = await refused.waitFor('Earlier in this session you said: "run: echo never-$((6*7))"');
      expect(after).not.toContain('already running');
      expect(after).not.toContain('never-42');
      await refused.waitFor((s) => (s.match(/prompt>/g) ?? []).length === 3);
      // `exit` alone ends the conversation, as in llm chat, rather than going to the intern.
      await refused.type('exit');
      await refused.press('\r');
      expect(await refused.waitForExit(30_000)).toBe(0);
      expect(refused.screen()).toMatch(/session: [\w-]+ \(continue with --session [\w-]+\)/);
      expect(refused.screen()).not.toContain('You said: "exit"');
    } finally {
      await refused.close();
    }
  }, 90_000);
});
