/**
 * The chat's conversations on disk, for the TUI (no React): the stores for a profile and host
 * (made once a process, from the state folder the CLI hands over in TuiOptions), a turn as it is
 * saved and as it comes back, and which saved conversation each in-memory one writes to.
 */
import { randomUUID } from 'node:crypto';
import { PROVIDE_INPUT_TOOL } from '../../../contract/chat.js';
import { ConversationStore, sessionsDir, type ConversationLog, type InternRef, type SavedConversation, type SavedTurn } from '../../state/conversations.js';
import { fileHistory, historyPath, memoryHistory, type PromptHistory } from '../../state/history.js';
import type { Conversation, Turn } from '../chatModel.js';

export interface ChatStores {
  history: PromptHistory;
  /** Null without a state folder: conversations then live as long as the process. */
  conversations: ConversationStore | null;
}

const stores = new Map<string, ChatStores>();
/** Without a state folder: a history in memory for each client (each profile's session has its own). */
const inMemory = new WeakMap<object, ChatStores>();

/** The stores of a profile and host; the same objects for the life of the process (the history read once). */
export function chatStores(stateDir: string | null | undefined, profile: string | null, host: string, api: object): ChatStores {
  if (!stateDir) {
    let m = inMemory.get(api);
    if (!m) inMemory.set(api, (m = { history: memoryHistory(), conversations: null }));
    return m;
  }
  const key = JSON.stringify([stateDir, profile, host]);
  let s = stores.get(key);
  if (!s) stores.set(key, (s = { history: fileHistory(historyPath(stateDir, profile)), conversations: new ConversationStore(sessionsDir(stateDir), { profile, host }) }));
  return s;
}

/** A turn as saved: its text, tool calls, the answers given (never a field's value), how it ended. */
export function toSaved(t: Turn, id: string, at: number): SavedTurn {
  const error = t.streamError ?? (t.error instanceof Error ? t.error.message : t.error !== undefined ? String(t.error) : undefined);
  return {
    id,
    at,
    prompt: t.prompt,
    ...(t.reasoning ? { reasoning: t.reasoning } : {}),
    answer: t.answer,
    tools: t.tools.map((x) => ({ name: x.name, args: x.args })),
    notes: t.notes,
    replies: t.tools.map((x) => t.replies[x.id]).filter((r): r is string => r !== undefined),
    status: t.status,
    ...(t.usage ? { usage: t.usage } : {}),
    ...(error ? { error } : {}),
  };
}

/** A saved turn drawn again: done, or cancelled if it was still running or waiting when saved. */
export function fromSaved(t: SavedTurn): Turn {
  const replies: Record<string, string> = {};
  const left = [...t.replies];
  const tools = t.tools.map((x, i) => {
    const id = `saved-${i}`;
    if (x.name === PROVIDE_INPUT_TOOL && left.length) replies[id] = left.shift()!;
    return { index: i, id, name: x.name, args: x.args };
  });
  return {
    saved: { id: t.id, at: t.at },
    prompt: t.prompt,
    reasoning: t.reasoning ?? '',
    answer: t.answer,
    tools,
    notes: t.notes,
    replies,
    answeredIds: tools.map((x) => x.id),
    ...(t.usage ? { usage: t.usage } : {}),
    ...(t.error ? { streamError: t.error } : {}),
    status: t.status === 'running' || t.status === 'waiting' ? 'cancelled' : t.status,
    started: true,
  };
}

interface Persisted {
  /** Whether the latest saved conversation was looked for (once, on the chat's first opening). */
  restored: boolean;
  log: ConversationLog | null;
  /** The session id read from disk: a service that answers in another says it no longer knows it. */
  restoredSession: string | null;
}
const persisted = new WeakMap<Conversation, Persisted>();

function stateOf(convo: Conversation): Persisted {
  let p = persisted.get(convo);
  if (!p) persisted.set(convo, (p = { restored: false, log: null, restoredSession: null }));
  return p;
}

/** Puts a saved conversation in `convo`'s place (its turns, its session); what is typed stays. */
export function loadInto(convo: Conversation, store: ConversationStore, saved: SavedConversation): void {
  const p = stateOf(convo);
  p.restored = true;
  p.log = store.continue(saved);
  p.restoredSession = saved.sessionId;
  convo.turns = saved.turnList.map(fromSaved);
  convo.sessionId = saved.sessionId ?? undefined;
}

/** On the chat's first opening in this process: the intern's latest conversation, if there is one. Answers what was skipped. */
export function restoreLatest(convo: Conversation, store: ConversationStore, internId: string): string[] {
  const p = stateOf(convo);
  if (p.restored) return [];
  p.restored = true;
  if (convo.turns.length) return [];
  const { conversations, problems } = store.list(internId);
  if (conversations[0]) loadInto(convo, store, conversations[0]);
  return problems;
}

/** A new conversation in `convo`'s place: the old one stays saved. */
export function startNew(convo: Conversation): void {
  const p = stateOf(convo);
  p.restored = true;
  p.log = null;
  p.restoredSession = null;
  convo.turns = [];
  convo.sessionId = undefined;
}

/** The saved conversation `convo` writes to, if it has begun one. */
export const savedId = (convo: Conversation): string | null => stateOf(convo).log?.id ?? null;

/**
 * Saves the turn at `at` as it now stands (one the service took); answers a line to show when
 * saving failed. The turn keeps its id as it is replaced while it streams.
 */
export function saveTurn(convo: Conversation, store: ConversationStore | null, intern: InternRef, at: number): string | null {
  let turn = convo.turns[at];
  if (!store || !turn || !turn.started || turn.unsent) return null;
  if (!turn.saved) convo.turns[at] = turn = { ...turn, saved: { id: randomUUID(), at: Date.now() } };
  const p = stateOf(convo);
  p.log ??= store.start(intern);
  if (convo.sessionId) p.log.setSession(convo.sessionId);
  p.log.saveTurn(toSaved(turn, turn.saved!.id, turn.saved!.at));
  return p.log.takeProblem();
}

/**
 * Whether the service answered in another session than the one read from disk (it no longer knew
 * it): said once, then the new one is the conversation's.
 */
export function sessionReplaced(convo: Conversation, sessionId: string): string | null {
  const p = stateOf(convo);
  const was = p.restoredSession;
  if (!was || was === sessionId) return null;
  p.restoredSession = null;
  return was;
}
