/**
 * The sandbox's local agent: one per running intern, deterministic, so the client can be tried
 * and tested end to end. It remembers each session's prompts; it streams a short reasoning delta
 * and then its answer word by word; `run: <command>` runs the command in the intern's own
 * terminal (the one attach shows) and streams its output back, asking permission first when the
 * run is `manual`; `ask: <question>` asks a question (a text field and a choice) before answering.
 * A run outlives the HTTP stream that started it while it waits for an answer; a stream that is
 * cut before its end cancels the run. See docs/sandbox.md, "Trying the local agent".
 */
import { randomBytes } from 'node:crypto';
import {
  ElicitationAnswerSchema,
  PERMISSION_OPTION_KINDS,
  PROVIDE_INPUT_TOOL,
  type ApprovalMode,
  type ChatDelta,
  type ChatUsage,
  type ElicitationRequest,
  type PermissionRequest,
  type ProvideInputArgs,
} from '../../contract/chat.js';
import { LIMITS } from '../../contract/limits.js';
import type { Reason } from '../../contract/errors.js';
import { HttpError } from '../errors.js';

/** What a run tells the stream attached to it. */
export type TurnEvent =
  | { kind: 'delta'; delta: ChatDelta }
  | { kind: 'finish'; reason: 'stop' | 'tool_calls'; usage: ChatUsage | null }
  | { kind: 'error'; status: number; reason: Reason; message: string };

/** One HTTP stream's view of a run: events queue up until the route reads them. */
export class TurnStream {
  private readonly queue: TurnEvent[] = [];
  private wake: (() => void) | undefined;
  ended = false;

  push(event: TurnEvent): void {
    if (this.ended) return;
    this.queue.push(event);
    if (event.kind !== 'delta') this.ended = true;
    this.wake?.();
  }

  async *events(): AsyncGenerator<TurnEvent> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        if (next.kind !== 'delta') return;
        continue;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
    }
  }
}

interface Pending {
  id: string;
  args: ProvideInputArgs;
  resolve: (answer: string) => void;
  timer: NodeJS.Timeout;
}

interface Run {
  stream: TurnStream | undefined;
  abort: AbortController;
  pending: Pending | undefined;
  steers: string[];
  /** Characters in and out, for `usage`. */
  promptChars: number;
  outputChars: number;
}

interface Session {
  id: string;
  internId: string;
  /** Who may continue it (the caller's principal). */
  owner: string;
  /** Which route issued the id: invoke only continues its own. */
  origin: 'chat' | 'invoke';
  prompts: string[];
  run: Run | undefined;
  /** Every interaction id this session has asked. */
  asked: Set<string>;
  allowAlways: boolean;
  rejectAlways: boolean;
}

export interface AgentOptions {
  /** Runs a command in the intern's terminal; see DaemonHub.exec. */
  exec: (internId: string, command: string, onOutput: (text: string) => void, signal: AbortSignal) => Promise<number | null>;
  /** Pause between streamed words; default 15 ms. */
  wordDelayMs?: number;
  /** How long an interaction waits for its answer; default LIMITS.interactionWaitMs. */
  interactionWaitMs?: number;
}

export type ChatOutcome = { kind: 'stream'; session: string; stream: TurnStream; cancel: () => void } | { kind: 'steered'; session: string };

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString('base64url')}`;
const tokens = (chars: number) => Math.ceil(chars / 4);
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Escape sequences and carriage returns a terminal program prints: chat text is plain text. */
export function plainText(terminalText: string): string {
  return terminalText
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[@-_]/g, '')
    .replace(/\r+\n/g, '\n')
    .replace(/\r/g, '');
}

const QUESTION_FIELDS: ElicitationRequest['fields'] = [
  { name: 'detail', label: 'What should I know first?', type: 'text', required: true },
  { name: 'length', label: 'How long should the answer be?', type: 'choice', options: ['short', 'detailed'], required: true },
];

export class LocalAgent {
  private readonly sessions = new Map<string, Session>();
  private readonly wordDelayMs: number;
  private readonly waitMs: number;

  constructor(private readonly options: AgentOptions) {
    this.wordDelayMs = options.wordDelayMs ?? 15;
    this.waitMs = options.interactionWaitMs ?? LIMITS.interactionWaitMs;
  }

  private key(internId: string, owner: string, id: string): string {
    return JSON.stringify([internId, owner, id]);
  }

  /** 409 busy: another session's turn is streaming on this intern (one turn at a time per intern). */
  private checkBusy(internId: string, except: Session | undefined): void {
    for (const s of this.sessions.values()) {
      if (s !== except && s.internId === internId && s.run && !s.run.pending) {
        throw new HttpError(409, 'busy', 'The intern is working on another session\'s turn; try again shortly', 1);
      }
    }
  }

  private session(internId: string, owner: string, id: string | undefined, origin: Session['origin']): Session {
    const sid = id ?? randomId('sess_');
    const k = this.key(internId, owner, sid);
    let s = this.sessions.get(k);
    if (!s) {
      s = { id: sid, internId, owner, origin, prompts: [], run: undefined, asked: new Set(), allowAlways: false, rejectAlways: false };
      this.sessions.set(k, s);
    }
    return s;
  }

  /** A user prompt: steered into the session's running turn, or a new run streamed back. */
  prompt(internId: string, owner: string, sessionId: string | undefined, text: string, mode: ApprovalMode): ChatOutcome {
    const existing = sessionId === undefined ? undefined : this.sessions.get(this.key(internId, owner, sessionId));
    if (existing?.run) {
      existing.run.steers.push(text);
      return { kind: 'steered', session: existing.id };
    }
    this.checkBusy(internId, existing);
    const s = existing ?? this.session(internId, owner, sessionId, 'chat');
    const stream = new TurnStream();
    const run = this.start(s, text, mode, stream);
    return { kind: 'stream', session: s.id, stream, cancel: () => this.cancel(s, run) };
  }

  /** POST /invoke: a self-drive run nobody streams. Only sessions invoke issued to this caller continue. */
  invoke(internId: string, owner: string, sessionId: string | undefined, text: string): { session: string; status: 'started' | 'steered' } {
    let s: Session | undefined;
    if (sessionId !== undefined) {
      s = this.sessions.get(this.key(internId, owner, sessionId));
      if (!s || s.origin !== 'invoke') throw new HttpError(404, 'not_found', 'No session with this id was started by invoke for this intern');
      if (s.run) {
        s.run.steers.push(text);
        return { session: s.id, status: 'steered' };
      }
    }
    this.checkBusy(internId, s);
    s ??= this.session(internId, owner, undefined, 'invoke');
    this.start(s, text, 'self-drive', undefined);
    return { session: s.id, status: 'started' };
  }

  /** A `tool` message: the answer to the session's pending interaction, and the rest of the run streamed back. */
  answer(internId: string, owner: string, sessionId: string, toolCallId: string, content: string): ChatOutcome {
    const s = this.sessions.get(this.key(internId, owner, sessionId));
    const pending = s?.run?.pending;
    if (!s || !pending || pending.id !== toolCallId) {
      if (s?.asked.has(toolCallId)) throw new HttpError(409, 'interaction_not_pending', 'This interaction was already answered, cancelled or timed out');
      throw new HttpError(404, 'interaction_unknown', 'No interaction with this tool_call_id in this session');
    }
    checkAnswer(pending.args, content);
    const run = s.run!;
    const stream = new TurnStream();
    run.stream = stream;
    run.pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(content);
    return { kind: 'stream', session: s.id, stream, cancel: () => this.cancel(s, run) };
  }

  /** The intern stopped (suspend, delete, a status change): its runs end with `run_ended`. */
  endIntern(internId: string, why: string): void {
    for (const s of this.sessions.values()) {
      if (s.internId !== internId || !s.run) continue;
      s.run.stream?.push({ kind: 'error', status: 409, reason: 'run_ended', message: `The run ended: ${why}` });
      this.cancel(s, s.run);
    }
  }

  close(): void {
    for (const s of this.sessions.values()) if (s.run) this.cancel(s, s.run);
    this.sessions.clear();
  }

  private cancel(s: Session, run: Run): void {
    run.abort.abort();
    // Whoever still reads this run's stream learns that it is over.
    run.stream?.push({ kind: 'error', status: 409, reason: 'run_ended', message: 'The run was cancelled' });
    if (run.pending) clearTimeout(run.pending.timer);
    run.pending = undefined;
    if (s.run === run) s.run = undefined;
  }

  private start(s: Session, text: string, mode: ApprovalMode, stream: TurnStream | undefined): Run {
    const run: Run = { stream, abort: new AbortController(), pending: undefined, steers: [], promptChars: text.length, outputChars: 0 };
    s.run = run;
    s.prompts.push(text);
    void this.script(s, run, text, mode)
      .then(() => {
        run.stream?.push({ kind: 'finish', reason: 'stop', usage: this.usage(run) });
      })
      .catch((e: unknown) => {
        if (run.abort.signal.aborted) return;
        const message = e instanceof Error ? e.message : 'the turn failed';
        run.stream?.push({ kind: 'error', status: 502, reason: 'turn_failed', message: `The turn failed: ${message}` });
      })
      .finally(() => {
        if (s.run === run) s.run = undefined;
      });
    return run;
  }

  private usage(run: Run): ChatUsage {
    const prompt = tokens(run.promptChars);
    const completion = tokens(run.outputChars);
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, cost: 0 };
  }

  /* ---------- what the agent says ---------- */

  private emit(run: Run, delta: ChatDelta): void {
    if (run.abort.signal.aborted) throw new Cancelled();
    run.outputChars += (delta.content ?? '').length + (delta.reasoning ?? '').length;
    run.stream?.push({ kind: 'delta', delta });
  }

  private async reason(run: Run, text: string): Promise<void> {
    this.emit(run, { reasoning: text });
    await sleep(this.wordDelayMs, run.abort.signal);
  }

  /** Streams text word by word, taking in any steering that arrived since the last word. */
  private async say(run: Run, text: string): Promise<void> {
    const words = text.split(/(?<= )/);
    for (const word of words) {
      this.emit(run, { content: word });
      await sleep(this.wordDelayMs, run.abort.signal);
      await this.steered(run);
    }
  }

  private async steered(run: Run): Promise<void> {
    while (run.steers.length > 0) {
      const steer = run.steers.shift()!;
      run.promptChars += steer.length;
      this.emit(run, { content: `\n(Steered: you added "${steer}".)\n` });
      await sleep(this.wordDelayMs, run.abort.signal);
    }
  }

  /** Pauses the run on an interaction: streams the tool call, ends this stream, waits for the answer. */
  private ask(s: Session, run: Run, args: ProvideInputArgs): Promise<string> {
    const id = randomId('call_');
    s.asked.add(id);
    this.emit(run, { tool_calls: [{ index: 0, id, type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: JSON.stringify(args) } }] });
    run.stream?.push({ kind: 'finish', reason: 'tool_calls', usage: null });
    run.stream = undefined;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Nobody answered in time: the run ends; a late answer finds nothing pending.
        run.pending = undefined;
        run.abort.abort();
        reject(new Cancelled());
      }, this.waitMs);
      timer.unref();
      run.pending = { id, args, resolve, timer };
      run.abort.signal.addEventListener('abort', () => reject(new Cancelled()), { once: true });
    });
  }

  private async script(s: Session, run: Run, text: string, mode: ApprovalMode): Promise<void> {
    try {
      const command = /^run:\s*([\s\S]+)$/i.exec(text.trim())?.[1]?.trim();
      const question = /^ask:\s*([\s\S]+)$/i.exec(text.trim())?.[1]?.trim();
      if (command) return await this.runCommand(s, run, command, mode);
      if (question) return await this.answerQuestion(s, run, question);
      await this.reason(run, 'Reading the prompt and what this session said before.');
      const earlier = s.prompts.slice(0, -1);
      const memory =
        earlier.length === 0
          ? 'This is the first prompt of this session.'
          : `This is prompt ${earlier.length + 1} of this session; the one before was "${earlier.at(-1)}".`;
      await this.say(run, `You said: "${text}". ${memory} Try "run: <command>" or "ask: <question>".`);
    } catch (e) {
      if (e instanceof Cancelled) {
        if (!run.abort.signal.aborted) run.abort.abort();
        throw e;
      }
      throw e;
    }
  }

  private async runCommand(s: Session, run: Run, command: string, mode: ApprovalMode): Promise<void> {
    await this.reason(run, 'The prompt asks me to run a command in the workspace shell.');
    if (mode === 'manual' && !s.allowAlways) {
      if (s.rejectAlways) return this.say(run, `You chose to always reject commands in this session, so I did not run \`${command}\`.`);
      const request: PermissionRequest = { kind: 'permission', operation: `shell: ${command}`, options: [...PERMISSION_OPTION_KINDS] };
      const choice = await this.ask(s, run, request);
      if (choice === 'allow_always') s.allowAlways = true;
      if (choice === 'reject_always') s.rejectAlways = true;
      if (choice === 'cancel') return this.say(run, 'Cancelled: I did not run it.');
      if (choice.startsWith('reject')) {
        const always = choice === 'reject_always' ? ' I will not run commands in this session again.' : '';
        return this.say(run, `Understood: I did not run \`${command}\`.${always}`);
      }
    }
    this.emit(run, { content: `Running \`${command}\`:\n\`\`\`\n` });
    let last = '\n';
    const status = await this.options.exec(
      s.internId,
      command,
      (raw) => {
        if (run.abort.signal.aborted) return;
        const text = plainText(raw);
        if (text === '') return;
        last = text;
        this.emit(run, { content: text });
      },
      run.abort.signal,
    );
    if (run.abort.signal.aborted) throw new Cancelled();
    if (status === null) throw new Error('the workspace terminal ended before the command finished');
    this.emit(run, { content: `${last.endsWith('\n') ? '' : '\n'}\`\`\`\n` });
    await this.say(run, `Exit status ${status}.`);
    await this.steered(run);
  }

  private async answerQuestion(s: Session, run: Run, question: string): Promise<void> {
    await this.reason(run, 'I need a little more detail before I answer.');
    const request: ElicitationRequest = { kind: 'elicitation', message: `Before I answer "${question}":`, fields: QUESTION_FIELDS };
    const raw = await this.ask(s, run, request);
    const answer = ElicitationAnswerSchema.parse(JSON.parse(raw));
    if (answer.action === 'cancel') return this.say(run, 'Cancelled: I will not answer it.');
    if (answer.action === 'decline') return this.say(run, `Without more detail, my answer to "${question}" is: it depends.`);
    const detail = String(answer.content?.detail ?? '');
    const length = String(answer.content?.length ?? 'short');
    const body =
      length === 'detailed'
        ? `You asked "${question}" and told me "${detail}". A detailed answer: I am the sandbox's local agent, so I answer from what you tell me; you said "${detail}", and that is the best answer I have.`
        : `You asked "${question}" and told me "${detail}". Short answer: "${detail}".`;
    await this.say(run, body);
  }
}

class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** A `tool` answer must fit the interaction: an offered option (or cancel), or a well-formed question answer. */
function checkAnswer(args: ProvideInputArgs, content: string): void {
  const bad = (why: string) => new HttpError(400, 'bad_request', why);
  if (args.kind === 'permission') {
    if (content !== 'cancel' && !args.options.includes(content)) throw bad(`The answer must be one of ${[...args.options, 'cancel'].join(', ')}`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    throw bad('The answer to a question must be a JSON object {"action": ..., "content": {...}}');
  }
  const parsed = ElicitationAnswerSchema.safeParse(value);
  if (!parsed.success) throw bad('The answer to a question must be {"action": "accept"|"decline"|"cancel", "content"?: {...}}');
  if (parsed.data.action !== 'accept') return;
  for (const field of args.fields) {
    const v = parsed.data.content?.[field.name];
    if (v === undefined || v === '') {
      if (field.required) throw bad(`${field.name}: required`);
      continue;
    }
    if (field.options && !field.options.includes(String(v))) throw bad(`${field.name}: must be one of ${field.options.join(', ')}`);
  }
}
