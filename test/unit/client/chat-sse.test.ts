import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatEvents } from '../../../src/client/chat.js';
import { NetworkError, ResponseShapeError } from '../../../src/client/errors.js';
import {
  CHAT_CHUNK_OBJECT,
  PROVIDE_INPUT_TOOL,
  SSE_DONE,
  SSE_KEEPALIVE,
  answerMessages,
  parseProvideInput,
  sseData,
  type ChatChunk,
  type ChatToolCall,
} from '../../../src/contract/chat.js';

const chunk = (content: string, over: Partial<ChatChunk> = {}): ChatChunk => ({
  id: 'chatcmpl-1',
  object: CHAT_CHUNK_OBJECT,
  created: 1_760_000_000,
  model: 'sandbox/agent',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
  ...over,
});

/** The stream's bytes cut at the given offsets, as a network would deliver them. */
async function* pieces(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= at || cut >= bytes.length) continue;
    yield bytes.subarray(at, cut);
    at = cut;
  }
  yield bytes.subarray(at);
}

async function collect(source: AsyncIterable<Uint8Array | string>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const c of chatEvents(source)) out.push(c);
  return out;
}

describe('chat event stream', () => {
  it('yields every chunk, however the bytes are cut, skips keepalive comments, and stops at [DONE]', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat({ max: 2000 }), { maxLength: 12 }),
        async (words, cuts) => {
          const chunks = words.map((w) => chunk(w));
          const final = chunk('', { choices: [], session_id: 's-1', usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } });
          const text = chunks.map(sseData).join(SSE_KEEPALIVE) + sseData(final) + sseData(SSE_DONE) + sseData(chunk('after done'));
          const got = await collect(pieces(text, cuts));
          expect(got).toEqual([...chunks, final]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('accepts CRLF line ends', async () => {
    const a = JSON.stringify(chunk('hi'));
    const got = await collect(pieces(`data: ${a}\r\n\r\n: keepalive\r\n\r\ndata: [DONE]\r\n\r\n`, [5, 17]));
    expect(got.map((c) => c.choices[0]?.delta.content)).toEqual(['hi']);
  });

  it('fails when the stream ends before [DONE]', async () => {
    await expect(collect(pieces(sseData(chunk('a')), []))).rejects.toBeInstanceOf(NetworkError);
  });

  it('fails on an event outside the contract, naming the field', async () => {
    const bad = { ...chunk('a'), object: 'chat.completion' };
    await expect(collect(pieces(sseData(bad) + sseData(SSE_DONE), []))).rejects.toThrow(/object/);
    await expect(collect(pieces('data: {not json\n\n', []))).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('closes the source when the consumer stops early', async () => {
    let destroyed = false;
    const source = Object.assign(pieces(sseData(chunk('a')) + sseData(chunk('b')) + sseData(SSE_DONE), []), {
      destroy: () => {
        destroyed = true;
      },
    });
    for await (const c of chatEvents(source)) {
      expect(c.choices[0]?.delta.content).toBe('a');
      break;
    }
    expect(destroyed).toBe(true);
  });
});

describe('provide_input helpers', () => {
  const call = (args: unknown, name = PROVIDE_INPUT_TOOL): ChatToolCall => ({
    index: 0,
    id: 'call_1',
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  });

  it('parses a permission request and a question', () => {
    expect(parseProvideInput(call({ kind: 'permission', operation: 'ls', options: ['allow_once', 'reject_once'] }))).toEqual({
      kind: 'permission',
      operation: 'ls',
      options: ['allow_once', 'reject_once'],
    });
    const q = parseProvideInput(call({ kind: 'elicitation', message: 'Which?', fields: [{ name: 'x', type: 'choice', options: ['a', 'b'] }] }));
    expect(q?.kind).toBe('elicitation');
  });

  it('refuses another tool, bad JSON and an unknown kind', () => {
    expect(parseProvideInput(call({ kind: 'permission', operation: null, options: ['allow_once'] }, 'other.tool'))).toBeUndefined();
    expect(parseProvideInput(call('{oops'))).toBeUndefined();
    expect(parseProvideInput(call({ kind: 'telepathy' }))).toBeUndefined();
  });

  it('builds the assistant echo and the tool answer', () => {
    const tc = call({ kind: 'permission', operation: 'ls', options: ['allow_once'] });
    const [echo, tool] = answerMessages(tc, 'allow_once');
    expect(echo).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: PROVIDE_INPUT_TOOL } }] });
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'allow_once' });
    const [, answer] = answerMessages(tc, { action: 'accept', content: { detail: 'x', length: 'short' } });
    expect(JSON.parse((answer as { content: string }).content)).toEqual({ action: 'accept', content: { detail: 'x', length: 'short' } });
  });
});
