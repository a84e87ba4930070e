/** The chat screen: streaming, Markdown, reasoning, permission and question prompts, cancel, steer, retry, copy. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { pasteChunk } from '../../src/tui/keyParse.js';
import type { ChatStart } from '../../src/client/types.js';
import type { ChatChunk, ChatRequest } from '../../src/contract/chat.js';
import { FakeApi, IDS } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => cleanup());

const CTRL = { t: '\x14', o: '\x0f', y: '\x19' };

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk => ({
  id: 'gen-x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A stream that sends `first` and then waits until aborted (or `release` is called). */
function slowChat(api: FakeApi, first: string) {
  let release: () => void = () => undefined;
  const original = api.chat.bind(api);
  let calls = 0;
  api.chat = async (internId: string, body: ChatRequest, opts?: { signal?: AbortSignal }): Promise<ChatStart> => {
    calls++;
    if (calls > 1) return original(internId, body, opts);
    api.calls.push({ method: 'chat', args: [internId, body] });
    async function* events(): AsyncGenerator<ChatChunk> {
      yield chunk({ role: 'assistant', content: first });
      await new Promise<void>((res) => {
        release = res;
        opts?.signal?.addEventListener('abort', () => res());
      });
      if (opts?.signal?.aborted) return;
      yield chunk({ content: ' and done' }, 'stop');
      yield { ...chunk({}), choices: [], session_id: 'sess-slow', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
    }
    return { kind: 'stream', events: events() };
  };
  return { release: () => release() };
}

/** A chat whose first turn is streaming and stays so (slowChat). */
async function longTurn() {
  const api = new FakeApi();
  slowChat(api, 'Working on it');
  const app = await openChat(api);
  await app.type('long job');
  await app.press('enter');
  await app.waitFor('streaming (esc cancels)');
  return { api, app };
}

async function openChat(api = new FakeApi()) {
  const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
  await app.waitFor('Keeps CI green.');
  await app.press('t');
  await app.waitFor('Chat with runner');
  return app;
}

describe('chat', () => {
  it('shows what to type in the empty prompt, behind one prompt marker', async () => {
    const app = await openChat();
    const f = await app.waitFor(/^› {2}a prompt *$/m);
    expect(f).not.toContain('› ›');
    await app.type('h');
    await app.waitFor(/^› h *$/m);
  });

  it('keeps the prompt on a short terminal: the rules go first, the transcript keeps a row, and the footer follows the prompt', async () => {
    const app = await openChat();
    app.resize({ columns: 30, rows: 8 });
    // 8 rows: the header and its rule, the status line, one row of transcript and the prompt, the footer.
    let f = await app.waitFor((s) => /^› {2}a prompt *$/m.test(s) && /^─{30}$/m.test(s.split('\n')[1] ?? ''));
    expect(f.split('\n').length).toBeLessThanOrEqual(7);
    // No rule but the header's.
    expect(f.split('\n').slice(2).filter((line) => /^─+$/.test(line))).toEqual([]);
    app.resize({ columns: 40, rows: 10 });
    f = await app.waitFor((s) => /^─{40}\n› {2}a prompt *\n─{40}$/m.test(s));
    app.resize({ columns: 80, rows: 24 });
    // The chat's keys are the footer's, right under the prompt: no row left blank, no second copy of them.
    f = await app.waitFor(/^─{80}\n› {2}a prompt *\n─{80}\nenter send {2}\^e \$EDITOR {2}\^j new line {2}esc cancel \/ back/m);
    expect(f.split('\n').filter((line) => line.includes('enter send'))).toHaveLength(1);
    await app.type('h');
    await app.waitFor(/^› h *$/m);
  });

  it('streams an answer with Markdown, reasoning dimmed and foldable, tokens and cost, and the session id', async () => {
    const app = await openChat();
    await app.type('hello');
    await app.press('enter');
    const f = await app.waitFor('12 tokens (5 in, 7 out) · $0.000042');
    expect(f).toContain('you › hello');
    expect(f).toContain('Echo: hello');
    expect(f).not.toContain('**Echo**');
    expect(f).toContain('┆ Thinking about it.');
    const [[, sent]] = app.api.callsOf('chat') as [[string, ChatRequest]];
    // The conversation names its session from the first prompt (a UUID of its own).
    expect(sent.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(f).toContain(`session ${sent.session_id!.slice(0, 12)}`);
    await app.press(CTRL.o);
    await app.waitFor('▸ reasoning, 18 chars');
    const [[, body]] = app.api.callsOf('chat') as [[string, ChatRequest]];
    expect(body).toMatchObject({ stream: true, approval_mode: 'manual', messages: [{ role: 'user', content: 'hello' }] });
  });

  it('keeps the session per intern: leaving and coming back continues the conversation', async () => {
    const app = await openChat();
    await app.type('first');
    await app.press('enter');
    await app.waitFor('Echo: first');
    await app.press('esc');
    await app.waitFor('Keeps CI green.');
    await app.press('t');
    await app.waitFor('Echo: first');
    await app.type('second');
    await app.press('enter');
    await app.waitFor('Echo: second');
    const bodies = app.api.callsOf('chat').map((c) => c[1] as ChatRequest);
    expect(bodies[0]!.session_id).toEqual(expect.any(String));
    expect(bodies[1]!.session_id).toBe(bodies[0]!.session_id);
  });

  it('keeps a prompt typed and not sent when the screen is left: it is there on coming back', async () => {
    const app = await openChat();
    await app.type('half a thought');
    await app.waitFor('› half a thought');
    await app.press('esc');
    await app.waitFor('Keeps CI green.');
    await app.press('t');
    await app.waitFor('› half a thought');
    await app.type(' finished');
    await app.press('enter');
    await app.waitFor('Echo: half a thought finished');
    // Sent, it is gone: the next visit starts empty.
    await app.press('esc');
    await app.waitFor('Keeps CI green.');
    await app.press('t');
    await app.waitFor((f) => /^› {2}a prompt *$/m.test(f));
  });

  it('keeps the lines of a pasted text in the prompt (each on a row of its own), and sends them as lines', async () => {
    const app = await openChat();
    await app.press(pasteChunk('alpha\nbeta\ngamma'));
    await app.waitFor((f) => /^› alpha$/m.test(f) && /^ {2}beta$/m.test(f) && /^ {2}gamma$/m.test(f));
    await app.press('enter');
    await app.waitFor('Echo:');
    const body = app.api.callsOf('chat')[0]![1] as ChatRequest;
    expect(body.messages.at(-1)!.content).toBe('alpha\nbeta\ngamma');
  });

  it("manual mode, the default (as the CLI's): a permission request lists numbered options, and a number answers it", async () => {
    const app = await openChat();
    // The header names the keys that change what it says, as the keymap has them.
    expect(await app.waitFor('mode manual')).toContain('mode manual (^t) · reasoning shown (^o)');
    await app.type('run: echo X');
    await app.press('enter');
    const f = await app.waitFor('Permission: shell');
    expect(f).toContain('? asks permission: shell');
    expect(f).not.toContain('provide_input');
    expect(f).toMatch(/1\. Allow once/);
    expect(f).toMatch(/4\. Reject always/);
    await app.press('2');
    const answered = await app.waitFor('You answered: allow_always');
    // The reply sits under its request, before what the intern said after it.
    expect(answered).toMatch(/\? asks permission: shell *\n *→ Allow always *\n(?:.*\n)*.*You answered: allow_always/);
    const last = app.api.callsOf('chat').at(-1)![1] as ChatRequest;
    expect(last.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call-1', content: 'allow_always' });
    expect(last.session_id).toBe((app.api.callsOf('chat')[0]![1] as ChatRequest).session_id);
  });

  it('arrows and enter pick a permission option too', async () => {
    const app = await openChat();
    await app.type('run: ls');
    await app.press('enter');
    await app.waitFor('Permission: shell');
    await app.press('down', 'down', 'enter');
    await app.waitFor('You answered: reject_once');
  });

  it('a question is a form from its fields', async () => {
    const app = await openChat();
    await app.type('ask: Which branch?');
    await app.press('enter');
    await app.waitFor('Question: Which branch?');
    await app.type('main');
    // Every field's value starts in one column, a choice's as a text field's.
    const q = await app.waitFor(/Answer +main/);
    const column = (word: string) => q.split('\n').find((l) => l.includes(word))!.indexOf(word);
    expect(column('[yes]')).toBe(column('main'));
    await app.press('tab');
    await app.press('space');
    await app.waitFor('[no]');
    await app.press('ctrl+s');
    const answered = await app.waitFor('You answered: {"action":"accept","content":{"answer":"main","sure":"no"}}');
    expect(answered).toMatch(/\? asks: Which branch\? *\n *→ answered 2 fields *\n(?:.*\n)*.*You answered: \{/);
  });

  it('a question keeps its height: its error takes its hint\'s line, and no row is left blank above the footer', async () => {
    const app = await openChat();
    app.resize({ columns: 100, rows: 30 });
    await app.type('ask: Which branch?');
    await app.press('enter');
    let f = await app.waitFor('tab next · enter on the last field or ^s answers');
    // The prompt's rule sits right on the footer (the question's rows were counted one too many once).
    expect(f).toMatch(/^─{100}\ntab fields {2}\^s answer {2}\^d decline/m);
    await app.press('ctrl+s');
    f = await app.waitFor(/✖ .* is required/);
    expect(f).not.toContain('tab next · enter on the last field');
    expect(f).toMatch(/^─{100}\ntab fields {2}\^s answer {2}\^d decline/m);
    await app.type('main');
    await app.waitFor('tab next · enter on the last field or ^s answers');
  });

  it('enter on the last field of a question answers it, though that field is a choice', async () => {
    const app = await openChat();
    await app.type('ask: Which branch?');
    await app.press('enter');
    await app.waitFor('Question: Which branch?');
    await app.type('dev');
    await app.press('enter'); // on to the choice
    await app.waitFor('› sure');
    await app.press('right');
    await app.waitFor('[no]');
    await app.press('enter');
    await app.waitFor('You answered: {"action":"accept","content":{"answer":"dev","sure":"no"}}');
  });

  it('esc cancels a running turn, and sending while it runs steers it', async () => {
    const { api, app } = await longTurn();
    api.steerNext = true;
    await app.type('also do Y');
    await app.press('enter');
    await app.waitFor('↪ steered: also do Y');
    const [first, steer] = api.callsOf('chat').map((c) => c[1] as ChatRequest);
    expect(api.callsOf('chat')).toHaveLength(2);
    // The steer names the running turn's session, though its stream has not said it yet.
    expect(steer!.session_id).toBe(first!.session_id);
    await app.press('esc');
    const f = await app.waitFor('(cancelled)');
    expect(f).toContain('Working on it');
    expect(f).toContain('Chat with runner');
  });

  it('a steer the service refuses is not shown as sent, and its text goes back into the field', async () => {
    const { api, app } = await longTurn();
    api.chat = () => Promise.reject(new ApiError(409, 409, 'busy', true, 'runner is working on another turn', 'POST /interns/{internId}/chat/completions'));
    await app.type('and more');
    await app.press('enter');
    const f = await app.waitFor('steering failed (your text is back in the field)');
    expect(f).not.toContain('↪ steered');
    expect(f).toContain('and more');
  });

  it('a prompt the service refuses goes back into the field, and one over the limit is not sent at all', async () => {
    const api = new FakeApi();
    api.interns.find((i) => i.id === IDS.runner)!.status = 'stopped';
    const app = await openChat(api);
    await app.type('hello there');
    await app.press('enter');
    let f = await app.waitFor('not sent (your text is back in the field)');
    expect(f).toMatch(/^› +hello there/m);
    expect(f).toContain('The intern is stopped');
    // Not in the transcript (it was never sent), no session named for it, and the advice fits a stopped intern.
    expect(f).not.toMatch(/you › hello there/);
    expect(f).not.toContain('· session ');
    expect(f).toContain('runner is stopped: a prompt needs it running (p provisions it on the details screen).');
    await app.press('\x15'); // ctrl+u
    await app.waitFor(/^› +a prompt/m);
    // One on its way is not told to provision (p does nothing for it).
    api.interns.find((i) => i.id === IDS.runner)!.status = 'provisioning';
    cleanup();
    const starting = await openChat(api);
    await starting.waitFor('runner is provisioning: a prompt needs it running (it is on its way: wait until it runs).');
    // Read again while it starts: once it runs, the screen invites a prompt.
    api.interns.find((i) => i.id === IDS.runner)!.status = 'running';
    await starting.waitFor('Type a prompt and press');
    cleanup();
    api.interns.find((i) => i.id === IDS.runner)!.status = 'stopped';
    const again = await openChat(api);
    await again.waitFor('Chat with runner');
    await again.press(pasteChunk('x'.repeat(32_001)));
    // Wrapped, and scrolled to the cursor at its end.
    await again.waitFor(/^ {2}x+ ?$/m);
    await again.press('enter');
    f = await again.waitFor('the prompt is 32001 characters; the service takes at most 32000: nothing was sent');
    expect(api.callsOf('chat')).toHaveLength(1);
    expect(f).not.toMatch(/^› +a prompt/m);
  });

  it('scrolled back, the transcript keeps its place while a turn streams, and says it is scrolled at 80 columns', async () => {
    const api = new FakeApi();
    const queue: string[] = [];
    let wake: () => void = () => undefined;
    api.chat = async (internId: string, body: ChatRequest): Promise<ChatStart> => {
      api.calls.push({ method: 'chat', args: [internId, body] });
      async function* events(): AsyncGenerator<ChatChunk> {
        yield chunk({ role: 'assistant', content: '' });
        for (;;) {
          while (queue.length === 0) await new Promise<void>((res) => (wake = res));
          const next = queue.shift()!;
          if (next === 'END') break;
          yield chunk({ content: next });
        }
        yield chunk({}, 'stop');
      }
      return { kind: 'stream', events: events() };
    };
    const push = (text: string) => {
      queue.push(text);
      wake();
    };
    const app = await openChat(api);
    app.resize({ columns: 80, rows: 24 });
    await app.type('count');
    await app.press('enter');
    push(Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n\n') + '\n\n');
    await app.waitFor('line 40');
    await app.press('pageup');
    const before = await app.waitFor(/scrolled \d+ up \(pgdn\)/);
    const firstLine = (f: string) => f.split('\n').find((l) => /line \d+/.test(l));
    const topLine = firstLine(before);
    push(Array.from({ length: 10 }, (_, i) => `more ${i + 1}`).join('\n\n'));
    await app.waitFor((f) => /scrolled \d+ up/.test(f) && Number(/scrolled (\d+) up/.exec(f)![1]) > Number(/scrolled (\d+) up/.exec(before)![1]));
    expect(firstLine(app.frame())).toBe(topLine);
    push('END');
  });

  it('a turn whose stream broke stays marked in the transcript after the next prompt', async () => {
    const api = new FakeApi();
    const original = api.chat.bind(api);
    let calls = 0;
    api.chat = async (internId: string, body: ChatRequest, opts?: { signal?: AbortSignal }): Promise<ChatStart> => {
      if (++calls > 1) return original(internId, body, opts);
      async function* events(): AsyncGenerator<ChatChunk> {
        yield chunk({ role: 'assistant', content: 'first part' });
        throw new ApiError(502, 502, 'stream_severed', true, 'the connection was lost', 'POST /interns/{internId}/chat/completions');
      }
      return { kind: 'stream', events: events() };
    };
    const app = await openChat(api);
    await app.type('go');
    await app.press('enter');
    await app.waitFor('first part');
    await app.type('again');
    await app.press('enter');
    // The second turn answered (the fake echoes it), the first still marked above it.
    await app.waitFor((s) => s.includes('first part') && s.includes('did not finish: the answer above may be incomplete') && s.includes('Echo') && !s.includes('streaming'));
  });

  it('a steer that became a turn of its own and whose stream broke fails that turn, without ending the TUI', async () => {
    const { api, app } = await longTurn();
    api.chat = async (): Promise<ChatStart> => ({
      kind: 'stream',
      events: (async function* () {
        yield chunk({ role: 'assistant', content: 'steered part' });
        throw new ApiError(502, 502, 'stream_severed', true, 'nothing came for 90 s', 'POST /interns/{internId}/chat/completions');
      })(),
    });
    await app.type('and also this');
    await app.press('enter');
    await app.waitFor((s) => s.includes('steered part') && s.includes('did not finish: the answer above may be incomplete'));
  });

  it('a steer that became a turn of its own is cancelled by esc like any running turn', async () => {
    const { api, app } = await longTurn();
    let aborted = false;
    api.chat = async (_id: string, _body: ChatRequest, opts?: { signal?: AbortSignal }): Promise<ChatStart> => ({
      kind: 'stream',
      events: (async function* () {
        yield chunk({ role: 'assistant', content: 'own turn part' });
        await new Promise<void>((res) => opts?.signal?.addEventListener('abort', () => res()));
        aborted = true;
      })(),
    });
    await app.type('and also this');
    await app.press('enter');
    await app.waitFor('own turn part');
    await app.press('esc');
    await app.waitFor(/own turn part\n\(cancelled\)/);
    await expect.poll(() => aborted).toBe(true);
  });

  it('asked to wait longer than the client waits (an hour), says so and gives the prompt back instead of hanging', async () => {
    const api = new FakeApi();
    api.chat = () => Promise.reject(Object.assign(new ApiError(429, 429, 'rate_limited', true, 'Rate limited; try again in 3600 s', 'POST /interns/{internId}/chat/completions'), { retryAfterMs: 3_600_000 }));
    const app = await openChat(api);
    await app.type('hello');
    await app.press('enter');
    const f = await app.waitFor((s) => s.includes('Rate limited') && /^› {1,2}hello/m.test(s));
    expect(f).toContain('try again in 3600 s');
    expect(f).not.toMatch(/retrying in/i);
    // Nothing reached the service: no partial answer to warn of.
    expect(f).not.toContain('did not finish');
  });

  it('busy counts down its Retry-After and retries by itself', async () => {
    const api = new FakeApi();
    const original = api.chat.bind(api);
    let calls = 0;
    api.chat = async (...args: Parameters<FakeApi['chat']>) => {
      if (++calls === 1) {
        const e = new ApiError(409, 409, 'busy', true, 'The intern is busy', 'POST /interns/{internId}/chat/completions');
        e.retryAfterMs = 1200;
        throw e;
      }
      return original(...args);
    };
    const app = await openChat(api);
    await app.type('hi');
    await app.press('enter');
    await app.waitFor(/busy: retrying in [12]s/);
    await app.waitFor('Echo: hi', 5000);
    expect(calls).toBe(2);
  });

  it('sanitises every streamed string and copies the last answer with OSC 52', async () => {
    const api = new FakeApi();
    api.chat = async () => ({
      kind: 'stream',
      events: (async function* () {
        yield chunk({ role: 'assistant', reasoning: 'plan\x1b]0;pwned\x07' });
        yield chunk({ content: 'safe \x1b[31mred\x1b' });
        yield chunk({ content: '[0m text\u202e' }, 'stop');
      })(),
    });
    const app = await openChat(api);
    await app.type('x');
    await app.press('enter');
    const f = await app.waitFor('safe red text');
    expect(f).not.toContain('pwned\x07');
    expect(f).not.toContain('\u202e');
    expect(f).not.toContain('\x1b]0;');
    await app.press(CTRL.y);
    await app.waitFor('copied the last answer');
    const copied = app.frames.find((fr) => fr.includes('\x1b]52;c;'));
    expect(copied).toBeDefined();
    const b64 = /\x1b\]52;c;([A-Za-z0-9+/=]+)\x07/.exec(copied!)![1]!;
    expect(Buffer.from(b64, 'base64').toString()).toBe('safe red text');
  });

  it(':chat NAME opens the chat from the palette', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press(':');
    await app.type('chat runner');
    await app.press('enter');
    await app.waitFor('Chat with runner');
  });
});
