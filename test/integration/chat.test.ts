/**
 * Chat and invoke through the project's client against a live sandbox: the streamed answer, both
 * interaction kinds answered, steering, cancel by disconnect, keepalive, invoke, and every error
 * reason. Each streamed chunk, steer answer and error body is also parsed with the official SDK's
 * zod schemas (@openrouter/sdk 1.3.19).
 */
import * as sdk from '@openrouter/sdk/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/client/errors.js';
import type { ChatStart, InternApi } from '../../src/client/types.js';
import {
  PROVIDE_INPUT_TOOL,
  answerMessages,
  parseProvideInput,
  type ChatChunk,
  type ChatRequest,
  type ChatToolCall,
} from '../../src/contract/chat.js';
import { RETRYABLE_REASONS } from '../../src/contract/errors.js';
import { LIMITS } from '../../src/contract/limits.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { clientAs, raw, sandbox, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox;
let api: InternApi;
let running: string;
beforeAll(async () => {
  sb = await sandbox({ seed: 'demo', agentWordDelayMs: 1, chatKeepaliveMs: 100, agentInteractionWaitMs: 4000 });
  api = clientAs(sb, { api_key: 'api_key' });
  running = sb.manifest.interns.running!;
});
afterAll(() => sb.close());

const CHAT = 'POST /interns/{internId}/chat/completions';
const parsesWithSdk = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  expect(r.success, JSON.stringify(r.error)?.slice(0, 600)).toBe(true);
};
const user = (content: string, over: Partial<ChatRequest> = {}): ChatRequest => ({ stream: true, messages: [{ role: 'user', content }], ...over });

async function stream(start: Promise<ChatStart>): Promise<AsyncIterable<ChatChunk>> {
  const s = await start;
  if (s.kind !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(s)}`);
  return s.events;
}
async function collect(start: Promise<ChatStart>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const c of await stream(start)) {
    parsesWithSdk(sdk.InternChatCompletionChunk$inboundSchema, c);
    out.push(c);
  }
  return out;
}
const text = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
const finish = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.finish_reason).filter((f) => f);
const toolCall = (chunks: ChatChunk[]): ChatToolCall => {
  const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
  expect(calls).toHaveLength(1);
  return calls[0]!;
};
const apiError = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};
const control = (method: string, path: string, body?: unknown) =>
  raw(sb, method, path, {
    root: true,
    token: sb.manifest.control_token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

describe('a streamed answer', () => {
  it('starts with the role, reasons briefly, answers word by word, and ends with session_id and usage', async () => {
    const chunks = await collect(api.chat(running, user('hello there')));
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks[1]!.choices[0]!.delta.reasoning).toMatch(/\w/);
    const words = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(words.length).toBeGreaterThan(5);
    expect(text(chunks)).toContain('You said: "hello there". This is the first prompt of this session.');
    expect(finish(chunks)).toEqual(['stop']);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.session_id).toMatch(/\S/);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it('remembers the session, and takes text parts as content', async () => {
    const first = await collect(api.chat(running, user('my name is Ada', { session_id: 'memory-1' })));
    expect(first.at(-1)!.session_id).toBe('memory-1');
    const second = await collect(
      api.chat(running, { stream: true, session_id: 'memory-1', messages: [{ role: 'system', content: 'ignored' }, { role: 'user', content: [{ type: 'text', text: 'what did I say?' }] }] }),
    );
    expect(text(second)).toContain('This is prompt 2 of this session; the one before was "my name is Ada".');
  });

  it('sends a keepalive comment after a silence, and ends with [DONE]', async () => {
    const res = await raw(sb, 'POST', `/interns/${running}/chat/completions`, {
      token: sb.manifest.credentials.api_key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user('run: sleep 0.5; echo slept')),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text).toContain(': keepalive\n\n');
    expect(res.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('run: a command in the intern\'s own terminal', () => {
  it('runs self-drive without asking and streams the output and exit status', async () => {
    const chunks = await collect(api.chat(running, user('run: echo "chat $((40 + 2))"; false')));
    const out = text(chunks);
    expect(out).toContain('Running `echo "chat $((40 + 2))"; false`:');
    expect(out).toContain('chat 42\n');
    expect(out).toContain('Exit status 1.');
    expect(out).not.toMatch(/:::(begin|end)-/);
  });

  it('with approval_mode manual asks permission; allow_once runs it, reject_once does not', async () => {
    const session = 'perm-1';
    const asked = await collect(api.chat(running, user('run: echo allowed-once', { session_id: session, approval_mode: 'manual' })));
    expect(finish(asked)).toEqual(['tool_calls']);
    expect(asked.at(-1)).toMatchObject({ choices: [], session_id: session, usage: null });
    const call = toolCall(asked);
    expect(call.function.name).toBe(PROVIDE_INPUT_TOOL);
    expect(parseProvideInput(call)).toEqual({
      kind: 'permission',
      operation: 'shell: echo allowed-once',
      options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
    });
    const ran = await collect(api.chat(running, { stream: true, session_id: session, messages: answerMessages(call, 'allow_once') }));
    expect(text(ran)).toContain('allowed-once\n');
    expect(finish(ran)).toEqual(['stop']);

    // allow_once is not remembered: the next run asks again; this time it is rejected.
    const again = await collect(api.chat(running, user('run: echo rejected-once', { session_id: session, approval_mode: 'manual' })));
    const refused = await collect(api.chat(running, { stream: true, session_id: session, messages: answerMessages(toolCall(again), 'reject_once') }));
    expect(text(refused)).toContain('I did not run `echo rejected-once`');
    expect(text(refused)).not.toContain('Running');
  });

  it('allow_always and reject_always are remembered for the session', async () => {
    const asked = await collect(api.chat(running, user('run: echo first', { session_id: 'perm-always', approval_mode: 'manual' })));
    await collect(api.chat(running, { stream: true, session_id: 'perm-always', messages: answerMessages(toolCall(asked), 'allow_always') }));
    const next = await collect(api.chat(running, user('run: echo second', { session_id: 'perm-always', approval_mode: 'manual' })));
    expect(finish(next)).toEqual(['stop']);
    expect(text(next)).toContain('second\n');

    const q = await collect(api.chat(running, user('run: echo nope', { session_id: 'perm-never', approval_mode: 'manual' })));
    await collect(api.chat(running, { stream: true, session_id: 'perm-never', messages: answerMessages(toolCall(q), 'reject_always') }));
    const later = await collect(api.chat(running, user('run: echo still-nope', { session_id: 'perm-never', approval_mode: 'manual' })));
    expect(finish(later)).toEqual(['stop']);
    expect(text(later)).toContain('always reject');
    expect(text(later)).not.toContain('still-nope\n');
  });
});

describe('ask: a question before the answer', () => {
  it('asks with a text field and a choice, and answers from what was given', async () => {
    const asked = await collect(api.chat(running, user('ask: which colour?', { session_id: 'q-1' })));
    const call = toolCall(asked);
    const args = parseProvideInput(call);
    expect(args?.kind).toBe('elicitation');
    if (args?.kind !== 'elicitation') return;
    expect(args.message).toContain('which colour?');
    expect(args.fields.map((f) => f.type).sort()).toEqual(['choice', 'text']);
    expect(args.fields.find((f) => f.type === 'choice')!.options!.length).toBeGreaterThanOrEqual(2);

    // An answer that does not fit is refused, and the question stays pending.
    const bad = await apiError(api.chat(running, { stream: true, session_id: 'q-1', messages: answerMessages(call, { action: 'accept', content: { detail: 'blue', length: 'epic' } }) }));
    expect([bad.status, bad.reason]).toEqual([400, 'bad_request']);

    const answered = await collect(
      api.chat(running, { stream: true, session_id: 'q-1', messages: answerMessages(call, { action: 'accept', content: { detail: 'blue', length: 'short' } }) }),
    );
    expect(text(answered)).toContain('You asked "which colour?" and told me "blue".');

    // Answering twice: no longer pending; an id never asked: unknown.
    const twice = await apiError(api.chat(running, { stream: true, session_id: 'q-1', messages: answerMessages(call, 'cancel') }));
    expect([twice.status, twice.reason]).toEqual([409, 'interaction_not_pending']);
    const unknown = await apiError(api.chat(running, { stream: true, session_id: 'q-1', messages: answerMessages({ ...call, id: 'call_never' }, 'cancel') }));
    expect([unknown.status, unknown.reason]).toEqual([404, 'interaction_unknown']);
  });

  it('a declined question still gets an answer', async () => {
    const call = toolCall(await collect(api.chat(running, user('ask: why?', { session_id: 'q-2' }))));
    const answered = await collect(api.chat(running, { stream: true, session_id: 'q-2', messages: answerMessages(call, { action: 'decline' }) }));
    expect(text(answered)).toContain('Without more detail');
  });
});

describe('steering, busy, and cancel by disconnect', () => {
  it('a prompt during the running turn is steered (202) and shows up in that turn; another session is told busy', async () => {
    const events = await stream(api.chat(running, user('run: sleep 0.6; echo woke', { session_id: 'steer-1' })));
    const seen: ChatChunk[] = [];
    let steered: ChatStart | undefined;
    let busy: ApiError | undefined;
    for await (const c of events) {
      seen.push(c);
      if (!steered && c.choices[0]?.delta.content?.startsWith('Running')) {
        steered = await api.chat(running, user('also say hi', { session_id: 'steer-1' }));
        busy = await apiError(api.chat(running, user('me too', { session_id: 'steer-other' })));
      }
    }
    expect(steered).toEqual({ kind: 'steered', session_id: 'steer-1' });
    parsesWithSdk(sdk.InternChatSteeredResponse$inboundSchema, { session_id: 'steer-1', status: 'steered' });
    expect([busy!.status, busy!.reason, busy!.retryable, busy!.retryAfterMs]).toEqual([409, 'busy', true, 1000]);
    expect(text(seen)).toContain('woke\n');
    expect(text(seen)).toContain('(Steered: you added "also say hi".)');
  });

  it('closing the stream mid-run cancels the run: the command is interrupted and the session is free', async () => {
    const controller = new AbortController();
    const events = await stream(api.chat(running, user('run: sleep 30; echo never', { session_id: 'cancel-1' }), { signal: controller.signal }));
    const error = await (async () => {
      try {
        for await (const c of events) if (c.choices[0]?.delta.content?.startsWith('Running')) controller.abort();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(NetworkError);
    // The session takes a new prompt (no steer): its run is gone.
    const next = await waitFor(
      () => api.chat(running, user('are you there?', { session_id: 'cancel-1' })),
      (s) => s.kind === 'stream',
      5000,
      'the cancelled run to end',
    );
    if (next.kind === 'stream') for await (const _ of next.events) void _;
    // And the terminal is free again at once: sleep 30 was interrupted, not waited for.
    const started = Date.now();
    const after = await collect(api.chat(running, user('run: echo free', { session_id: 'cancel-2' })));
    expect(text(after)).toContain('free\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('breaking out of the loop also closes the connection and cancels', async () => {
    const events = await stream(api.chat(running, user('run: sleep 30', { session_id: 'cancel-3' })));
    for await (const c of events) if (c.choices[0]?.delta.content?.startsWith('Running')) break;
    const next = await waitFor(() => api.chat(running, user('next', { session_id: 'cancel-3' })), (s) => s.kind === 'stream', 5000, 'cancel');
    if (next.kind === 'stream') for await (const _ of next.events) void _;
  });

  it('a run that waits for an answer survives the stream ending at [DONE]', async () => {
    const call = toolCall(await collect(api.chat(running, user('ask: still there?', { session_id: 'wait-1' }))));
    // The session's run is still running (paused): a new prompt is steered into it.
    expect(await api.chat(running, user('hello?', { session_id: 'wait-1' }))).toEqual({ kind: 'steered', session_id: 'wait-1' });
    const answered = await collect(api.chat(running, { stream: true, session_id: 'wait-1', messages: answerMessages(call, { action: 'accept', content: { detail: 'yes', length: 'detailed' } }) }));
    expect(text(answered)).toContain('A detailed answer');
    expect(text(answered)).toContain('(Steered: you added "hello?".)');
  });

  it('an interaction that nobody answers in time ends its run; a late answer is not pending', async () => {
    const call = toolCall(await collect(api.chat(running, user('ask: anyone?', { session_id: 'late-1' }))));
    // While it waits, a malformed answer is refused (400); once the wait is over it is 409.
    const late = await waitFor(
      () => apiError(api.chat(running, { stream: true, session_id: 'late-1', messages: answerMessages(call, 'not-json') })),
      (e) => e.status === 409,
      10_000,
      'the interaction to time out',
    );
    expect(late.reason).toBe('interaction_not_pending');
    // The session is free for a new prompt.
    expect((await collect(api.chat(running, user('hi', { session_id: 'late-1' })))).length).toBeGreaterThan(3);
  });

  it('a run ends with an in-stream run_ended error when the intern stops', async () => {
    const intern = sb.manifest.interns.no_icon!;
    const events = await stream(api.chat(intern, user('run: sleep 20')));
    const seen: ChatChunk[] = [];
    for await (const c of events) {
      seen.push(c);
      if (c.choices[0]?.delta.content?.startsWith('Running')) expect((await control('POST', `/__sandbox/interns/${intern}/status`, { status: 'stopped' })).status).toBe(200);
    }
    for (const c of seen) parsesWithSdk(sdk.InternChatCompletionChunk$inboundSchema, c);
    expect(finish(seen)).toEqual(['error']);
    expect(seen.at(-2)!.error).toMatchObject({ metadata: { reason: 'run_ended', retryable: false } });
    expect(seen.at(-1)).toMatchObject({ choices: [], usage: null });
    const notReady = await apiError(api.chat(intern, user('hi')));
    expect([notReady.status, notReady.reason]).toEqual([409, 'intern_not_ready']);
  });
});

describe('invoke', () => {
  it('starts a self-drive run (202), steers a second input into it, and continues only its own sessions', async () => {
    const intern = sb.manifest.interns.running_jpeg!;
    const started = await api.invoke(intern, { input: 'run: sleep 0.5' });
    expect(started).toEqual({ session_id: expect.stringMatching(/\S/), status: 'started' });
    expect(await api.invoke(intern, { input: 'and then?', session_id: started.session_id })).toEqual({ session_id: started.session_id, status: 'steered' });
    const foreign = await apiError(api.invoke(intern, { input: 'x', session_id: 'made-up' }));
    expect([foreign.status, foreign.reason]).toEqual([404, 'not_found']);
    const notReady = await apiError(api.invoke(sb.manifest.interns.stopped!, { input: 'x' }));
    expect([notReady.status, notReady.reason]).toEqual([409, 'intern_not_ready']);
    const tooLong = await apiError(api.invoke(intern, { input: 'x'.repeat(LIMITS.prompt.max + 1) }));
    expect(tooLong.status).toBe(413);
    // When the run is over, the same session starts a new run.
    await waitFor(() => api.invoke(intern, { input: 'again', session_id: started.session_id }), (r) => r.status === 'started', 8000, 'the invoked run to finish');
  });
});

describe('errors', () => {
  it('names each request error with its reason', async () => {
    const cases: [Promise<unknown>, number, string | null][] = [
      [api.chat(running, { ...user('x'), stream: false } as never), 400, 'bad_request'],
      [api.chat(running, { stream: true, messages: [] } as never), 400, 'bad_request'],
      [api.chat(running, { stream: true, messages: [{ role: 'assistant', content: 'hi' }] }), 400, 'bad_request'],
      [api.chat(running, { stream: true, messages: [{ role: 'tool', tool_call_id: 'call_x', content: 'allow_once' }] }), 400, 'bad_request'],
      [api.chat(running, user('x', { session_id: 'x'.repeat(LIMITS.sessionId.max + 1) })), 400, 'bad_request'],
      [api.chat(running, user('x'.repeat(LIMITS.prompt.max + 1))), 413, 'payload_too_large'],
      [api.chat('00000000-0000-4000-8000-000000000000', user('x')), 404, 'not_found'],
      [api.chat(sb.manifest.interns.stopped!, user('x')), 409, 'intern_not_ready'],
      [api.chat(sb.manifest.interns.provisioning!, user('x')), 409, 'intern_not_ready'],
      [clientAs(sb, { api_key: 'management_key' }).chat(running, user('x')), 401, null],
      [clientAs(sb, { api_key: 'api_key_lost_access' }).chat(running, user('x')), 403, null],
    ];
    for (const [call, status, reason] of cases) {
      const e = await apiError(call);
      expect([e.status, e.reason], e.message).toEqual([status, reason]);
      expect(e.retryable).toBe(false);
    }
    const body = await raw(sb, 'POST', `/interns/${sb.manifest.interns.stopped}/chat/completions`, {
      token: sb.manifest.credentials.api_key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user('x')),
    });
    parsesWithSdk(sdk.InternChatError$inboundSchema, (body.json as { error: unknown }).error);
  });

  it.each([
    [408, 'timeout'],
    [409, 'attachment_failed'],
    [410, 'attachment_failed'],
    [429, 'rate_limited'],
    [502, 'intern_unreachable'],
    [502, 'intern_rejected'],
    [502, 'turn_failed'],
    [502, 'stream_severed'],
    [503, 'busy'],
    [504, 'timeout'],
  ])('answers an injected %i %s with its retryable flag, and Retry-After where the notes give one', async (status, reason) => {
    expect((await control('POST', '/__sandbox/faults', { match: CHAT, status, reason })).status).toBe(200);
    try {
      const e = await apiError(api.chat(running, user('x')));
      expect([e.status, e.reason, e.retryable]).toEqual([status, reason, RETRYABLE_REASONS.has(reason)]);
      expect(e.retryAfterMs).toBe(reason === 'busy' || reason === 'rate_limited' ? 1000 : undefined);
      const body = await raw(sb, 'POST', `/interns/${running}/chat/completions`, {
        token: sb.manifest.credentials.api_key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user('x')),
      });
      parsesWithSdk(sdk.InternChatError$inboundSchema, (body.json as { error: unknown }).error);
    } finally {
      await control('DELETE', '/__sandbox/faults');
    }
  });

  it('reports an in-stream stream_severed as an error chunk, then the final chunk and [DONE]', async () => {
    await control('POST', '/__sandbox/faults', { match: CHAT, status: 502, reason: 'stream_severed', in_stream: true });
    try {
      const chunks = await collect(api.chat(running, user('x', { session_id: 'severed' })));
      expect(finish(chunks)).toEqual(['error']);
      expect(chunks.at(-2)!.error).toEqual({ code: 502, message: expect.any(String), metadata: { reason: 'stream_severed', retryable: true } });
      expect(chunks.at(-1)).toMatchObject({ choices: [], session_id: 'severed', usage: null });
    } finally {
      await control('DELETE', '/__sandbox/faults');
    }
  });
});
