/**
 * Conversations that outlive the process: every chat with an intern saved as it happens under
 * `<state>/sessions/<host>/<intern id>/<conversation id>.jsonl` (0700 folders, 0600 files), for the
 * TUI (which continues the latest on opening a chat) and the CLI (`chat --resume`, `chat list`,
 * `chat export`). One JSON event a line, appended, never rewritten:
 *
 * - `start`: the conversation's id, the intern (id and name), the profile and the host;
 * - `session`: the service's session id (again whenever it changes);
 * - `title`: a name given to it (else its title is its first prompt);
 * - `turn`: a turn as it stands (written when the service takes the prompt and when it ends; the
 *   last line of a turn id wins, turns keep the order they first appeared in).
 *
 * Two TUIs writing the same conversation each append whole lines (`appendLines`); neither reads the
 * other's turns until it opens the conversation again. Text is sanitised before it is written and
 * again when read (a file may have been edited). A line that is not an event is skipped, a file
 * that is not a conversation is skipped, and each is said in one line (`problems`).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { ChatUsageSchema, type ChatUsage } from '../../contract/chat.js';
import { appendLines } from '../../files.js';
import { sanitize } from '../../text.js';
import { counted } from '../format.js';
import { CONVERSATION_ID } from './ids.js';
export { CONVERSATION_ID } from './ids.js';
import { notSaved, privateDir, readLines } from './stateFiles.js';

/** Where conversations are kept: what every saved one records beside its intern. */
export interface ConversationPlace {
  profile: string | null;
  /** The service's host (with its port), as the header shows it. */
  host: string;
}

export interface InternRef {
  id: string;
  name: string;
}

export type SavedStatus = 'running' | 'waiting' | 'done' | 'cancelled' | 'failed';

export interface SavedTurn {
  /** The turn's own id (random): two writers' turns never take each other's place. */
  id: string;
  /** When the prompt was sent (ms since the epoch). */
  at: number;
  prompt: string;
  reasoning?: string;
  answer: string;
  tools: { name: string; args: string }[];
  /** Steering notes ("↪ steered: …"). */
  notes: string[];
  /** What was answered to each permission request or question, in order ("→ Allow once"). */
  replies: string[];
  status: SavedStatus;
  usage?: ChatUsage;
  /** Why the turn failed, already a sentence. */
  error?: string;
}

export interface ConversationSummary extends ConversationPlace {
  id: string;
  intern: InternRef;
  title: string;
  created: number;
  /** The last turn's time (else when it was started). */
  updated: number;
  turns: number;
  /** The sum of the turns' reported costs, or null when no turn reported one. */
  cost: number | null;
  sessionId: string | null;
}

export interface SavedConversation extends ConversationSummary {
  turnList: SavedTurn[];
}

/** How long a title is kept (a first prompt is cut here). */
export const TITLE_MAX = 80;

export function newConversationId(now = new Date()): string {
  const iso = now.toISOString(); // 2026-11-28T12:45:12.345Z
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${randomBytes(2).toString('hex')}`;
}

/** A title from a prompt or a name typed: one line, cut to TITLE_MAX. */
export function titleOf(text: string): string {
  const line = sanitize(text).replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

const keep = (s: string) => sanitize(s, { multiline: true, tabs: true });

const TurnSchema = z.lazy(() => z.object({
  type: z.literal('turn'),
  id: z.string().min(1).max(100),
  at: z.number(),
  prompt: z.string(),
  reasoning: z.string().optional(),
  answer: z.string(),
  tools: z.array(z.object({ name: z.string(), args: z.string() })),
  notes: z.array(z.string()),
  replies: z.array(z.string()),
  status: z.enum(['running', 'waiting', 'done', 'cancelled', 'failed']),
  usage: ChatUsageSchema.optional(),
  error: z.string().optional(),
}));
const EventSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    v: z.literal(1),
    id: z.string(),
    intern: z.object({ id: z.string(), name: z.string() }),
    profile: z.string().nullable(),
    host: z.string(),
    at: z.number(),
  }),
  z.object({ type: z.literal('session'), session_id: z.string().min(1).max(256), at: z.number() }),
  z.object({ type: z.literal('title'), title: z.string(), at: z.number() }),
  TurnSchema,
]));
type Event = z.infer<typeof EventSchema>;

/**
 * The most of one answer, reasoning or tool input a saved turn keeps (characters): a stream may
 * carry 64 MiB (CHAT_STREAM_MAX_BYTES), and a turn is one line, read back whole and held in memory
 * while it streams. Past it the text ends with NOT_SAVED and the rest is dropped.
 */
export const SAVED_TEXT_MAX = 256 * 1024;
export const NOT_SAVED = `\n[… the rest was not saved: a saved turn keeps ${SAVED_TEXT_MAX / 1024} KiB of each text]`;

/** `text` and `more` as saved: cut at SAVED_TEXT_MAX once, after which nothing is added. */
export function savedText(text: string, more = ''): string {
  if (text.length > SAVED_TEXT_MAX && text.endsWith(NOT_SAVED)) return text;
  const whole = text + more;
  return whole.length <= SAVED_TEXT_MAX ? whole : whole.slice(0, SAVED_TEXT_MAX) + NOT_SAVED;
}

/** A turn as written and as read: every string sanitised, each text at most SAVED_TEXT_MAX. */
function cleanTurn(t: SavedTurn): SavedTurn {
  return {
    id: t.id,
    at: t.at,
    prompt: keep(t.prompt),
    ...(t.reasoning ? { reasoning: keep(savedText(t.reasoning)) } : {}),
    answer: keep(savedText(t.answer)),
    tools: t.tools.map((x) => ({ name: sanitize(x.name), args: keep(savedText(x.args)) })),
    notes: t.notes.map(keep),
    replies: t.replies.map((r) => sanitize(r)),
    status: t.status,
    ...(t.usage ? { usage: t.usage } : {}),
    ...(t.error ? { error: sanitize(t.error) } : {}),
  };
}

/** Reads one conversation file: the conversation, or why it is none. `problem` beside it: lines skipped. */
export function readConversation(path: string): { conversation: SavedConversation; problem?: string } | { problem: string; conversation?: undefined } {
  const read = readLines(path);
  if (read.problem !== undefined) return { problem: `${path}: ${read.problem}; skipped` };
  let start: Extract<Event, { type: 'start' }> | undefined;
  let bad = 0;
  let sessionId: string | null = null;
  let title: string | null = null;
  const turns = new Map<string, SavedTurn>();
  for (const line of read.lines) {
    if (line.trim() === '') continue;
    let event: Event;
    try {
      const parsed = EventSchema.safeParse(JSON.parse(line));
      if (!parsed.success) {
        bad++;
        continue;
      }
      event = parsed.data;
    } catch {
      bad++;
      continue;
    }
    if (event.type === 'start') start ??= event;
    else if (event.type === 'session') sessionId = sanitize(event.session_id);
    else if (event.type === 'title') title = titleOf(event.title);
    else {
      const { type: _, ...turn } = event;
      turns.set(turn.id, cleanTurn(turn));
    }
  }
  if (!start) return { problem: `${path}: not a conversation file (no start line); skipped` };
  const turnList = [...turns.values()];
  const costs = turnList.map((t) => t.usage?.cost).filter((c): c is number => typeof c === 'number');
  const conversation: SavedConversation = {
    id: sanitize(start.id),
    intern: { id: sanitize(start.intern.id), name: sanitize(start.intern.name) },
    profile: start.profile === null ? null : sanitize(start.profile),
    host: sanitize(start.host),
    title: title || (turnList[0] ? titleOf(turnList[0].prompt) : '(no prompt yet)'),
    created: start.at,
    updated: Math.max(start.at, ...turnList.map((t) => t.at)),
    turns: turnList.length,
    cost: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    sessionId,
    turnList,
  };
  return bad ? { conversation, problem: `${path}: ${counted(bad, 'unreadable line')} skipped` } : { conversation };
}

/** Appends to one conversation's file: the first append writes its start line. */
export class ConversationLog {
  private written: boolean;
  /** Set when a write failed (the file deleted elsewhere, a full disk): nothing more is written. */
  lost: string | null = null;
  private unsaid: string | null = null;
  sessionId: string | null;
  constructor(
    readonly path: string,
    readonly id: string,
    private readonly start: Event,
    existing: SavedConversation | null,
  ) {
    this.written = existing !== null;
    this.sessionId = existing?.sessionId ?? null;
  }

  private append(events: Event[]): void {
    if (this.lost) return;
    const lines = events.map((e) => JSON.stringify(e) + '\n').join('');
    try {
      if (!this.written) {
        privateDir(join(this.path, '..'));
        appendLines(this.path, JSON.stringify(this.start) + '\n' + lines);
        this.written = true;
      } else appendLines(this.path, lines, { create: false });
    } catch (e) {
      this.lost = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'deleted meanwhile: no longer saved' : notSaved(e);
      this.unsaid = `conversation ${this.id}: ${this.lost}`;
    }
  }

  /** Why saving stopped, once (a line to show), else null. Writing never throws. */
  takeProblem(): string | null {
    const p = this.unsaid;
    this.unsaid = null;
    return p;
  }

  /** Records the service's session id when it is new or changed. */
  setSession(sessionId: string): void {
    if (sessionId === this.sessionId) return;
    this.append([{ type: 'session', session_id: sanitize(sessionId), at: Date.now() }]);
    this.sessionId = sessionId;
  }

  saveTurn(turn: SavedTurn): void {
    this.append([{ type: 'turn', ...cleanTurn(turn) }]);
  }

  rename(title: string): void {
    this.append([{ type: 'title', title: titleOf(title), at: Date.now() }]);
  }
}

const part = (s: string) => (s === '.' || s === '..' ? encodeURIComponent(s).replace(/\./g, '%2E') : encodeURIComponent(s));

/** The conversations of one place (profile and host), by intern. */
export class ConversationStore {
  constructor(
    /** `<state>/sessions` */
    readonly dir: string,
    readonly place: ConversationPlace,
  ) {}

  private internDir(internId: string): string {
    return join(this.dir, part(this.place.host), part(internId));
  }

  /** The intern's conversations, the most recently used first, and a line for each file skipped. */
  list(internId: string): { conversations: SavedConversation[]; problems: string[] } {
    const dir = this.internDir(internId);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { conversations: [], problems: code === 'ENOENT' ? [] : [`${dir}: ${code ?? 'unreadable'}; no conversations read`] };
    }
    const conversations: SavedConversation[] = [];
    const problems: string[] = [];
    for (const name of names.sort()) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
      if (!CONVERSATION_ID.test(id)) {
        problems.push(`${join(dir, name)}: not a conversation file; skipped`);
        continue;
      }
      const read = readConversation(join(dir, name));
      if (read.problem) problems.push(read.problem);
      if (read.conversation) conversations.push({ ...read.conversation, id });
    }
    conversations.sort((a, b) => b.updated - a.updated || b.id.localeCompare(a.id));
    return { conversations, problems };
  }

  /** A conversation by its whole id or the start of it (refused when several start so). */
  find(internId: string, ref: string): { conversation: SavedConversation; problems: string[] } | { problem: string } {
    const { conversations, problems } = this.list(internId);
    const exact = conversations.find((c) => c.id === ref);
    const found = exact ? [exact] : conversations.filter((c) => c.id.startsWith(ref));
    if (found.length === 1) return { conversation: found[0]!, problems };
    if (found.length === 0) return { problem: `no saved conversation ${sanitize(ref).slice(0, 40)} with this intern${conversations.length ? ' (chat list NAME shows them)' : ''}` };
    return { problem: `${sanitize(ref).slice(0, 40)} is the start of ${found.length} conversations' ids: ${found.map((c) => c.id).join(', ')}` };
  }

  /** A new conversation with `intern`: nothing is written until its first event. */
  start(intern: InternRef, now = new Date()): ConversationLog {
    const id = newConversationId(now);
    const event: Event = { type: 'start', v: 1, id, intern: { id: intern.id, name: sanitize(intern.name) }, profile: this.place.profile, host: this.place.host, at: now.getTime() };
    return new ConversationLog(join(this.internDir(intern.id), `${id}.jsonl`), id, event, null);
  }

  /** Goes on writing a saved conversation. */
  continue(conversation: SavedConversation): ConversationLog {
    const event: Event = { type: 'start', v: 1, id: conversation.id, intern: conversation.intern, profile: conversation.profile, host: conversation.host, at: conversation.created };
    return new ConversationLog(join(this.internDir(conversation.intern.id), `${conversation.id}.jsonl`), conversation.id, event, conversation);
  }

  remove(internId: string, id: string): void {
    if (!CONVERSATION_ID.test(id)) throw new Error(`not a conversation id: ${sanitize(id).slice(0, 40)}`);
    rmSync(join(this.internDir(internId), `${id}.jsonl`), { force: true });
  }
}

export const sessionsDir = (stateDir: string): string => join(stateDir, 'sessions');
