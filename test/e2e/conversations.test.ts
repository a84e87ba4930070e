/**
 * Conversations that outlive the process, through the built CLI in a pty against a sandbox process:
 * chat in the TUI, quit, start it again and find the conversation with its transcript; recall the
 * prompt with up; go on in the same service session; then list and export it with the command line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, openIntern } from './harness.js';
import { e2eSuite } from './suite.js';

const { open, sandbox } = e2eSuite();
const state = mkdtempSync(join(tmpdir(), 'e2e-state-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));

const run = promisify(execFile);

/** From the chat: back to the intern, back to the list, quit. */
async function quit(t: ReturnType<typeof open>): Promise<number> {
  await t.press('esc');
  await t.waitFor(/id {2,}[0-9a-f-]{36}/);
  await t.press('q');
  await t.waitFor((s) => !/id {2,}[0-9a-f-]{36}/.test(s));
  await t.press('q');
  return t.waitForExit();
}

describe('a conversation outlives the TUI', () => {
  // One story in three steps (the state folder carries it from one to the next).
  it('chats, and quits', async () => {
    const first = open({ env: { XDG_STATE_HOME: state, NO_COLOR: '1' } });
    await openIntern(first, 'runner-jpeg');
    await first.press('t');
    await first.waitFor('Chat with runner-jpeg');
    await first.type('remember the word');
    await first.press('\n'); // ^j: a new line in the prompt
    await first.type('pelican');
    await first.press('enter');
    await first.waitFor(/tokens \(\d+ in, \d+ out\)/, 20_000);
    expect(await quit(first)).toBe(0);
  });

  it('starts again and finds the conversation with its transcript and the prompt in the history, and continues its session', async () => {
    const second = open({ env: { XDG_STATE_HOME: state, NO_COLOR: '1' } });
    await openIntern(second, 'runner-jpeg');
    await second.press('t');
    // The transcript is back, and up recalls the prompt from the profile's history.
    await second.waitFor((s) => s.includes('you › remember the word') && s.includes('pelican'));
    await second.press('up');
    await second.waitFor(/^› remember the word ?$/m);
    // down to its second line, down again past the newest entry: back to the empty prompt.
    await second.press('down', 'down');
    await second.waitFor((s) => !/^› remember the word ?$/m.test(s));
    await second.type('and again');
    await second.press('enter');
    // The same service session: the intern remembers the first turn.
    await second.waitFor('Earlier in this session you said', 20_000);
    await second.waitFor(/Turn 2 of session .*\n\d+ tokens/, 20_000);
    expect(await quit(second)).toBe(0);
  });

  it('lists the conversation and exports it on the command line', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: state, XDG_STATE_HOME: state, TMPDIR: tmpdir(), OPENROUTER_BASE_URL: sandbox().manifest.base_url, OPENROUTER_API_KEY: sandbox().manifest.credentials.api_key! };
    const listed = await run(process.execPath, [CLI, 'chat', 'list', 'runner-jpeg', '--json'], { env });
    const conversations = JSON.parse(listed.stdout) as { id: string; title: string; turns: number; cost: number | null }[];
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ title: 'remember the word pelican', turns: 2 });
    expect(conversations[0]!.cost).toEqual(expect.any(Number));

    const out = join(state, 'export.md');
    await run(process.execPath, [CLI, 'chat', 'export', 'runner-jpeg', '--format', 'md', '-o', out], { env });
    const md = readFileSync(out, 'utf8');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(md).toMatch(/^# remember the word pelican\n/);
    expect(md).toContain('> remember the word\n> pelican');
    expect(md).toContain('Earlier in this session you said');
    const jsonl = await run(process.execPath, [CLI, 'chat', 'export', 'runner-jpeg', '--format', 'jsonl'], { env });
    const types = jsonl.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types[0]).toBe('conversation');
    expect(types.filter((t) => t === 'prompt')).toHaveLength(2);
    // The state folder and its files are the user's alone.
    expect(statSync(join(state, 'intern-tui')).mode & 0o777).toBe(0o700);
  });
});
