/**
 * The chat transcript as data, with no React: turns, and how each streamed chunk changes the
 * running turn. Text is stored as it came and sanitised where it is drawn (an escape sequence
 * split over two chunks is removed whole). A conversation is kept per intern for the life of the
 * process, so leaving the chat and coming back continues the same session.
 */
import type { InternApi } from '../../client/types.js';
import { type ApprovalMode, type ChatChunk, type ChatUsage, type ProvideInputArgs, parseProvideInput } from '../../contract/chat.js';
import { costText, counted } from '../format.js';

export interface ToolCallView {
  index: number;
  id: string;
  name: string;
  args: string;
}

export interface Turn {
  /** Its id in the saved conversation, and when its prompt was sent (screens/chat/saved.ts). */
  saved?: { id: string; at: number };
  prompt: string;
  reasoning: string;
  answer: string;
  tools: ToolCallView[];
  /** Prompts sent while this turn ran (steering). */
  notes: string[];
  /** What was answered to each permission request or question, by tool call id: drawn under it. */
  replies: Record<string, string>;
  /** A permission request or question the turn waits on. */
  interaction?: { call: { id: string; function: { name: string; arguments: string } }; args: ProvideInputArgs; answered?: boolean };
  /** Tool call ids already answered: a later chunk never asks them again. */
  answeredIds: string[];
  /** What stopped the turn before or outside its stream (shown with the one error component). */
  error?: unknown;
  usage?: ChatUsage;
  /** A stream error (from the final chunk's `error`), already a sentence. */
  streamError?: string;
  status: 'running' | 'waiting' | 'done' | 'cancelled' | 'failed';
  /** The service took the prompt and began to answer: a failure after this leaves a partial answer. */
  started?: boolean;
  /** The service refused the prompt (it is back in the field): not drawn in the transcript, dropped at the next prompt. */
  unsent?: boolean;
}

export interface Conversation {
  sessionId?: string;
  turns: Turn[];
  mode: ApprovalMode;
  /** The prompt typed and not sent when the screen was left: it is there again on coming back. */
  draft?: string;
}

const conversations = new WeakMap<InternApi, Map<string, Conversation>>();

/** The conversation with one intern through one client: created empty, then kept. */
export function conversationOf(api: InternApi, internId: string): Conversation {
  let byIntern = conversations.get(api);
  if (!byIntern) conversations.set(api, (byIntern = new Map()));
  let c = byIntern.get(internId);
  // Manual by default, as the CLI's chat: an intern runs nothing on the person's behalf unasked until ^t says so.
  if (!c) byIntern.set(internId, (c = { turns: [], mode: 'manual' }));
  return c;
}

export function newTurn(prompt: string): Turn {
  return { prompt, reasoning: '', answer: '', tools: [], notes: [], replies: {}, answeredIds: [], status: 'running' };
}

/** The turn after one chunk (and the session id the chunk named, if any). */
export function applyChunk(turn: Turn, chunk: ChatChunk): { turn: Turn; sessionId?: string } {
  const next: Turn = { ...turn, tools: [...turn.tools] };
  for (const choice of chunk.choices) {
    const d = choice.delta;
    if (d.reasoning) next.reasoning += d.reasoning;
    if (d.content) next.answer += d.content;
    for (const tc of d.tool_calls ?? []) {
      const at = next.tools.findIndex((t) => t.index === tc.index && (!tc.id || t.id === tc.id));
      if (at >= 0) {
        const prev = next.tools[at]!;
        next.tools[at] = { ...prev, name: tc.function.name || prev.name, args: prev.args + (tc.function.arguments ?? '') };
      } else {
        next.tools.push({ index: tc.index, id: tc.id, name: tc.function.name, args: tc.function.arguments ?? '' });
      }
    }
    if (choice.finish_reason === 'tool_calls') {
      for (const t of next.tools) {
        if (next.answeredIds.includes(t.id)) continue;
        const call = { id: t.id, function: { name: t.name, arguments: t.args } };
        const args = parseProvideInput(call);
        if (args) next.interaction = { call, args };
      }
    }
  }
  if (chunk.usage) next.usage = chunk.usage;
  const err = (chunk as { error?: { message?: string; metadata?: { reason?: string } } }).error;
  if (err?.message) next.streamError = err.metadata?.reason ? `${err.message} (${err.metadata.reason})` : err.message;
  return { turn: next, sessionId: chunk.session_id ?? undefined };
}

/** `12 tokens (5 in, 7 out) · $0.000042` */
export function usageLine(u: ChatUsage): string {
  const cost = typeof u.cost === 'number' ? ` · ${costText(u.cost)}` : '';
  return `${counted(u.total_tokens, 'token')} (${u.prompt_tokens} in, ${u.completion_tokens} out)${cost}`;
}

/** `allow_once` → `Allow once` */
export function optionText(kind: string): string {
  const words = kind.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a turn whose stream ended stands: waiting on an unanswered question, failed in its stream, or done. */
export function endedStatus(t: Turn): Turn['status'] {
  return t.interaction && !t.interaction.answered ? 'waiting' : t.streamError ? 'failed' : 'done';
}
