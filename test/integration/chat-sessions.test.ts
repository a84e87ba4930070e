/** `chat` saving its turns, `chat --resume`, `chat list` and `chat export`: the CLI's commands against a live sandbox, the state folder a temporary one. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/context.js';
import { parseFor } from '../../src/cli/parse.js';
import { findCommand } from '../../src/cli/registry.js';
import { runCommand } from '../../src/cli/run.js';
import type { InternApi } from '../../src/client/types.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { clientAs, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
let api: InternApi;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty', daemonCommand: 'exec /bin/sh', agent: { paceMs: 1 } });
  api = clientAs(sb, { api_key: 'api_key' });
});
afterAll(() => sb.close());

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

async function cli(argv: string[], env: NodeJS.ProcessEnv, client: InternApi = api) {
  const found = findCommand(argv);
  if (!found || !('spec' in found)) throw new Error(`no command ${argv.join(' ')}`);
  const stdin = new PassThrough();
  stdin.end();
  const stdout = new Sink();
  const stderr = new Sink();
  const io: Io = { stdin, stdout, stderr, env };
  let code: number;
  try {
    code = await runCommand(found.spec, found.rest, parseFor(found.spec, found.rest), io, () => Promise.resolve(client));
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 1;
    stderr.text += (e as Error).message;
  }
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const runner = () => sb.manifest.interns.running!;
const freshState = () => ({ XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'intern-tui-chat-state-')) });

interface Listed {
  id: string;
  title: string;
  turns: number;
  cost: number | null;
  session_id: string | null;
}
const listed = async (env: NodeJS.ProcessEnv): Promise<Listed[]> => {
  const r = await cli(['chat', 'list', runner(), '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Listed[];
};

describe('saved conversations on the command line', () => {
  it('a prompt is saved as it streams; --resume continues the latest in its session; list shows turns and cost', async () => {
    const env = freshState();
    const first = await cli(['chat', runner(), 'hello there'], env);
    expect(first.code, first.stderr).toBe(0);
    let list = await listed(env);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: 'hello there', turns: 1, session_id: expect.stringMatching(/^sess_/) });
    expect(list[0]!.cost).toBeGreaterThan(0);

    const again = await cli(['chat', runner(), 'and again', '--resume'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Earlier in this session you said: "hello there"');
    list = await listed(env);
    expect(list).toHaveLength(1);
    expect(list[0]!.turns).toBe(2);

    // A new conversation without --resume; --resume ID picks the older one.
    expect((await cli(['chat', runner(), 'a new topic'], env)).code).toBe(0);
    list = await listed(env);
    expect(list.map((c) => c.title)).toEqual(['a new topic', 'hello there']);
    const older = list[1]!;
    const third = await cli(['chat', runner(), 'third', '--resume', older.id], env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain('Earlier in this session you said');
    expect((await listed(env)).find((c) => c.id === older.id)!.turns).toBe(3);

    // The files: 0600 in 0700 folders.
    const state = join(env.XDG_STATE_HOME, 'intern-tui');
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(statSync(join(state, 'sessions')).mode & 0o777).toBe(0o700);
  });

  it('exports the latest or a given conversation as Markdown (a 0600 file) or JSON Lines', async () => {
    const env = freshState();
    expect((await cli(['chat', runner(), 'run: echo exported-$((6*7))', '--approve'], env)).code).toBe(0);
    const out = join(env.XDG_STATE_HOME, 'out.md');
    const md = await cli(['chat', 'export', runner(), '--format', 'md', '-o', out], env);
    expect(md.code, md.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(text).toMatch(/^# run: echo exported/);
    expect(text).toContain('> run: echo exported-$((6*7))');
    expect(text).toContain('exported-42');
    expect(text).toContain('→ Allow once');

    const [c] = await listed(env);
    const jsonl = await cli(['chat', 'export', runner(), '--session', c!.id, '--format', 'jsonl'], env);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const events = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string });
    expect(events[0]).toMatchObject({ type: 'conversation', id: c!.id, turns: 1 });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['prompt', 'tool_call', 'reply', 'answer', 'end']));
    expect(events.find((e) => e.type === 'answer')!.text).toContain('exported-42');
  });

  it('says so when the service answers in another session than the saved one, and saves the new one under the same transcript', async () => {
    const env = freshState();
    expect((await cli(['chat', runner(), 'remember me'], env)).code).toBe(0);
    const [before] = await listed(env);
    // A service that no longer knows the session names another in its last chunk.
    const forgetful: InternApi = Object.create(api) as InternApi;
    forgetful.chat = async (id, body, opts) => {
      const start = await api.chat(id, { ...body, session_id: 'sess_replacement' }, opts);
      return start;
    };
    const r = await cli(['chat', runner(), 'still there?', '--resume'], env, forgetful);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the service no longer knows session ${before!.session_id}`);
    const [after] = await listed(env);
    expect(after).toMatchObject({ id: before!.id, turns: 2, session_id: 'sess_replacement' });
  });

  it('refuses what cannot work, in one line, before anything is sent', async () => {
    const env = freshState();
    const none = await cli(['chat', 'list', runner()], env);
    expect(none.code).toBe(0);
    const both = await cli(['chat', runner(), 'x', '--resume', '--session', 'sess_1'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--resume .* drop --session/);
    expect((await cli(['chat', 'export', runner(), '--format', 'pdf'], env)).stderr).toMatch(/--format must be md or jsonl/);
    expect((await cli(['chat', 'export', runner(), '--format', 'md'], env)).stderr).toMatch(/no saved conversation/);
    const unknown = await cli(['chat', runner(), 'x', '--resume', '20990101'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no saved conversation 20990101/);
    // A prompt after --resume stays the prompt.
    const prompt = await cli(['chat', runner(), '--resume', 'hello after resume'], env);
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('hello after resume');
    expect(prompt.stderr).toMatch(/no saved conversation with .* yet; starting one/);
  });

  it('saves nothing without a state folder (no HOME, no XDG_STATE_HOME), and says so only when asked to resume', async () => {
    const r = await cli(['chat', runner(), 'hello'], {});
    expect(r.code, r.stderr).toBe(0);
    const resumed = await cli(['chat', runner(), 'hello', '--resume'], {});
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(/no state folder/);
  });
});
