/** The state folder's stores: prompt history and saved conversations (permissions, corrupt files, the cap, two writers), and their export. */
import { fork } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateDir } from '../../../src/cli/settings.js';
import { ConversationStore, CONVERSATION_ID, readConversation, sessionsDir, type SavedTurn } from '../../../src/tui/state/conversations.js';
import { toJsonl, toMarkdown } from '../../../src/tui/state/exportConversation.js';
import { fileHistory, historyPath, HISTORY_MAX } from '../../../src/tui/state/history.js';

const root = () => mkdtempSync(join(tmpdir(), 'intern-tui-state-'));
const mode = (p: string) => statSync(p).mode & 0o777;

describe('stateDir', () => {
  it('is $XDG_STATE_HOME/intern-tui, else ~/.local/state/intern-tui, and none without either', () => {
    expect(stateDir({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe('/s/intern-tui');
    expect(stateDir({ XDG_STATE_HOME: 'relative', HOME: '/h' })).toBe('/h/.local/state/intern-tui');
    expect(stateDir({ HOME: '/h' })).toBe('/h/.local/state/intern-tui');
    expect(stateDir({})).toBeNull();
  });
});

describe('prompt history', () => {
  it('is one file a profile, 0600 in 0700 folders, newest last, without a repeat of the newest', () => {
    const dir = root();
    const path = historyPath(join(dir, 'intern-tui'), 'work');
    const h = fileHistory(path);
    h.add('first');
    h.add('first');
    h.add('second\nline two');
    h.add('   ');
    h.add('first');
    expect(h.entries()).toEqual(['first', 'second\nline two', 'first']);
    expect(mode(path)).toBe(0o600);
    expect(mode(join(dir, 'intern-tui', 'history'))).toBe(0o700);
    expect(mode(join(dir, 'intern-tui'))).toBe(0o700);
    expect(fileHistory(path).entries()).toEqual(['first', 'second\nline two', 'first']);
    expect(historyPath('/s', null)).not.toBe(historyPath('/s', 'no-profile'));
    expect(historyPath('/s', '../x')).toBe('/s/history/profile-..%2Fx.jsonl');
  });

  it('narrows a state folder others could read to 0700', () => {
    const dir = root();
    mkdirSync(join(dir, 'history'), { mode: 0o755 });
    chmodSync(join(dir, 'history'), 0o755);
    fileHistory(historyPath(dir, null)).add('x');
    expect(mode(join(dir, 'history'))).toBe(0o700);
  });

  it('skips lines that are not prompts and says so once, in one line', () => {
    const path = join(root(), 'h.jsonl');
    writeFileSync(path, '"one"\n{"not":"a string"}\nnot json\n"two"\n');
    const h = fileHistory(path);
    expect(h.entries()).toEqual(['one', 'two']);
    const problem = h.takeProblem();
    expect(problem).toMatch(/2 unreadable lines skipped/);
    expect(problem).not.toContain('\n');
    expect(h.takeProblem()).toBeNull();
  });

  it('reports a history it cannot read, and goes on without it', () => {
    const dir = join(root(), 'h.jsonl');
    mkdirSync(dir);
    const h = fileHistory(dir);
    expect(h.entries()).toEqual([]);
    expect(h.takeProblem()).toMatch(/not a regular file/);
  });

  it('keeps at most its cap, rewriting the file once it holds twice as many', () => {
    const path = join(root(), 'h.jsonl');
    const h = fileHistory(path, 5);
    for (let i = 0; i < 12; i++) h.add(`p${i}`);
    expect(h.entries()).toEqual(['p7', 'p8', 'p9', 'p10', 'p11']);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(10);
    expect(fileHistory(path, 5).entries()).toEqual(['p7', 'p8', 'p9', 'p10', 'p11']);
    expect(HISTORY_MAX).toBe(1000);
  });

  it('two processes appending at once leave every prompt whole', async () => {
    const path = join(root(), 'h.jsonl');
    const script = join(root(), 'writer.mjs');
    const historyModule = new URL('../../../src/tui/state/history.ts', import.meta.url).href;
    writeFileSync(script, `const { fileHistory } = await import(${JSON.stringify(historyModule)});\nconst h = fileHistory(process.argv[2], 100000);\nfor (let i = 0; i < 300; i++) h.add(process.argv[3] + i + 'x'.repeat(3000));\n`);
    const run = (tag: string) =>
      new Promise<number>((resolve) => fork(script, [path, tag], { execArgv: ['--import', 'tsx'], stdio: 'ignore' }).on('exit', (c) => resolve(c ?? 1)));
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const h = fileHistory(path, 100000);
    expect(h.entries()).toHaveLength(600);
    expect(h.takeProblem()).toBeNull();
  });
});

const turn = (over: Partial<SavedTurn> = {}): SavedTurn => ({
  id: 't1',
  at: Date.parse('2026-11-28T12:00:00Z'),
  prompt: 'hello there',
  answer: 'You said hello',
  tools: [],
  notes: [],
  replies: [],
  status: 'done',
  ...over,
});

describe('conversation store', () => {
  const place = { profile: 'work', host: '127.0.0.1:4000' };
  const intern = { id: 'int_1', name: 'runner' };

  it('saves a conversation as it goes (0600 in 0700 folders) and reads it back with its title, turns, cost and session', () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const log = store.start(intern, new Date('2026-11-28T12:00:00Z'));
    expect(log.id).toMatch(CONVERSATION_ID);
    expect(store.list(intern.id).conversations).toEqual([]); // nothing written yet
    log.setSession('sess_1');
    log.saveTurn(turn({ status: 'running', answer: '' }));
    log.saveTurn(turn({ usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.5 } }));
    log.saveTurn(turn({ id: 't2', at: Date.parse('2026-11-28T12:05:00Z'), prompt: 'again', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.25 } }));
    const { conversations, problems } = store.list(intern.id);
    expect(problems).toEqual([]);
    expect(conversations).toHaveLength(1);
    const c = conversations[0]!;
    expect(c).toMatchObject({ id: log.id, title: 'hello there', turns: 2, cost: 0.75, sessionId: 'sess_1', profile: 'work', host: '127.0.0.1:4000', intern });
    expect(c.turnList.map((t) => [t.prompt, t.answer])).toEqual([['hello there', 'You said hello'], ['again', 'You said hello']]);
    expect(c.updated).toBe(Date.parse('2026-11-28T12:05:00Z'));
    expect(mode(log.path)).toBe(0o600);
    expect(mode(join(log.path, '..'))).toBe(0o700);
    expect(mode(sessionsDir(dir))).toBe(0o700);

    store.continue(c).rename('Renamed\nconversation');
    expect(store.list(intern.id).conversations[0]!.title).toBe('Renamed conversation');
    expect(store.find(intern.id, log.id.slice(0, 10))).toMatchObject({ conversation: { id: log.id } });
    expect(store.find(intern.id, 'nope')).toMatchObject({ problem: expect.stringMatching(/no saved conversation/) });
    store.remove(intern.id, log.id);
    expect(store.list(intern.id).conversations).toEqual([]);
  });

  it('lists the most recently used first, and keeps hosts apart', () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const a = store.start(intern, new Date('2026-11-28T10:00:00Z'));
    a.saveTurn(turn({ at: Date.parse('2026-11-28T13:00:00Z') }));
    const b = store.start(intern, new Date('2026-11-28T11:00:00Z'));
    b.saveTurn(turn({ at: Date.parse('2026-11-28T11:00:00Z') }));
    expect(store.list(intern.id).conversations.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(new ConversationStore(sessionsDir(dir), { ...place, host: 'elsewhere' }).list(intern.id).conversations).toEqual([]);
  });

  it('sanitises what it writes and what it reads', () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const log = store.start({ id: 'int_1', name: 'run\u001b]52;c;AAAA\u0007ner' });
    log.saveTurn(turn({ prompt: 'hi\u001b[31m red', answer: 'a\u009b31m b\tc' }));
    const raw = readFileSync(log.path, 'utf8');
    expect(raw).not.toMatch(/\\u001b|\\u009b|\u009b/);
    // A file edited to hold an escape is cleaned on reading.
    appendFileSync(log.path, JSON.stringify({ type: 'title', title: 'evil\u001b[2J', at: 1 }) + '\n');
    const c = store.list('int_1').conversations[0]!;
    expect(c.title).toBe('evil');
    expect(c.intern.name).toBe('runner');
    expect(c.turnList[0]!.answer).toBe('a b\tc');
  });

  it('skips a corrupt line and a foreign file, each said in one line, and never throws', () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const log = store.start(intern);
    log.saveTurn(turn());
    appendFileSync(log.path, '{"type":"turn","id":"broken"\nnot json at all\n');
    log.saveTurn(turn({ id: 't2', prompt: 'after the damage' }));
    const folder = join(log.path, '..');
    writeFileSync(join(folder, 'notes.txt'), 'mine');
    writeFileSync(join(folder, '20260101-000000-abcd.jsonl'), '{"type":"turn"}\n');
    const { conversations, problems } = store.list(intern.id);
    expect(conversations.map((c) => c.turns)).toEqual([2]);
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.includes(log.id))).toMatch(/2 unreadable lines skipped/);
    expect(problems.find((p) => p.includes('notes.txt'))).toMatch(/not a conversation file/);
    expect(problems.find((p) => p.includes('20260101'))).toMatch(/no start line/);
    for (const p of problems) expect(p).not.toContain('\n');
  });

  it('two writers of one conversation lose nothing, and a deleted one is not written again', async () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const first = store.start(intern);
    first.saveTurn(turn());
    const saved = store.list(intern.id).conversations[0]!;
    const script = join(root(), 'writer.mjs');
    const mod = new URL('../../../src/tui/state/conversations.ts', import.meta.url).href;
    writeFileSync(
      script,
      `const { ConversationStore } = await import(${JSON.stringify(mod)});\nconst [dir, tag] = process.argv.slice(2);\nconst store = new ConversationStore(dir, ${JSON.stringify(place)});\nconst log = store.continue(store.list('int_1').conversations[0]);\nfor (let i = 0; i < 200; i++) log.saveTurn({ id: tag + i, at: Date.now(), prompt: tag + i, answer: 'y'.repeat(5000), tools: [], notes: [], replies: [], status: 'done' });\nif (log.takeProblem()) process.exit(3);\n`,
    );
    const run = (tag: string) =>
      new Promise<number>((resolve) => fork(script, [sessionsDir(dir), tag], { execArgv: ['--import', 'tsx'], stdio: 'ignore' }).on('exit', (c) => resolve(c ?? 1)));
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const read = readConversation(first.path);
    expect(read.problem).toBeUndefined();
    expect(read.conversation!.turns).toBe(401);

    const other = store.continue(saved);
    store.remove(intern.id, saved.id);
    other.saveTurn(turn({ id: 'late' }));
    expect(other.takeProblem()).toMatch(/deleted/);
    expect(readdirSync(join(first.path, '..'))).toEqual([]);
  });

  it('exports Markdown whose fences its text cannot close, and JSON Lines one event a line', () => {
    const dir = root();
    const store = new ConversationStore(sessionsDir(dir), place);
    const log = store.start(intern, new Date('2026-11-28T12:00:00Z'));
    log.setSession('sess_9');
    log.saveTurn(turn({ prompt: '# not a heading\n```', tools: [{ name: 'shell', args: '{"cmd":"echo ```"}' }], replies: ['→ Allow once'], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.001 } }));
    const c = store.list(intern.id).conversations[0]!;
    const md = toMarkdown(c);
    expect(md).toMatch(/^# hello|^# # not a heading|^# \\# not a heading/);
    expect(md).toContain('> # not a heading\n> ```');
    expect(md).toContain('````json\n{"cmd":"echo ```"}\n````');
    expect(md).toContain('service session `sess_9`');
    expect(md).toContain('$0.001000');
    const events = toJsonl(c).trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events.map((e) => e.type)).toEqual(['conversation', 'prompt', 'tool_call', 'reply', 'answer', 'end']);
    expect(events[0]).toMatchObject({ id: c.id, session_id: 'sess_9', turns: 1, cost: 0.001 });
  });
});

describe('savedText', () => {
  it('keeps at most SAVED_TEXT_MAX characters of a text, says the rest was not saved, and adds nothing after', async () => {
    const { savedText, SAVED_TEXT_MAX, NOT_SAVED } = await import('../../../src/tui/state/conversations.js');
    expect(savedText('ab', 'cd')).toBe('abcd');
    const full = savedText('x'.repeat(SAVED_TEXT_MAX - 1), 'yz');
    expect(full).toBe('x'.repeat(SAVED_TEXT_MAX - 1) + 'y' + NOT_SAVED);
    expect(savedText(full, 'more')).toBe(full);
    expect(savedText('z'.repeat(SAVED_TEXT_MAX * 2))).toHaveLength(SAVED_TEXT_MAX + NOT_SAVED.length);
  });
});
