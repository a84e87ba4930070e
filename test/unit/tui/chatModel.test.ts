/** The chat transcript model: how chunks change a turn, and the conversation kept per intern. */
import { describe, expect, it } from 'vitest';
import { PROVIDE_INPUT_TOOL, type ChatChunk } from '../../../src/contract/chat.js';
import { applyChunk, conversationOf, newTurn, optionText, usageLine } from '../../../src/tui/screens/chatModel.js';
import { FakeApi } from '../../component/fakeApi.js';

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: string | null = null, extra: Partial<ChatChunk> = {}): ChatChunk => ({
  id: 'g', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
});
const permission = JSON.stringify({ kind: 'permission', operation: 'shell', options: ['allow_once', 'reject_once'] });

describe('applyChunk', () => {
  it('adds reasoning and content, and takes usage and the session id from the last chunk', () => {
    let t = newTurn('hi');
    t = applyChunk(t, chunk({ role: 'assistant', reasoning: 'think ' })).turn;
    t = applyChunk(t, chunk({ content: 'Hel' })).turn;
    t = applyChunk(t, chunk({ content: 'lo' }, 'stop')).turn;
    const last = applyChunk(t, { ...chunk({}), choices: [], session_id: 's1', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.5 } });
    expect(last.sessionId).toBe('s1');
    expect(last.turn).toMatchObject({ reasoning: 'think ', answer: 'Hello', usage: { total_tokens: 3 } });
    expect(usageLine(last.turn.usage!)).toBe('3 tokens (1 in, 2 out) · $0.5000');
    expect(usageLine({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1, cost: 0 })).toBe('1 token (1 in, 0 out) · $0');
    expect(usageLine({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1, cost: 0.000042 })).toBe('1 token (1 in, 0 out) · $0.000042');
  });

  it('merges a tool call streamed in pieces and finds the interaction it asks for', () => {
    let t = newTurn('run: ls');
    const half = Math.floor(permission.length / 2);
    t = applyChunk(t, chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: permission.slice(0, half) } }] })).turn;
    t = applyChunk(t, chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: '', arguments: permission.slice(half) } }] }, 'tool_calls')).turn;
    expect(t.tools).toHaveLength(1);
    expect(t.interaction?.args).toEqual({ kind: 'permission', operation: 'shell', options: ['allow_once', 'reject_once'] });
  });

  it('never asks an answered call again', () => {
    let t = newTurn('run: ls');
    t = applyChunk(t, chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: permission } }] }, 'tool_calls')).turn;
    t = { ...t, interaction: undefined, answeredIds: ['c1'] };
    t = applyChunk(t, chunk({ content: 'done' }, 'tool_calls')).turn;
    expect(t.interaction).toBeUndefined();
  });

  it('keeps an in-stream error as a sentence', () => {
    const t = applyChunk(newTurn('x'), { ...chunk({}, 'error'), error: { code: 502, message: 'The run ended', metadata: { reason: 'run_ended', retryable: false } } }).turn;
    expect(t.streamError).toBe('The run ended (run_ended)');
  });
});

describe('conversations', () => {
  it('are kept per client and intern', () => {
    const api = new FakeApi();
    const a = conversationOf(api, 'i1');
    a.sessionId = 's';
    expect(conversationOf(api, 'i1')).toBe(a);
    expect(conversationOf(api, 'i2')).not.toBe(a);
    expect(conversationOf(new FakeApi(), 'i1').sessionId).toBeUndefined();
    expect(optionText('allow_once')).toBe('Allow once');
  });
});
