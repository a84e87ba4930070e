/**
 * Saved conversations on the command line: `chat list NAME`, `chat export NAME`, and what `chat`
 * itself needs to save its turns and continue one (`--resume`). The store is the TUI's
 * (src/tui/state/conversations.ts), under the state folder (`stateDir`).
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { ChatChunk } from '../../contract/chat.js';
import type { Intern } from '../../contract/intern.js';
import { sanitize } from '../../text.js';
import { costText } from '../../tui/format.js';
import { ConversationStore, savedText, sessionsDir, type ConversationLog, type SavedConversation, type SavedTurn } from '../../tui/state/conversations.js';
import { EXPORT_FORMATS, toJsonl, toMarkdown, type ExportFormat } from '../../tui/state/exportConversation.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT, usageError } from '../exit.js';
import { resolveIntern } from '../resolve.js';
import { explainFileError, writeFileAtomic } from '../../files.js';
import { stateDir } from '../settings.js';

/** The store for this command's service and profile, or null where no state folder is known (no HOME). */
export function conversationStore(ctx: RunContext): ConversationStore | null {
  const dir = stateDir(ctx.io.env);
  if (dir === null) return null;
  // The built-in sandbox (no signed-in service) is 127.0.0.1, as the TUI calls it.
  const place = ctx.signedIn ? { profile: ctx.signedIn.profile, host: new URL(ctx.signedIn.baseUrl).host } : { profile: null, host: '127.0.0.1' };
  return new ConversationStore(sessionsDir(dir), place);
}

/**
 * One turn as the CLI streams it, saved when the service takes it and when it ends. The chat
 * command calls `chunk` for each chunk, `reply` for each answer it gives, and `end`.
 */
export class TurnRecorder {
  private readonly turn: SavedTurn;
  /** Where each streamed tool call (by its index) is in `turn.tools`. */
  private readonly toolAt = new Map<number, number>();
  constructor(
    private readonly log: ConversationLog,
    prompt: string,
    private readonly warn: (message: string) => void,
  ) {
    this.turn = { id: randomUUID(), at: Date.now(), prompt, answer: '', tools: [], notes: [], replies: [], status: 'running' };
  }

  private save(): void {
    this.log.saveTurn(this.turn);
    const problem = this.log.takeProblem();
    if (problem) this.warn(problem);
  }

  chunk(chunk: ChatChunk): void {
    const known = this.log.sessionId;
    if (chunk.session_id && known && chunk.session_id !== known) {
      this.warn(`the service no longer knows session ${sanitize(known)}: the conversation goes on in its new session ${sanitize(chunk.session_id)} (the intern does not remember the earlier turns)`);
    }
    const first = this.turn.answer === '' && this.turn.tools.length === 0 && !this.turn.reasoning;
    for (const choice of chunk.choices) {
      const d = choice.delta;
      // Kept as it will be saved (savedText): a stream of 64 MiB is not held here in full.
      if (d.reasoning) this.turn.reasoning = savedText(this.turn.reasoning ?? '', d.reasoning);
      if (d.content) this.turn.answer = savedText(this.turn.answer, d.content);
      for (const call of d.tool_calls ?? []) {
        const at = this.toolAt.get(call.index);
        if (at === undefined) {
          this.toolAt.set(call.index, this.turn.tools.length);
          this.turn.tools.push({ name: call.function.name, args: call.function.arguments ?? '' });
        } else {
          const prev = this.turn.tools[at]!;
          this.turn.tools[at] = { name: call.function.name || prev.name, args: savedText(prev.args, call.function.arguments ?? '') };
        }
      }
    }
    if (chunk.usage) this.turn.usage = chunk.usage;
    if (chunk.session_id) this.log.setSession(chunk.session_id);
    if (first && chunk.choices.length) this.save();
  }

  /** An answer given to the turn's permission request or question (what was chosen, never a field's value); a new stream follows. */
  reply(note: string): void {
    this.turn.replies.push(note);
    this.toolAt.clear();
  }

  note(text: string): void {
    this.turn.notes.push(text);
  }

  end(status: SavedTurn['status'], error?: string): void {
    this.turn.status = status;
    if (error) this.turn.error = error;
    this.save();
  }
}

/** Runs a turn, saving how it ended: done, cancelled (ctrl+c, a signal) or failed (with why). */
export async function recordTurn(rec: TurnRecorder | null, run: (rec: TurnRecorder | undefined) => Promise<void>, signal: AbortSignal): Promise<void> {
  try {
    await run(rec ?? undefined);
    rec?.end('done');
  } catch (e) {
    const stopped = signal.aborted || (e instanceof CliError && e.exitCode === EXIT.interrupted);
    rec?.end(stopped ? 'cancelled' : 'failed', stopped ? undefined : e instanceof Error ? e.message : String(e));
    throw e;
  }
}

/** What `chat` saves into: a new conversation, or the one `--resume` names; nothing without a state folder. */
export interface Saving {
  resumed: SavedConversation | null;
  recorder(prompt: string): TurnRecorder | null;
}

export function startSaving(ctx: RunContext, intern: Intern): Saving {
  const store = conversationStore(ctx);
  const ref = ctx.text('resume');
  if (!store) {
    if (ref !== undefined) throw new CliError(EXIT.failed, 'no state folder to resume from: set HOME or XDG_STATE_HOME');
    return { resumed: null, recorder: () => null };
  }
  const resumed = ref === undefined ? null : resumeConversation(ctx, store, intern, ref);
  let log: ConversationLog | null = null;
  return {
    resumed,
    recorder: (prompt) => {
      log ??= resumed ? store.continue(resumed) : store.start(intern);
      return new TurnRecorder(log, prompt, ctx.warn);
    },
  };
}

/**
 * `--resume [ID]`: the conversation to continue (the latest with the intern, or ID), or a new one
 * when there is none to continue. Says which, on stderr.
 */
export function resumeConversation(ctx: RunContext, store: ConversationStore, intern: Intern, ref: string): SavedConversation | null {
  const found = ref === '' ? latestOf(ctx, store, intern.id) : store.find(intern.id, ref);
  if (found === null) {
    ctx.out.note(`intern-tui: no saved conversation with ${sanitize(intern.name)} yet; starting one`);
    return null;
  }
  if ('problem' in found) throw usageError(found.problem);
  for (const p of found.problems) ctx.warn(p);
  return found.conversation;
}

function latestOf(ctx: RunContext, store: ConversationStore, internId: string): { conversation: SavedConversation; problems: string[] } | null {
  const { conversations, problems } = store.list(internId);
  if (!conversations[0]) {
    for (const p of problems) ctx.warn(p);
    return null;
  }
  return { conversation: conversations[0], problems };
}

/** The saved transcript, before a resumed conversation goes on: each prompt and its answer. */
export async function replayTranscript(ctx: RunContext, c: SavedConversation): Promise<void> {
  ctx.out.note(`Continuing "${c.title}" (${c.id}, ${c.turns} turn${c.turns === 1 ? '' : 's'}):`);
  for (const t of c.turnList) {
    await ctx.out.say(`prompt> ${t.prompt}\n`);
    if (t.answer) await ctx.out.say(t.answer.endsWith('\n') ? t.answer : `${t.answer}\n`);
  }
}

/** The store, or exit 1 saying why there is none. */
function needStore(ctx: RunContext): ConversationStore {
  const store = conversationStore(ctx);
  if (!store) throw new CliError(EXIT.failed, 'no state folder: set HOME or XDG_STATE_HOME (conversations are kept under $XDG_STATE_HOME/intern-tui)');
  return store;
}

const date = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** `chat list NAME`: the intern's saved conversations, the most recent first. */
export async function list(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const store = needStore(ctx);
  const { conversations, problems } = store.list(intern.id);
  for (const p of problems) ctx.warn(p);
  if (ctx.out.json) {
    ctx.out.printJson(
      conversations.map((c) => ({ id: c.id, title: c.title, created: new Date(c.created).toISOString(), updated: new Date(c.updated).toISOString(), turns: c.turns, cost: c.cost, session_id: c.sessionId, intern: c.intern, profile: c.profile, host: c.host })),
    );
    return EXIT.ok;
  }
  ctx.out.list(
    conversations,
    [
      { header: 'ID', get: (c) => c.id, keep: true },
      { header: 'UPDATED', get: (c) => date(c.updated), keep: true },
      { header: 'TURNS', get: (c) => c.turns, keep: true },
      { header: 'COST', get: (c) => (c.cost === null ? '' : costText(c.cost)) },
      { header: 'TITLE', get: (c) => c.title },
    ],
    `no saved conversations with ${sanitize(intern.name)}`,
  );
  return EXIT.ok;
}
list.jsonFields = ['id', 'title', 'created', 'updated', 'turns', 'cost', 'session_id', 'intern', 'profile', 'host'];

/** `chat export NAME [--session ID] --format md|jsonl [-o FILE]`: the latest conversation, or ID's. */
export async function exportConversation(ctx: RunContext): Promise<number> {
  const format = ctx.text('format');
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) throw usageError(`--format must be ${EXPORT_FORMATS.join(' or ')}${format === undefined ? '' : `, not "${format.slice(0, 20)}"`}`);
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const store = needStore(ctx);
  const ref = ctx.text('session');
  const found = ref === undefined ? latestOf(ctx, store, intern.id) : store.find(intern.id, ref);
  if (found === null) throw new CliError(EXIT.failed, `no saved conversation with ${sanitize(intern.name)}`);
  if ('problem' in found) throw usageError(found.problem);
  for (const p of found.problems) ctx.warn(p);
  const text = format === 'md' ? toMarkdown(found.conversation) : toJsonl(found.conversation);
  const out = ctx.text('output');
  if (out === undefined || out === '-') {
    await ctx.out.say(text);
    return EXIT.ok;
  }
  try {
    writeFileAtomic(resolve(out), text);
  } catch (e) {
    throw new CliError(EXIT.failed, `could not write ${out}: ${explainFileError(e)}`);
  }
  ctx.out.note(`wrote ${found.conversation.id} (${found.conversation.turns} turns) to ${out}`);
  return EXIT.ok;
}
