/** Chat and invoke through the project's client against a live sandbox and its local agent. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ApiError } from '../../src/client/errors.js';
import type { ChatStart, InternApi } from '../../src/client/types.js';
import { type ChatChunk, type ChatRequest, answerMessages, elicitationAnswer, parseProvideInput } from '../../src/contract/chat.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { clientAs, raw, sandbox, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox;
let api: InternApi;
const logLines: string[] = [];
beforeAll(async () => {
  sb = await sandbox({
    seed: 'empty',
    daemonCommand: 'exec /bin/sh',
    agent: { paceMs: 1, keepaliveMs: 40, interactionWaitMs: 20_000, commandTimeoutMs: 8000 },
    log: (l) => logLines.push(l),
  });
  api = clientAs(sb, { api_key: 'api_key' });
});
afterAll(() => sb.close());

const running = () => sb.manifest.interns.running!;
const apiError = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};
const prompt = (text: string, over: Partial<ChatRequest> = {}): ChatRequest => ({ messages: [{ role: 'user', content: text }], stream: true, ...over });

interface Turn {
  chunks: ChatChunk[];
  content: string;
  reasoning: string;
  finish: string | null;
  final: ChatChunk;
  toolCall?: { id: string; function: { name: string; arguments: string } };
}
async function turn(start: ChatStart | Promise<ChatStart>): Promise<Turn> {
  const s = await start;
  if (s.kind !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(s)}`);
  const chunks: ChatChunk[] = [];
  for await (const c of s.events) chunks.push(c);
  const choices = chunks.flatMap((c) => c.choices);
  return {
    chunks,
    content: choices.map((c) => c.delta.content ?? '').join(''),
    reasoning: choices.map((c) => c.delta.reasoning ?? '').join(''),
    finish: choices.map((c) => c.finish_reason).filter(Boolean).at(-1) ?? null,
    final: chunks.at(-1)!,
    toolCall: choices.flatMap((c) => c.delta.tool_calls ?? [])[0],
  };
}

describe('a turn', () => {
  it('streams a short reasoning delta, then the answer word by word, then the session and usage; and remembers', async () => {
    const t = await turn(api.chat(running(), prompt('hello there')));
    expect(t.chunks[0]!.choices[0]!.delta).toMatchObject({ role: 'assistant', reasoning: expect.any(String) });
    expect(t.reasoning.length).toBeGreaterThan(0);
    expect(t.chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(10);
    expect(t.content).toContain('You said: "hello there"');
    expect(t.finish).toBe('stop');
    expect(t.final.choices).toEqual([]);
    expect(t.final.session_id).toMatch(/^sess_/);
    expect(t.final.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), cost: expect.any(Number) });
    expect(t.final.usage!.total_tokens).toBe(t.final.usage!.prompt_tokens + t.final.usage!.completion_tokens);
    expect(t.chunks.every((c) => c.model === 'anthropic/claude-sonnet-4')).toBe(true);

    const again = await turn(api.chat(running(), prompt('and again', { session_id: t.final.session_id! })));
    expect(again.content).toContain('Earlier in this session you said: "hello there"');
    expect(again.final.session_id).toBe(t.final.session_id);
  });

  it('run: types the command into the intern’s own terminal and streams its output', async () => {
    const t = await turn(api.chat(running(), prompt('run: echo X-$((40+2)); echo to-stderr >&2')));
    expect(t.content).toContain('X-42');
    expect(t.content).toContain('to-stderr');
    expect(t.content).not.toContain('__intern_');
    expect(t.content).toMatch(/Exit status 0\./);
    const failing = await turn(api.chat(running(), prompt('run: exit_code_test() { return 3; }; exit_code_test')));
    expect(failing.content).toMatch(/Exit status 3\./);
  });

  it('a model change waits for the next provision, for an intern running on the workspace default too', async () => {
    const peer = sb.manifest.interns.peer!;
    const model = async () => (await turn(api.chat(peer, prompt('hi')))).chunks[0]!.model;
    const before = await model();
    await api.updateIntern(peer, { model: 'openai/gpt-4o' });
    expect(await model()).toBe(before);
    await api.updateIntern(peer, { model: null });
    expect(await model()).toBe(before);
  });

  it('run: a short line is streamed as it is printed, not held back for the next', async () => {
    // The words are built by the shell (the command's own text, quoted in the answer, holds neither).
    const s = await api.chat(running(), prompt('run: echo early-$((1+1)); sleep 1.5; echo late-$((2+2))'));
    if (s.kind !== 'stream') throw new Error('expected a stream');
    let content = '';
    let lateWhenEarly: boolean | undefined;
    for await (const c of s.events) {
      content += c.choices.map((ch) => ch.delta.content ?? '').join('');
      if (lateWhenEarly === undefined && content.includes('early-2')) lateWhenEarly = content.includes('late-4');
    }
    expect(lateWhenEarly).toBe(false);
    expect(content).toContain('late-4');
    expect(content).not.toContain('__intern_');
  });

  it('run: a command with a comment still ends (the end marker is not swallowed by it)', async () => {
    const started = Date.now();
    const t = await turn(api.chat(running(), prompt("run: echo 'it''s' commented # a comment")));
    expect(t.content).toContain("its commented");
    expect(t.content).toMatch(/Exit status 0\./);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('run: a large output with nobody attached runs to its end (cut at 64 KiB), and the terminal does not stall', async () => {
    // More than the daemon's replay buffer: the agent reading it must let the terminal go on.
    const t = await turn(api.chat(running(), prompt('run: head -c 3000000 /dev/zero | tr "\\0" a; echo')));
    expect(t.content).toContain('Output cut at 64 KiB. Exit status 0.');
    const started = Date.now();
    const after = await turn(api.chat(running(), prompt('run: echo after-flood')));
    expect(after.content).toContain('after-flood');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('fail: ends the turn with an in-stream error carrying its reason', async () => {
    const t = await turn(api.chat(running(), prompt('fail: stream_severed')));
    expect(t.finish).toBe('error');
    const err = t.chunks.find((c) => c.error)!.error!;
    expect(err.metadata).toEqual({ reason: 'stream_severed', retryable: true });
  });
});

describe('interactions', () => {
  it('manual mode asks permission; allow once runs it, reject once does not, allow always stops asking', async () => {
    const ask = await turn(api.chat(running(), prompt('run: echo ALLOWED-ONE', { approval_mode: 'manual' })));
    expect(ask.finish).toBe('tool_calls');
    expect(ask.final.usage).toBeNull();
    const sid = ask.final.session_id!;
    const req = parseProvideInput(ask.toolCall!);
    // The permission names the tool and carries the command in full (this sandbox's `input`, kept by the loose schema).
    expect(req).toEqual({ kind: 'permission', operation: 'shell', input: { command: 'echo ALLOWED-ONE' }, options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'] });
    // What it would run is said before it too, as a model would.
    expect(ask.reasoning).toContain('`echo ALLOWED-ONE`');

    const allowed = await turn(api.chat(running(), { messages: answerMessages(ask.toolCall!, 'allow_once'), stream: true, session_id: sid }));
    expect(allowed.content).toContain('ALLOWED-ONE');
    expect(allowed.finish).toBe('stop');

    const ask2 = await turn(api.chat(running(), prompt('run: echo NEVER-RUN', { approval_mode: 'manual', session_id: sid })));
    const rejected = await turn(api.chat(running(), { messages: answerMessages(ask2.toolCall!, 'reject_once'), stream: true, session_id: sid }));
    expect(rejected.content).toContain('You rejected it');
    expect(rejected.content).not.toContain('NEVER-RUN\n');

    const ask3 = await turn(api.chat(running(), prompt('run: echo FIRST-ALWAYS', { approval_mode: 'manual', session_id: sid })));
    await turn(api.chat(running(), { messages: answerMessages(ask3.toolCall!, 'allow_always'), stream: true, session_id: sid }));
    const direct = await turn(api.chat(running(), prompt('run: echo NO-QUESTION', { approval_mode: 'manual', session_id: sid })));
    expect(direct.toolCall).toBeUndefined();
    expect(direct.content).toContain('NO-QUESTION');
  });

  it('ask: asks a question with a text and a choice field, and uses the answer', async () => {
    const ask = await turn(api.chat(running(), prompt('ask: What is the release name?')));
    const q = parseProvideInput(ask.toolCall!);
    expect(q).toMatchObject({ kind: 'elicitation', message: 'What is the release name?' });
    const fields = (q as { fields: { name: string; type: string; options?: string[] }[] }).fields;
    expect(fields.map((f) => f.type)).toEqual(['text', 'choice']);
    expect(fields[1]!.options!.length).toBeGreaterThanOrEqual(2);
    const answer = elicitationAnswer({ action: 'accept', content: { answer: 'Bluebird', confidence: 'sure' } });
    const done = await turn(api.chat(running(), { messages: answerMessages(ask.toolCall!, answer), stream: true, session_id: ask.final.session_id! }));
    expect(done.content).toContain('You answered "Bluebird" (sure)');

    const ask2 = await turn(api.chat(running(), prompt('ask: Again?', { session_id: ask.final.session_id! })));
    const declined = await turn(api.chat(running(), { messages: answerMessages(ask2.toolCall!, elicitationAnswer({ action: 'decline' })), stream: true, session_id: ask.final.session_id! }));
    expect(declined.content).toContain('declined');
  });

  it('refuses with 400 bad_request an answer the interaction did not offer, and keeps it waiting for a valid one', async () => {
    const answer = (call: NonNullable<Turn['toolCall']>, content: string, sid: string) => api.chat(running(), { messages: answerMessages(call, content), stream: true, session_id: sid });
    const ask = await turn(api.chat(running(), prompt('run: echo AFTER-A-TYPO', { approval_mode: 'manual' })));
    const sid = ask.final.session_id!;
    for (const typo of ['alow_once', 'yes', '', '{"action":"accept"}']) {
      const e = await apiError(answer(ask.toolCall!, typo, sid));
      expect([e.status, e.reason], typo).toEqual([400, 'bad_request']);
      expect(e.message).toContain('allow_once, allow_always, reject_once, reject_always');
    }
    // Still pending: the typo was not taken as a rejection.
    const allowed = await turn(answer(ask.toolCall!, 'allow_once', sid));
    expect(allowed.content).toContain('AFTER-A-TYPO');

    const q = await turn(api.chat(running(), prompt('ask: Which release?', { session_id: sid })));
    const refused: [string, RegExp][] = [
      ['Bluebird', /must be JSON/],
      ['"accept"', /action/],
      ['{"action":"maybe"}', /action/],
      [elicitationAnswer({ action: 'accept', content: { answer: 'Bluebird', confidence: 'certain' } }), /confidence: "certain" is not one of the offered options \(sure, fairly sure, guessing\)/],
      [elicitationAnswer({ action: 'accept', content: { answer: 'Bluebird', confidence: 1 } }), /confidence: 1 is not one of the offered options/],
    ];
    for (const [content, message] of refused) {
      const e = await apiError(answer(q.toolCall!, content, sid));
      expect([e.status, e.reason], content).toEqual([400, 'bad_request']);
      expect(e.message, content).toMatch(message);
    }
    const done = await turn(answer(q.toolCall!, elicitationAnswer({ action: 'accept', content: { answer: 'Bluebird', confidence: 'fairly sure' } }), sid));
    expect(done.content).toContain('You answered "Bluebird" (fairly sure)');
    // Answered, it is no longer pending.
    expect((await apiError(answer(q.toolCall!, elicitationAnswer({ action: 'cancel' }), sid))).reason).toBe('interaction_not_pending');
  });

  it('refuses an answer nobody asked for, and an unknown interaction', async () => {
    const t = await turn(api.chat(running(), prompt('hi')));
    const sid = t.final.session_id!;
    const fake = { id: 'call_nope', function: { name: 'openrouter.provide_input', arguments: '{}' } };
    const e1 = await apiError(api.chat(running(), { messages: answerMessages(fake, 'allow_once'), stream: true, session_id: sid }));
    expect([e1.status, e1.reason]).toEqual([409, 'interaction_not_pending']);
    const ask = await turn(api.chat(running(), prompt('ask: ok?', { session_id: sid })));
    const e2 = await apiError(api.chat(running(), { messages: answerMessages(fake, 'allow_once'), stream: true, session_id: sid }));
    expect([e2.status, e2.reason]).toEqual([404, 'interaction_unknown']);
    const e3 = await apiError(api.chat(running(), { messages: answerMessages(fake, 'allow_once'), stream: true }));
    expect([e3.status, e3.reason]).toEqual([400, 'bad_request']);
    await turn(api.chat(running(), { messages: answerMessages(ask.toolCall!, elicitationAnswer({ action: 'cancel' })), stream: true, session_id: sid }));
  });
});

describe('running turns', () => {
  it('a second prompt while the turn runs is steered (202); a prompt on another session meanwhile is busy (409, Retry-After)', async () => {
    const slow = await api.chat(running(), prompt('run: sleep 0.6; echo SLOW-DONE'));
    expect(slow.kind).toBe('stream');
    const events = (slow as { events: AsyncIterable<ChatChunk> }).events[Symbol.asyncIterator]();
    const first = (await events.next()).value as ChatChunk;
    expect(first.choices[0]!.delta.reasoning).toBeTruthy();
    // The session id comes in the final chunk; the test reads the agent's own session by trying a steer
    // on a fresh session first, which must be busy.
    const busy = await apiError(api.chat(running(), prompt('hello from elsewhere')));
    expect([busy.status, busy.reason, busy.retryable, busy.retryAfterMs]).toEqual([409, 'busy', true, 2000]);
    const rest: ChatChunk[] = [];
    for (let r = await events.next(); !r.done; r = await events.next()) rest.push(r.value);
    expect(rest.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain('SLOW-DONE');
    const sid = rest.at(-1)!.session_id!;

    const again = await api.chat(running(), prompt('run: sleep 0.6; echo SECOND', { session_id: sid }));
    if (again.kind !== 'stream') throw new Error('expected a stream');
    // Steered once the command runs (its output's fence is open): taken in before the turn ends.
    const it2 = again.events[Symbol.asyncIterator]();
    let content = '';
    while (!content.includes('```')) {
      const r = await it2.next();
      if (r.done) break;
      content += r.value.choices.map((c) => c.delta.content ?? '').join('');
    }
    const steered = await api.chat(running(), prompt('also mention cats', { session_id: sid }));
    expect(steered).toEqual({ kind: 'steered', session_id: sid });
    for (let r = await it2.next(); !r.done; r = await it2.next()) content += r.value.choices.map((c) => c.delta.content ?? '').join('');
    expect(content).toMatch(/SECOND[\s\S]*Steered: "also mention cats"/);
    const next = await turn(api.chat(running(), prompt('and now?', { session_id: sid })));
    expect(next.content).toContain('also mention cats');
  });

  it('disconnecting mid-stream cancels the run: the command is interrupted and the intern is free again', async () => {
    const ctl = new AbortController();
    const start = await api.chat(running(), prompt('run: sleep 20; echo SHOULD-NOT-PRINT'), { signal: ctl.signal });
    const it = (start as { events: AsyncIterable<ChatChunk> }).events[Symbol.asyncIterator]();
    await it.next();
    ctl.abort();
    await it.return?.();
    const t = await waitFor(
      () => api.chat(running(), prompt('are you free?')).then((s) => turn(s), (e: unknown) => e),
      (v) => !(v instanceof ApiError),
      8000,
      'the intern to be free after the cancel',
    );
    expect((t as Turn).finish).toBe('stop');
  });

  it('sends a keepalive comment after silence', async () => {
    const res = await request(`${sb.baseUrl}/interns/${running()}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.manifest.credentials.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(prompt('run: sleep 0.3; echo quiet-time')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const text = await res.body.text();
    expect(text).toContain('\n: keepalive\n\n');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('invoke', () => {
  it('starts a self-drive run (202), steers a running one, and only continues its own sessions', async () => {
    const started = await api.invoke(running(), { input: 'run: sleep 0.4' });
    expect(started).toEqual({ session_id: expect.stringMatching(/^sess_/), status: 'started' });
    const steered = await api.invoke(running(), { input: 'and then this', session_id: started.session_id });
    expect(steered).toEqual({ session_id: started.session_id, status: 'steered' });
    expect((await apiError(api.invoke(running(), { input: 'x', session_id: 'sess_not_mine' }))).status).toBe(404);
    expect((await apiError(api.invoke(running(), { input: '' }))).reason).toBe('bad_request');
    await waitFor(() => api.chat(running(), prompt('free?')).then(turn, (e: unknown) => e), (v) => !(v instanceof ApiError), 8000, 'invoke to finish');
  });
});

describe('errors', () => {
  it.each([
    ['stream is not true', (id: string) => ({ messages: [{ role: 'user', content: 'x' }], stream: false, id }), 400, 'bad_request', /stream must be true/],
    ['no messages', () => ({ messages: [], stream: true }), 400, 'bad_request', /at least one message/],
    ['a system message last', () => ({ messages: [{ role: 'system', content: 'x' }], stream: true }), 400, 'bad_request', /user prompt or a tool answer/],
    ['an empty prompt', () => ({ messages: [{ role: 'user', content: ' ' }], stream: true }), 400, 'bad_request', /empty/],
    ['a prompt over 32000 characters', () => ({ messages: [{ role: 'user', content: 'x'.repeat(32_001) }], stream: true }), 413, 'payload_too_large', /32000/],
  ])('%s: %d %s', async (_n, body, status, reason, message) => {
    const e = await apiError(api.chat(running(), body(running()) as never));
    expect([e.status, e.reason]).toEqual([status, reason]);
    expect(e.message).toMatch(message);
  });

  it('a body that cannot be read is 400 bad_request on chat, invoke and the code exchange, as a wrong shape is', async () => {
    const key = sb.manifest.credentials.api_key;
    const reasons: unknown[] = [];
    for (const [path, token] of [[`/interns/${running()}/chat/completions`, key], [`/interns/${running()}/invoke`, key], ['/auth/keys', undefined]] as const) {
      for (const body of ['{"messages":', '']) {
        const r = await raw(sb, 'POST', path, { token, body, headers: { 'content-type': 'application/json' } });
        reasons.push([path.split('/').pop(), r.status, (r.json as { error: { metadata?: { reason?: string } } }).error.metadata?.reason]);
      }
    }
    expect(reasons).toEqual([
      ['completions', 400, 'bad_request'], ['completions', 400, 'bad_request'],
      ['invoke', 400, 'bad_request'], ['invoke', 400, 'bad_request'],
      ['keys', 400, 'bad_request'], ['keys', 400, 'bad_request'],
    ]);
  });

  it('an intern that is not running answers 409 intern_not_ready; an unknown one 404', async () => {
    const e = await apiError(api.chat(sb.manifest.interns.stopped!, prompt('hi')));
    expect([e.status, e.reason, e.retryable]).toEqual([409, 'intern_not_ready', false]);
    expect((await apiError(api.invoke(sb.manifest.interns.stopped!, { input: 'hi' }))).reason).toBe('intern_not_ready');
    // Its words say what to do: provision a stopped one; wait for one on its way up.
    expect(e.message).toMatch(/is stopped: provision it before chatting/);
    expect((await apiError(api.chat(sb.manifest.interns.queued!, prompt('hi')))).message).toMatch(/is queued: it is on its way up; chat once it runs/);
    expect((await apiError(api.chat('00000000-0000-4000-8000-000000000000', prompt('hi')))).status).toBe(404);
  });

  it('injected faults answer with their reason, and busy and rate_limited carry Retry-After', async () => {
    const fault = (body: unknown) =>
      raw(sb, 'POST', '/__sandbox/faults', { root: true, token: sb.manifest.control_token, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    try {
      for (const [status, reason] of [[503, 'busy'], [502, 'intern_unreachable'], [504, 'timeout'], [410, 'attachment_failed']] as const) {
        await fault({ match: 'POST /interns/{internId}/chat/completions', status, reason });
        const e = await apiError(api.chat(running(), prompt('hi')));
        expect([e.status, e.reason]).toEqual([status, reason]);
        if (reason === 'busy') expect(e.retryAfterMs).toBe(1000);
      }
    } finally {
      await raw(sb, 'DELETE', '/__sandbox/faults', { root: true, token: sb.manifest.control_token });
    }
  });

  it('logs one line per chat request with the route template', async () => {
    const chatLines = logLines.filter((l) => l.startsWith('POST /api/v1/interns/:internId/chat/completions'));
    expect(chatLines.length).toBeGreaterThan(10);
    expect(chatLines.some((l) => / 200 /.test(l)) && chatLines.some((l) => / 202 /.test(l)) && chatLines.some((l) => / 409 /.test(l))).toBe(true);
  });
});

describe('limits', () => {
  it('past the rate a caller gets 429 rate_limited with Retry-After; an unanswered interaction times out', async () => {
    const small = await sandbox({ seed: 'empty', daemonCommand: 'exec /bin/sh', agent: { paceMs: 1, promptsPerMinute: 2, interactionWaitMs: 0 } });
    try {
      const c = clientAs(small, { api_key: 'api_key' });
      const id = small.manifest.interns.running!;
      // With no wait at all, the interaction has timed out before any answer can arrive.
      const ask = await turn(c.chat(id, prompt('ask: anyone?')));
      const late = await apiError(c.chat(id, { messages: answerMessages(ask.toolCall!, elicitationAnswer({ action: 'cancel' })), stream: true, session_id: ask.final.session_id! }));
      expect(late.reason).toBe('interaction_not_pending');
      await turn(c.chat(id, prompt('two')));
      const e = await apiError(c.chat(id, prompt('three')));
      expect([e.status, e.reason, e.retryable]).toEqual([429, 'rate_limited', true]);
      expect(e.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });
});

describe('the request log', () => {
  it('has one line per chat stream: one that runs to [DONE], and one the client leaves mid-way', async () => {
    const lines: string[] = [];
    const own = await sandbox({ seed: 'empty', daemonCommand: 'exec /bin/sh', agent: { paceMs: 1 }, log: (l) => lines.push(l) });
    try {
      const id = own.manifest.interns.running!;
      const CHAT = 'POST /api/v1/interns/:internId/chat/completions ';
      const post = (text: string, signal?: AbortSignal) =>
        request(`${own.baseUrl}/interns/${id}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${own.manifest.credentials.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify(prompt(text)),
          signal,
        });
      // A request after the stream, whose line is waited for: the stream's own lines are written by then.
      const settle = async () => {
        const before = lines.filter((l) => l.startsWith('GET /api/v1/interns/:internId ')).length;
        await raw(own, 'GET', `/interns/${id}`, { token: own.manifest.credentials.api_key });
        await waitFor(async () => lines.filter((l) => l.startsWith('GET /api/v1/interns/:internId ')).length, (n) => n > before, 5000, 'the marker line');
      };

      const whole = await post('hello');
      expect((await whole.body.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
      await settle();
      expect(lines.filter((l) => l.startsWith(CHAT))).toHaveLength(1);

      const ctl = new AbortController();
      const left = await post('run: sleep 20', ctl.signal);
      for await (const _chunk of left.body) break;
      ctl.abort();
      await waitFor(async () => lines.filter((l) => l.startsWith(CHAT)).length, (n) => n >= 2, 5000, 'the left stream\'s line');
      await settle();
      expect(lines.filter((l) => l.startsWith(CHAT))).toHaveLength(2);
    } finally {
      await own.close();
    }
  });
});
