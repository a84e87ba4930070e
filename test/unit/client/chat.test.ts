/** The client's chat codec against a scripted loopback server: SSE parsing, steering, errors, cancel. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ResponseShapeError, createClient } from '../../../src/client/index.js';
import { StreamTooLongError } from '../../../src/client/chat.js';
import type { ChatChunk } from '../../../src/contract/chat.js';
import { answerMessages, elicitationAnswer, optionLabel, parseProvideInput } from '../../../src/contract/chat.js';

let server: Server;
let base: string;
let script: (res: ServerResponse, body: string) => void = () => undefined;
let closedEarly = false;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => script(res, body));
    res.on('close', () => {
      if (!res.writableEnded) closedEarly = true;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const api = () => createClient({ baseUrl: base, credentials: { api_key: 'sk-or-v1-test-key-000000' } });
const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm/x', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const collect = async (events: AsyncIterable<ChatChunk>) => {
  const out: ChatChunk[] = [];
  for await (const e of events) out.push(e);
  return out;
};
const body = { messages: [{ role: 'user' as const, content: 'hi' }], stream: true as const };

describe('chat', () => {
  it('parses chunks split anywhere, skips keepalive comments, and ends at [DONE]', async () => {
    let seenBody = '';
    script = (res, b) => {
      seenBody = b;
      sse(res);
      const text =
        `data: ${chunk({ role: 'assistant', reasoning: 'hmm' })}\n\n: keepalive\n\n` +
        `data: ${chunk({ content: 'Hel' })}\n\ndata: ${chunk({ content: 'lo' }, 'stop')}\n\n` +
        `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm/x', choices: [], session_id: 's-1', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.5 } })}\n\n` +
        'data: [DONE]\n\n';
      // Written in 7-byte pieces, so events and even JSON are split across reads.
      let i = 0;
      const next = () => {
        if (i >= text.length) return void res.end();
        res.write(text.slice(i, (i += 7)));
        setImmediate(next);
      };
      next();
    };
    const start = await api().chat('i-1', body);
    expect(start.kind).toBe('stream');
    const got = await collect((start as { events: AsyncIterable<ChatChunk> }).events);
    expect(got.map((c) => c.choices[0]?.delta.content ?? c.choices[0]?.delta.reasoning ?? c.session_id)).toEqual(['hmm', 'Hel', 'lo', 's-1']);
    expect(got.at(-1)?.usage?.total_tokens).toBe(3);
    expect(JSON.parse(seenBody)).toEqual(body);
  });

  it('answers steered for a 202', async () => {
    script = (res) => res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ session_id: 's-9', status: 'steered' }));
    expect(await api().chat('i-1', body)).toEqual({ kind: 'steered', session_id: 's-9' });
  });

  it('throws the service error with its reason, retryable flag and Retry-After, and does not retry', async () => {
    let calls = 0;
    script = (res) => {
      calls++;
      res.writeHead(409, { 'content-type': 'application/json', 'retry-after': '3' }).end(
        JSON.stringify({ error: { code: 409, message: 'The intern is busy', metadata: { reason: 'busy', retryable: true } } }),
      );
    };
    const e = (await api().chat('i-1', body).catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.reason, e.retryable, e.retryAfterMs]).toEqual([409, 'busy', true, 3000]);
    expect(calls).toBe(1);
  });

  it('a stream cut before [DONE] is a retryable stream_severed error', async () => {
    script = (res) => {
      sse(res);
      res.end(`data: ${chunk({ content: 'partial' })}\n\n`);
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const e = (await collect(start.events).catch((x: unknown) => x)) as ApiError;
    expect([e.reason, e.retryable]).toEqual(['stream_severed', true]);
  });

  it('a connection broken under the stream (the service gone) says the connection was lost, not "aborted"', async () => {
    script = (res) => {
      sse(res);
      res.write(`data: ${chunk({ content: 'partial' })}\n\n`, () => res.socket?.destroy());
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const e = (await collect(start.events).catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect([e.reason, e.retryable]).toEqual(['stream_severed', true]);
    expect(e.message).toMatch(/the connection was lost before the answer ended \(ECONNRESET\)/);
  });

  it("an in-stream error that echoes the key is shown without it, as an error response's is", async () => {
    script = (res) => {
      sse(res);
      const error = { code: 'c-sk-or-v1-test-key-000000', message: 'bad key Bearer sk-or-v1-test-key-000000', metadata: { reason: 'r-sk-or-v1-test-key-000000', retryable: false } };
      res.end(`data: ${chunk({}, 'error', { error })}\n\ndata: [DONE]\n\n`);
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const [only] = await collect(start.events);
    expect(only!.error).toEqual({ code: 'c-[redacted]', message: 'bad key Bearer [redacted]', metadata: { reason: 'r-[redacted]', retryable: false } });
  });

  it('skips named events, takes a role or an error code it does not know, and a turn that finished without [DONE] is whole', async () => {
    script = (res) => {
      sse(res);
      res.write(`data: ${chunk({ role: 'assistant', content: 'first ' })}\n\n`);
      res.write('event: ping\ndata: {"type":"ping"}\n\n');
      res.write(`data: ${chunk({ role: 'tool', content: 'part' })}\n\n`);
      res.write(`data: ${chunk({}, 'stop', { error: { code: 'turn_failed', message: 'Turn failed' } })}\n\n`);
      res.end();
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const got = await collect(start.events);
    expect(got.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('first part');
    expect(got.at(-1)!.error).toEqual({ code: 'turn_failed', message: 'Turn failed' });
  });

  it('a stream silent past the keepalives is given up as severed, and the connection closed', async () => {
    closedEarly = false;
    script = (res) => {
      sse(res);
      res.write(`data: ${chunk({ content: 'partial' })}\n\n`);
    };
    const quiet = createClient({ baseUrl: base, credentials: { api_key: 'sk-or-v1-test-key-000000' }, chatSilenceMs: 200 });
    const start = (await quiet.chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const e = (await collect(start.events).catch((x: unknown) => x)) as ApiError;
    expect([e.reason, e.retryable]).toEqual(['stream_severed', true]);
    expect(e.message).toMatch(/nothing came for 200 ms, not even the service's keepalive/);
    const deadline = Date.now() + 5000;
    while (!closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(closedEarly).toBe(true);
  });

  it("a 200 whose body is the error envelope is that error, its message kept", async () => {
    script = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 503, message: 'Intern is waking up', metadata: { reason: 'busy', retryable: true } } }));
    };
    const e = (await api().chat('i-1', body).catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect([e.message, e.reason]).toEqual(['Intern is waking up', 'busy']);
  });

  it('an event that is not a chunk is a shape error naming the route', async () => {
    script = (res) => {
      sse(res);
      res.end('data: {"hello": 1}\n\n');
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    const e = await collect(start.events).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect((e as Error).message).toContain('POST /interns/{internId}/chat/completions');
  });

  it('leaving the loop early closes the connection (which cancels the run)', async () => {
    closedEarly = false;
    script = (res) => {
      sse(res);
      res.write(`data: ${chunk({ content: 'one' })}\n\n`);
      // Never ends on its own.
    };
    const start = (await api().chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    for await (const _ of start.events) break;
    const deadline = Date.now() + 5000;
    while (!closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(closedEarly).toBe(true);
  });
});

describe('a stream without end', () => {
  it('ends at the stream cap with StreamTooLongError, the connection closed (which cancels the run), not read past it', async () => {
    closedEarly = false;
    let sent = 0;
    script = (res) => {
      sse(res);
      const event = `data: ${chunk({ content: 'x'.repeat(4000) })}\n\n`;
      const pump = () => {
        while (!res.destroyed) {
          sent += event.length;
          if (!res.write(event)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const limited = createClient({ baseUrl: base, credentials: { api_key: 'sk-or-v1-test-key-000000' }, chatStreamMaxBytes: 1 << 20 });
    const start = (await limited.chat('i-1', body)) as { events: AsyncIterable<ChatChunk> };
    let text = 0;
    let error: unknown;
    try {
      for await (const c of start.events) text += c.choices[0]?.delta.content?.length ?? 0;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamTooLongError);
    expect((error as Error).message).toBe('POST /interns/{internId}/chat/completions: the answer passed 1 MiB, the most one chat stream may carry; it was closed, which cancels the run');
    expect(text).toBeLessThanOrEqual(1 << 20);
    expect(text).toBeGreaterThan(900_000);
    const deadline = Date.now() + 5000;
    while (!closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(closedEarly).toBe(true);
    expect(sent).toBeGreaterThan(1 << 20);
  });
});

describe('interactions', () => {
  const call = (args: unknown, name = 'openrouter.provide_input') => ({ id: 'call-1', function: { name, arguments: JSON.stringify(args) } });
  it('parses a permission request and a question, and nothing else', () => {
    expect(parseProvideInput(call({ kind: 'permission', operation: 'shell', options: ['allow_once', 'reject_once'] }))).toMatchObject({ kind: 'permission' });
    expect(parseProvideInput(call({ kind: 'elicitation', message: 'Which?', fields: [{ name: 'a', type: 'text' }] }))).toMatchObject({ kind: 'elicitation' });
    expect(parseProvideInput(call({ kind: 'permission' }))).toBeNull();
    expect(parseProvideInput(call({ kind: 'permission', operation: null, options: ['x'] }, 'other.tool'))).toBeNull();
    expect(parseProvideInput({ id: 'c', function: { name: 'openrouter.provide_input', arguments: '{not json' } })).toBeNull();
  });
  it('builds the echo and the answer, and labels options', () => {
    const c = call({ kind: 'permission', operation: 'shell', options: ['allow_once'] });
    const [echo, answer] = answerMessages(c, 'allow_once');
    expect(echo).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call-1', type: 'function' }] });
    expect(answer).toEqual({ role: 'tool', tool_call_id: 'call-1', content: 'allow_once' });
    expect(elicitationAnswer({ action: 'accept', content: { a: 'x' } })).toBe('{"action":"accept","content":{"a":"x"}}');
    expect(elicitationAnswer({ action: 'decline', content: { a: 'x' } })).toBe('{"action":"decline"}');
    expect(optionLabel('reject_always')).toBe('Reject always');
  });
});
