/**
 * The local agent behind each running intern's chat: deterministic, and useful for trying a client.
 * It streams a short reasoning delta, then its answer word by word; it remembers the session; `run: CMD`
 * types CMD into the intern's own terminal (the one attach shows) and streams the output back, asking
 * permission first in manual mode; `ask: QUESTION` asks a question with a text and a choice field;
 * `fail: REASON` ends the turn with an in-stream error. See docs/sandbox.md, "The local agent".
 *
 * A run outlives the request that started it while it waits for an interaction's answer: the answer
 * arrives in a new request, whose stream the run then writes to.
 */
import { randomUUID } from 'node:crypto';
import type { ChatChunk, ChatUsage, ElicitationAnswer, ProvideInputArgs } from '../../contract/chat.js';
import { CANCEL_ANSWER, PERMISSION_OPTIONS, PROVIDE_INPUT_TOOL, checkInteractionAnswer, parseElicitationAnswer } from '../../contract/chat.js';
import { type Reason, RETRYABLE_REASONS } from '../../contract/errors.js';
import { LIMITS } from '../../contract/limits.js';
import { MODELS } from '../catalog/models.js';
import type { DaemonHub } from '../daemon/types.js';
import { HttpError } from '../errors.js';

export interface AgentOptions {
  /** Delay between streamed words; default 25 ms. */
  paceMs?: number;
  /** How long an interaction waits for its answer; default 5 minutes. */
  interactionWaitMs?: number;
  /** A `run:` command is interrupted (ctrl+c) after this long; default 60 s. */
  commandTimeoutMs?: number;
  /** Prompts per caller per minute before 429 `rate_limited`; default 60. */
  promptsPerMinute?: number;
}

/** Where a run writes: one response's event stream. */
export interface Sink {
  /** Writes one chunk as an event. */
  send(chunk: ChatChunk): void;
  /** Writes `data: [DONE]` and ends the response. */
  end(): void;
  readonly closed: boolean;
}

export interface InternInfo {
  id: string;
  name: string;
  model: string;
}

type Mode = 'manual' | 'self-drive';

interface Pending {
  id: string;
  args: ProvideInputArgs;
  resolve: (answer: string) => void;
  timer: NodeJS.Timeout;
}

class Run {
  sink: Sink | null = null;
  readonly steer: string[] = [];
  pending: Pending | null = null;
  readonly abort = new AbortController();
  completionWords = 0;
  /** The current response's id and time (each response has its own). */
  responseId = '';
  created = 0;
  constructor(
    readonly session: Session,
    readonly intern: InternInfo,
    readonly mode: Mode,
    readonly promptTokens: number,
  ) {}
}

interface Session {
  key: string;
  id: string;
  internId: string;
  principal: string;
  prompts: string[];
  run: Run | null;
  /** Operations allowed or rejected "always" in this session. */
  allowed: Set<string>;
  rejected: Set<string>;
  /** Issued by invoke (only those ids may be passed back to invoke). */
  byInvoke: boolean;
}

const sessionKey = (internId: string, principal: string, id: string) => `${internId}\u0000${principal}\u0000${id}`;

export class AgentService {
  private readonly sessions = new Map<string, Session>();
  /** The run of each intern: an intern works one turn at a time. */
  private readonly running = new Map<string, Run>();
  private readonly recent = new Map<string, number[]>();
  private readonly paceMs: number;
  private readonly interactionWaitMs: number;
  private readonly commandTimeoutMs: number;
  private readonly promptsPerMinute: number;

  constructor(
    private readonly hub: DaemonHub,
    options: AgentOptions = {},
  ) {
    this.paceMs = options.paceMs ?? 25;
    this.interactionWaitMs = options.interactionWaitMs ?? LIMITS.interactionWaitMs;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 60_000;
    this.promptsPerMinute = options.promptsPerMinute ?? 60;
  }

  /** 429 with the seconds until a prompt is allowed again, past the caller's rate. */
  private checkRate(principal: string): void {
    const now = Date.now();
    const times = (this.recent.get(principal) ?? []).filter((t) => now - t < 60_000);
    if (times.length >= this.promptsPerMinute) {
      const wait = Math.max(1, Math.ceil((60_000 - (now - times[0]!)) / 1000));
      throw new HttpError(429, 'rate_limited', `More than ${this.promptsPerMinute} prompts a minute; try again in ${wait} s`, wait);
    }
    times.push(now);
    this.recent.set(principal, times);
  }

  private session(intern: InternInfo, principal: string, id: string | undefined, byInvoke: boolean): Session {
    const sid = id ?? `sess_${randomUUID().replace(/-/g, '')}`;
    const key = sessionKey(intern.id, principal, sid);
    let s = this.sessions.get(key);
    if (!s) {
      s = { key, id: sid, internId: intern.id, principal, prompts: [], run: null, allowed: new Set(), rejected: new Set(), byInvoke };
      this.sessions.set(key, s);
    }
    return s;
  }

  /**
   * A prompt: steered into the session's running turn, refused when the intern is busy with another
   * session's turn, or the start of a new run writing to `sink` (null for invoke).
   */
  prompt(
    intern: InternInfo,
    principal: string,
    req: { sessionId?: string; text: string; mode: Mode; byInvoke?: boolean },
    sink: Sink | null,
  ): { steered: true; sessionId: string } | { steered: false; sessionId: string } {
    if (req.byInvoke && req.sessionId !== undefined) {
      const known = this.sessions.get(sessionKey(intern.id, principal, req.sessionId));
      if (!known?.byInvoke) throw new HttpError(404, 'not_found', 'Unknown session_id: invoke continues only sessions it started for you on this intern');
    }
    const session = this.session(intern, principal, req.sessionId, req.byInvoke ?? false);
    if (session.run) {
      session.run.steer.push(req.text);
      return { steered: true, sessionId: session.id };
    }
    const other = this.running.get(intern.id);
    if (other) throw new HttpError(409, 'busy', `${intern.name} is working on another session's turn; try again shortly`, 2);
    this.checkRate(principal);
    const history = session.prompts.join(' ').length;
    const run = new Run(session, intern, req.mode, Math.ceil((req.text.length + history) / 4) + 8);
    session.run = run;
    this.running.set(intern.id, run);
    this.attach(run, sink);
    void this.drive(run, req.text).finally(() => {
      if (session.run === run) session.run = null;
      if (this.running.get(intern.id) === run) this.running.delete(intern.id);
      if (run.pending) clearTimeout(run.pending.timer);
    });
    return { steered: false, sessionId: session.id };
  }

  /** The answer to the session's pending interaction; the run continues on `sink`. */
  answer(intern: InternInfo, principal: string, req: { sessionId: string; toolCallId: string; content: string }, sink: Sink): void {
    const session = this.sessions.get(sessionKey(intern.id, principal, req.sessionId));
    const pending = session?.run?.pending;
    if (!session || !session.run || !pending) {
      throw new HttpError(409, 'interaction_not_pending', 'No interaction of this session is waiting for an answer (it was answered, cancelled or timed out)');
    }
    if (pending.id !== req.toolCallId) throw new HttpError(404, 'interaction_unknown', `No interaction ${req.toolCallId.slice(0, 40)} is waiting in this session`);
    // An answer the interaction did not offer is refused and leaves it waiting (its deadline
    // unchanged), so a typo does not use it up as a rejection or an empty answer.
    const problem = checkInteractionAnswer(pending.args, req.content);
    if (problem) throw new HttpError(400, 'bad_request', problem);
    const run = session.run;
    run.pending = null;
    clearTimeout(pending.timer);
    this.attach(run, sink);
    pending.resolve(req.content);
  }

  /** The client of `sink` went away before the end: the run is cancelled (not while it waits for an answer). */
  detached(sink: Sink): void {
    for (const run of this.running.values()) {
      if (run.sink === sink) {
        run.sink = null;
        run.abort.abort();
      }
    }
  }

  /** Ends every run of an intern (it stopped): their streams get a `run_ended` error. */
  endRuns(internId: string, why: string): void {
    const run = this.running.get(internId);
    if (!run) return;
    this.fail(run, 'run_ended', why);
    run.abort.abort();
    if (run.pending) {
      clearTimeout(run.pending.timer);
      run.pending = null;
    }
    this.running.delete(internId);
    run.session.run = null;
  }

  close(): void {
    for (const id of [...this.running.keys()]) this.endRuns(id, 'The sandbox is shutting down');
  }

  private attach(run: Run, sink: Sink | null): void {
    run.sink = sink;
    run.responseId = `gen-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    run.created = Math.floor(Date.now() / 1000);
  }

  private chunk(run: Run, delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk {
    return { id: run.responseId, object: 'chat.completion.chunk', created: run.created, model: run.intern.model, choices: [{ index: 0, delta, finish_reason: finish }] };
  }

  private emit(run: Run, delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): void {
    if (run.sink && !run.sink.closed) run.sink.send(this.chunk(run, delta, finish));
  }

  /** The last chunk (no choices, the session and the usage), then [DONE]. */
  private close_(run: Run, usage: ChatUsage | null): void {
    const sink = run.sink;
    run.sink = null;
    if (!sink || sink.closed) return;
    sink.send({ id: run.responseId, object: 'chat.completion.chunk', created: run.created, model: run.intern.model, choices: [], session_id: run.session.id, usage });
    sink.end();
  }

  private usage(run: Run): ChatUsage {
    const price = MODELS.find((m) => m.id === run.intern.model)?.pricing;
    const prompt = run.promptTokens;
    const completion = Math.max(1, Math.ceil(run.completionWords * 1.3));
    const cost = price ? prompt * Number(price.prompt) + completion * Number(price.completion) : 0;
    const cached = run.session.prompts.length > 0 ? Math.min(prompt - 1, 8 * run.session.prompts.length) : 0;
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      cost: Number(cost.toFixed(8)),
      ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    };
  }

  private fail(run: Run, reason: Reason, message: string, code = 502): void {
    if (!run.sink || run.sink.closed) return;
    run.sink.send({
      ...this.chunk(run, {}, 'error'),
      error: { code, message, metadata: { reason, retryable: RETRYABLE_REASONS.has(reason) } },
    });
    this.close_(run, this.usage(run));
  }

  private sleep(run: Run, ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (run.abort.signal.aborted || ms <= 0) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        run.abort.signal.removeEventListener('abort', done);
        resolve();
      }
      run.abort.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Takes in the steering messages that came (each was answered 202 "steered"): said, and kept in the session. */
  private takeSteers(run: Run): void {
    while (run.steer.length > 0) {
      const note = run.steer.shift()!;
      run.session.prompts.push(note);
      this.emit(run, { content: `\n\n> Steered: "${clip(note, 80)}". Taking that into account.\n\n` });
    }
  }

  /** Streams text word by word, taking in any steering messages between words. */
  private async say(run: Run, text: string): Promise<void> {
    for (const word of text.split(/(?<=\s)/)) {
      if (run.abort.signal.aborted) return;
      this.takeSteers(run);
      this.emit(run, { content: word });
      run.completionWords += 1;
      await this.sleep(run, this.paceMs);
    }
  }

  /** Streams the interaction and ends this response; resolves with the answer that a later request brings. */
  private ask(run: Run, args: ProvideInputArgs): Promise<string | null> {
    const id = `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    this.emit(run, { role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: JSON.stringify(args) } }] }, 'tool_calls');
    this.close_(run, null);
    // No wait at all: nothing is pending, so an answer is refused however quickly it comes (a
    // timer of 0 ms could still lose the race to an answer already on its way).
    if (this.interactionWaitMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        run.pending = null;
        resolve(null);
      }, this.interactionWaitMs);
      timer.unref();
      run.pending = { id, args, resolve, timer };
    });
  }

  private async drive(run: Run, text: string): Promise<void> {
    const session = run.session;
    const earlier = session.prompts.slice(-1)[0];
    session.prompts.push(text);
    const trimmed = text.trim();
    const command = /^run:\s*([\s\S]+)$/i.exec(trimmed)?.[1]?.trim();
    const question = /^ask:\s*([\s\S]+)$/i.exec(trimmed)?.[1]?.trim();
    const failure = /^fail:\s*(\S+)/i.exec(trimmed)?.[1];
    this.emit(run, { role: 'assistant', reasoning: reasoningFor({ command, question }, session.prompts.length) });
    await this.sleep(run, this.paceMs * 2);
    if (run.abort.signal.aborted) return;

    if (command) return this.runCommand(run, command);
    if (question) return this.askQuestion(run, question);
    if (failure) {
      await this.say(run, 'Failing this turn on purpose, as asked. ');
      const reason = (['run_ended', 'stream_severed', 'turn_failed'].includes(failure) ? failure : 'turn_failed') as Reason;
      return this.fail(run, reason, `The turn ended with ${reason} (asked for by the prompt)`);
    }
    const memory = earlier ? `Earlier in this session you said: "${clip(earlier, 60)}". ` : 'This is the start of our session. ';
    await this.say(
      run,
      `## ${run.intern.name} here\n\nYou said: "${clip(trimmed, 200)}". ${memory}I am the sandbox's local agent, so I answer the same way every time:\n\n` +
        '- `run: <command>` runs a command in my workspace shell (the terminal attach shows)\n' +
        '- `ask: <question>` makes me ask you a question first\n' +
        '- `fail: stream_severed` ends a turn with an error\n\n' +
        `Turn ${session.prompts.length} of session \`${session.id.slice(0, 13)}\`.`,
    );
    if (!run.abort.signal.aborted) {
      this.emit(run, {}, 'stop');
      this.close_(run, this.usage(run));
    }
  }

  private async runCommand(run: Run, command: string): Promise<void> {
    const op = 'shell';
    if (run.mode === 'manual' && !run.session.allowed.has(op)) {
      let choice: string | null = run.session.rejected.has(op) ? 'reject_always' : null;
      if (!choice) {
        // The command itself goes with the request: "allow always" on a command the person cannot see is no choice.
        choice = await this.ask(run, { kind: 'permission', operation: op, input: { command }, options: [...PERMISSION_OPTIONS] });
        if (choice === null || run.abort.signal.aborted) return;
      }
      if (choice === 'allow_always') run.session.allowed.add(op);
      if (choice === 'reject_always') run.session.rejected.add(op);
      if (choice !== 'allow_once' && choice !== 'allow_always') {
        const why = choice === CANCEL_ANSWER ? 'You cancelled' : choice === 'reject_always' ? 'Shell commands are rejected for this session' : 'You rejected it';
        await this.say(run, `${why}, so I did not run \`${clip(command, 80)}\`.`);
        return this.finish(run);
      }
    }
    await this.say(run, `Running \`${clip(command, 80)}\` in my workspace:\n\n`);
    this.emit(run, { content: '```\n' });
    let bytes = 0;
    const result = await this.hub.exec({ id: run.intern.id, name: run.intern.name }, command, {
      signal: run.abort.signal,
      timeoutMs: this.commandTimeoutMs,
      onOutput: (out) => {
        if (bytes > 64 * 1024) return;
        bytes += out.length;
        this.emit(run, { content: out });
        run.completionWords += out.split(/\s+/).length;
      },
    });
    if (run.abort.signal.aborted) return;
    const tail = result.timedOut
      ? `\`\`\`\n\nStopped after ${Math.round(this.commandTimeoutMs / 1000)} s (ctrl+c).`
      : `\`\`\`\n\n${bytes > 64 * 1024 ? 'Output cut at 64 KiB. ' : ''}Exit status ${result.code}.`;
    this.emit(run, { content: tail });
    this.finish(run);
  }

  private async askQuestion(run: Run, question: string): Promise<void> {
    const raw = await this.ask(run, {
      kind: 'elicitation',
      message: question,
      fields: [
        { name: 'answer', type: 'text', title: 'Your answer', required: true },
        { name: 'confidence', type: 'choice', title: 'How sure are you?', options: ['sure', 'fairly sure', 'guessing'], required: true },
      ],
    });
    if (raw === null || run.abort.signal.aborted) return;
    // answer() let through only an answer checkInteractionAnswer takes.
    const read = parseElicitationAnswer(raw);
    const parsed: ElicitationAnswer = 'answer' in read ? read.answer : { action: CANCEL_ANSWER };
    if (parsed.action === 'accept') {
      const c = parsed.content ?? {};
      await this.say(run, `Thanks. You answered "${clip(String(c.answer ?? ''), 200)}" (${String(c.confidence ?? 'no confidence given')}) to: ${clip(question, 120)}`);
    } else await this.say(run, parsed.action === 'decline' ? 'You declined to answer; fine.' : 'You cancelled the question.');
    this.finish(run);
  }

  /**
   * Ends the turn. Steering that came while a command ran (or after the last word) is taken in
   * first, and the session is let go at once: a prompt from now on starts a turn of its own rather
   * than being answered "steered" into one that has ended.
   */
  private finish(run: Run): void {
    if (run.abort.signal.aborted) return;
    this.takeSteers(run);
    this.emit(run, {}, 'stop');
    this.close_(run, this.usage(run));
    if (run.session.run === run) run.session.run = null;
    if (this.running.get(run.intern.id) === run) this.running.delete(run.intern.id);
  }
}

/** The reasoning a turn opens with, from what drive() made of its prompt. */
function reasoningFor(prompt: { command?: string; question?: string }, turn: number): string {
  // Says which command, as a model would before it asks to run one: the permission names only the tool.
  if (prompt.command) return `The prompt asks me to run \`${clip(prompt.command, 80)}\` in my workspace shell. `;
  if (prompt.question) return 'I need an answer from the person before I go on. ';
  return turn > 1 ? 'Continuing our session; I remember what was said. ' : 'A new session: I will introduce myself and show what I can do. ';
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}
