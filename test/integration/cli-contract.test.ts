/**
 * The command line as a scripting contract, against a live sandbox: every verb that changes a
 * resource prints it as `get` does (the same --json fields), asking for a state already reached
 * exits 0 with a note on stderr, deletes take --ignore-not-found, enumerated flags are strict, and
 * --jq runs on what --json prints. Exit codes as README's table says.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/context.js';
import { parseFor } from '../../src/cli/parse.js';
import { findCommand } from '../../src/cli/registry.js';
import { runCommand } from '../../src/cli/run.js';
import { InternSchema } from '../../src/contract/intern.js';
import { ByokCredentialSchema } from '../../src/contract/byok.js';
import { VaultSecretSchema } from '../../src/contract/vault.js';
import { schemaFields } from '../../src/contract/read.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox, userClient, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

function makeIo(stdinText?: string): Io & { out: () => string; err: () => string } {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (stdinText !== undefined) stdin.end(stdinText);
  const sink = (into: string[]) => {
    const s = new PassThrough() as PassThrough & { isTTY?: boolean };
    s.on('data', (d: Buffer) => into.push(d.toString()));
    return s;
  };
  const out: string[] = [];
  const err: string[] = [];
  return { stdin, stdout: sink(out), stderr: sink(err), env: {}, out: () => out.join(''), err: () => err.join('') };
}

/** Runs `intern-tui ARGV` piped (no terminal) against the sandbox: exit code, stdout, stderr. */
async function cli(argv: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const found = findCommand(argv);
  if (!found || !('spec' in found)) throw new Error(`no command ${argv.join(' ')}`);
  const io = makeIo(stdin);
  let code: number;
  try {
    code = await runCommand(found.spec, found.rest, parseFor(found.spec, found.rest), io, () => Promise.resolve(userClient(sb)));
  } catch (e) {
    // parseFor's refusals: dispatch.ts turns them into exit 2 the same way.
    return { code: (e as { exitCode?: number }).exitCode ?? 1, stdout: '', stderr: (e as Error).message };
  }
  await new Promise((r) => setImmediate(r));
  return { code, stdout: io.out(), stderr: io.err() };
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const INTERN_KEYS = schemaFields(InternSchema);
/** Every key printed is one of get's fields, and the object is the intern `id`. */
function isIntern(value: Record<string, unknown>, id?: string): void {
  for (const k of Object.keys(value)) expect(INTERN_KEYS, k).toContain(k);
  expect(value).toMatchObject({ id: id ?? expect.any(String), name: expect.any(String), status: expect.any(String) });
}

describe('interns: every change prints the intern as get does', () => {
  it('create, update, provision, suspend and delete print the intern, and --json FIELDS picks get\'s fields', async () => {
    const created = await cli(['interns', 'create', 'shape-bot', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    const id = json(created.stdout).id as string;
    isIntern(json(created.stdout), id);

    const got = await cli(['interns', 'get', id, '--json']);
    expect(Object.keys(json(got.stdout)).sort()).toEqual(Object.keys(json(created.stdout)).sort());

    const updated = await cli(['interns', 'update', 'shape-bot', '--description', 'Shapes', '--json', 'id,description']);
    expect([updated.code, json(updated.stdout)]).toEqual([0, { id, description: 'Shapes' }]);

    // stopped → provisioning: the intern with its status now; the prose on stderr, not stdout.
    const provisioned = await cli(['interns', 'provision', 'shape-bot', '--json', 'id,status']);
    expect(provisioned.code, provisioned.stderr).toBe(0);
    expect(['queued', 'provisioning', 'running']).toContain(json(provisioned.stdout).status);
    await waitFor(() => cli(['interns', 'get', id, '--json', 'status']), (r) => json(r.stdout).status === 'running', 10_000, 'running');

    const suspended = await cli(['interns', 'suspend', 'shape-bot', '--json', 'status']);
    expect([suspended.code, json(suspended.stdout)]).toEqual([0, { status: 'stopped' }]);

    const deleted = await cli(['interns', 'delete', 'shape-bot', '--yes', '--json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    isIntern(json(deleted.stdout), id);
    expect(['destroying', 'stopped']).toContain(json(deleted.stdout).status);
  });

  it('without --json a piped change prints get\'s lines on stdout and what was done on stderr', async () => {
    const r = await cli(['interns', 'create', 'plain-bot']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^name\tplain-bot\nid\t[0-9a-f-]+\nstatus\tstopped\n/);
    expect(r.stderr).toMatch(/^Created intern plain-bot \(/);
    const p = await cli(['interns', 'provision', 'plain-bot']);
    expect(p.stdout).toMatch(/^name\tplain-bot\n/);
    expect(p.stdout).not.toMatch(/Provisioning/);
    expect(p.stderr).toMatch(/^Provisioning intern plain-bot \(/);
  });
});

describe('idempotent verbs', () => {
  it('provision a running intern and suspend a stopped one exit 0 with a note on stderr', async () => {
    const made = await cli(['interns', 'create', 'idem-bot', '--provision', '--wait', '--timeout', '20s', '--json', 'id,status']);
    expect([made.code, json(made.stdout).status], made.stderr).toEqual([0, 'running']);
    const again = await cli(['interns', 'provision', 'idem-bot', '--json', 'status']);
    expect([again.code, json(again.stdout), again.stderr]).toEqual([0, { status: 'running' }, expect.stringMatching(/^Intern idem-bot \(.*\) is running already\.\n$/)]);
    expect((await cli(['interns', 'suspend', 'idem-bot'])).code).toBe(0);
    const twice = await cli(['interns', 'suspend', 'idem-bot', '--json', 'status']);
    expect([twice.code, json(twice.stdout)]).toEqual([0, { status: 'stopped' }]);
    expect(twice.stderr).toMatch(/is stopped already/);
  });

  it('create --if-not-exists answers the existing intern; without it a taken name is exit 1', async () => {
    const first = await cli(['interns', 'create', 'once-bot', '--json', 'id']);
    const id = json(first.stdout).id;
    const again = await cli(['interns', 'create', 'once-bot', '--if-not-exists', '--json', 'id']);
    expect([again.code, json(again.stdout)]).toEqual([0, { id }]);
    expect(again.stderr).toMatch(/exists already \(--if-not-exists\)/);
    const taken = await cli(['interns', 'create', 'once-bot']);
    expect(taken.code).toBe(1);
  });

  it('create --model sets the model before provisioning', async () => {
    const r = await cli(['interns', 'create', 'model-bot', '--model', 'openai/gpt-4.1', '--provision', '--json', 'model,status']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).model).toBe('openai/gpt-4.1');
    expect(['queued', 'provisioning', 'running']).toContain(json(r.stdout).status);
  });

  it('a delete of what is not there is exit 1, or 0 with --ignore-not-found and nothing on stdout', async () => {
    for (const argv of [
      ['interns', 'delete', 'no-such-bot', '--yes'],
      ['byok', 'delete', 'no-such-key', '--yes'],
      ['vault', 'delete', 'no_such_secret', '--yes'],
    ]) {
      expect((await cli(argv)).code, argv.join(' ')).toBe(1);
      const ignored = await cli([...argv, '--ignore-not-found', '--json']);
      expect([ignored.code, ignored.stdout], argv.join(' ')).toEqual([0, '']);
      expect(ignored.stderr).toMatch(/nothing to delete \(--ignore-not-found\)/);
    }
  });
});

describe('byok and vault changes print the record', () => {
  it('byok create, update and delete print the key as get does; a second delete is exit 1', async () => {
    const created = await cli(['byok', 'create', '--provider', 'openai', '--key-stdin', '--name', 'ci', '--json'], 'sk-test-1234567890abcdef\n');
    expect(created.code, created.stderr).toBe(0);
    const key = json(created.stdout);
    for (const k of Object.keys(key)) expect(schemaFields(ByokCredentialSchema)).toContain(k);
    const updated = await cli(['byok', 'update', key.id as string, '--disabled', 'true', '--json', 'id,disabled']);
    expect(json(updated.stdout)).toEqual({ id: key.id, disabled: true });
    const deleted = await cli(['byok', 'delete', key.id as string, '--yes', '--json', 'id,provider,name']);
    expect([deleted.code, json(deleted.stdout)]).toEqual([0, { id: key.id, provider: 'openai', name: 'ci' }]);
    expect((await cli(['byok', 'delete', key.id as string, '--yes'])).code).toBe(1);
  });

  it('vault put and delete print the secret as vault list does', async () => {
    const put = await cli(['vault', 'put', 'ci_token', '--host', 'api.example.com', '--value-stdin', '--json'], 'hunter2');
    expect(put.code, put.stderr).toBe(0);
    for (const k of Object.keys(json(put.stdout))) expect(schemaFields(VaultSecretSchema)).toContain(k);
    expect(put.stdout).not.toContain('hunter2');
    const deleted = await cli(['vault', 'delete', 'ci_token', '--yes', '--json', 'name,hosts']);
    expect([deleted.code, json(deleted.stdout)]).toEqual([0, { name: 'ci_token', hosts: ['api.example.com'] }]);
    expect((await cli(['vault', 'delete', 'ci_token', '--yes'])).code).toBe(1);
  });
});

describe('strict inputs and filters', () => {
  it('an unknown status or provider is exit 2 naming the closest, before anything is sent', async () => {
    const status = await cli(['interns', 'list', '--status', 'runing']);
    expect([status.code, status.stdout]).toEqual([2, '']);
    expect(status.stderr).toMatch(/"runing" \(did you mean running\?\) is not a status/);
    const provider = await cli(['byok', 'list', '--provider', 'opnai']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(/did you mean openai\?/);
    const bare = await cli(['interns', 'wait', 'x', '--timeout', '2']);
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringMatching(/--timeout needs a unit/)]);
  });

  it('--jq and --template run on what --json prints; a bad expression is exit 2 with jq\'s words', async () => {
    await cli(['interns', 'create', 'jq-bot']);
    const names = await cli(['interns', 'list', '--jq', '[.[].name] | index("jq-bot") != null']);
    expect([names.code, names.stdout]).toEqual([0, 'true\n']);
    const line = await cli(['interns', 'get', 'jq-bot', '-t', '\\(.name)\\t\\(.status)']);
    expect(line.stdout).toBe('jq-bot\tstopped\n');
    const bad = await cli(['interns', 'delete', 'jq-bot', '--yes', '--jq', '.[']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--jq: jq: error: syntax error/);
    // Nothing was sent: the intern is still there.
    expect((await cli(['interns', 'get', 'jq-bot', '-q', '.status'])).stdout).toBe('stopped\n');
  });
});
