/**
 * `chat NAME [PROMPT]`: one prompt, the answer streamed to stdout; on a terminal without PROMPT, a
 * conversation, prompt after prompt in one session, until ctrl+d. Permission requests and questions
 * are asked on stderr when there is a terminal; without one `--approve`/`--deny` answers permissions.
 * `--json` prints each chunk as NDJSON. `--no-wait` starts a self-drive run through `POST /invoke`
 * instead and prints its session id (for cron jobs and scripts that do not wait for the answer).
 * The answer is written as the reader takes it (Output.say waits for `drain`); a turn that shows
 * nothing for a while says so on a terminal's stderr, and `--idle-timeout` gives up on it.
 */
import { randomUUID } from 'node:crypto';
import { CANCEL_ANSWER, ChatChunkSchema, InvokeResultSchema, checkSessionId, SteeredSchema, answerMessages, elicitationAnswer, optionLabel, parseProvideInput, promptTooLong, type ChatChunk, type ChatMessage, type ChatToolCall, type ElicitationRequest, type PermissionRequest } from '../../contract/chat.js';
import { schemaFields } from '../../contract/read.js';
import { checkName } from '../../contract/rules.js';
import { quoted, sanitize } from '../../text.js';
import type { InternApi } from '../../client/types.js';
import type { RunContext } from '../context.js';
import { formatDuration, parseDuration } from '../duration.js';
import { CliError, EXIT, refuseWrong, usageError } from '../exit.js';
import { askLine, askPrompt, readAll } from '../input.js';
import { isPlainId, shellQuote } from '../quote.js';
import { resolveIntern } from '../resolve.js';
import { exitCodeOf } from '../exitCode.js';
import { recordTurn, replayTranscript, startSaving, type Saving, type TurnRecorder } from './chatSessions.js';

/** An interaction this run cannot answer (no terminal, no --approve/--deny): it is cancelled, then the command exits 2. */
class Unanswerable extends CliError {
  constructor(message: string) {
    super(EXIT.usage, message);
  }
}

/**
 * Answers `cancel` so the intern is not left waiting for 5 minutes. Unanswered (no terminal), the
 * short turn that follows is read unseen; `stop` (ctrl+c at the question) closes its stream at
 * once, which cancels the run as well.
 */
async function cancelInteraction(api: InternApi, internId: string, sessionId: string, call: ChatToolCall, kind: 'permission' | 'elicitation', signal: AbortSignal, stop = false): Promise<void> {
  try {
    const content = kind === 'permission' ? CANCEL_ANSWER : elicitationAnswer({ action: CANCEL_ANSWER });
    const closing = new AbortController();
    const start = await api.chat(internId, { messages: answerMessages(call, content), stream: true, session_id: sessionId }, { signal: AbortSignal.any([signal, closing.signal]) });
    // Aborted, the stream's first read cancels its body unread.
    if (stop) closing.abort();
    if (start.kind === 'stream') for await (const _ of start.events) void _;
  } catch {
    // Best effort: the interaction times out on its own.
  }
}

/** ctrl+c at a question on the terminal (readline takes it there, rather than the process). */
const interruptedAt = (e: unknown): boolean => e instanceof CliError && e.exitCode === EXIT.interrupted;

const ask = (ctx: RunContext, question: string): Promise<string> => askLine(ctx.io, question, ctx.signal);

const interactive = (ctx: RunContext) => ctx.out.canAsk;

/** What is wrong with a prompt as typed, or null. */
function promptProblem(prompt: string): string | null {
  if (prompt.trim() === '') return 'the prompt is empty: give PROMPT, or pipe it in on stdin';
  return promptTooLong(prompt);
}

/** PROMPT, else one asked for on the terminal, else stdin (a conversation asks for its prompts itself). */
async function readPrompt(ctx: RunContext): Promise<string> {
  const given = ctx.positionals[1] ?? (interactive(ctx) ? ((await askPrompt(ctx.io, 'prompt> ', ctx.signal)) ?? '') : await readAll(ctx.io.stdin));
  const prompt = given.replace(/\r?\n$/, '');
  const problem = promptProblem(prompt);
  if (problem) throw usageError(problem);
  return prompt;
}

/** The option an unattended --approve/--deny picks: the `_once` kind, else any of that family. */
function pickOption(options: string[], allow: boolean): string | undefined {
  const family = allow ? 'allow' : 'reject';
  return options.find((o) => o === `${family}_once`) ?? options.find((o) => o.startsWith(family));
}

async function answerPermission(ctx: RunContext, req: PermissionRequest): Promise<string> {
  const what = sanitize(req.operation ?? 'an operation');
  if (ctx.values.approve || ctx.values.deny) {
    const choice = pickOption(req.options, ctx.values.approve === true);
    if (!choice) throw new CliError(EXIT.failed, `the intern asks permission for ${what}, and offers no ${ctx.values.approve ? 'allow' : 'reject'} option (${req.options.map((o) => sanitize(o)).join(', ')})`);
    ctx.out.note(`intern-tui: permission for ${what}: ${sanitize(optionLabel(choice))}`);
    return choice;
  }
  if (!interactive(ctx)) throw new Unanswerable(`the intern asks permission for ${what}: pass --approve or --deny (there is no terminal to ask on); the request was cancelled`);
  ctx.out.note(`\nThe intern asks permission for ${what}:`);
  req.options.forEach((o, i) => ctx.out.note(`  ${i + 1}) ${sanitize(optionLabel(o))}`));
  for (;;) {
    const a = (await ask(ctx, `choose 1-${req.options.length} (empty cancels): `)).trim();
    if (a === '') return CANCEL_ANSWER;
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= req.options.length) return req.options[n - 1]!;
  }
}

async function answerQuestion(ctx: RunContext, req: ElicitationRequest): Promise<string> {
  if (!interactive(ctx)) throw new Unanswerable(`the intern asks a question ("${sanitize(req.message).slice(0, 200)}"): run chat in a terminal to answer it; the question was cancelled`);
  ctx.out.note(`\n${req.message}`);
  const content: Record<string, string | number | boolean> = {};
  for (const f of req.fields) {
    const label = sanitize(f.title ?? f.name);
    const options = f.options?.map((o) => sanitize(o));
    const hint = options?.length ? ` (${options.map((o, i) => `${i + 1}) ${o}`).join(', ')})` : f.type === 'boolean' ? ' (y/n)' : '';
    for (;;) {
      const a = (await ask(ctx, `${label}${hint}${f.required ? '' : ' [optional]'}: `)).trim();
      if (a === '') {
        if (f.required) continue;
        break;
      }
      if (f.options?.length) {
        const n = Number(a);
        const picked = Number.isInteger(n) && n >= 1 && n <= f.options.length ? f.options[n - 1] : f.options.find((o) => o === a);
        if (picked === undefined) continue;
        content[f.name] = picked;
      } else if (f.type === 'boolean') content[f.name] = /^(y|yes|true)$/i.test(a);
      else if (f.type === 'number') {
        if (!Number.isFinite(Number(a))) continue;
        content[f.name] = Number(a);
      } else content[f.name] = a;
      break;
    }
  }
  return elicitationAnswer({ action: 'accept', content });
}

/**
 * `--no-wait`: the run starts (or the prompt joins the session's running turn) and the command
 * returns. stdout holds the session id alone, so that `sid=$(intern-tui chat … --no-wait)` works.
 */
async function startRun(ctx: RunContext, api: InternApi, intern: { id: string; name: string }, prompt: string): Promise<number> {
  const session = ctx.text('session');
  const run = await api.invoke(intern.id, { input: prompt, ...(session ? { session_id: session } : {}) }, { signal: ctx.signal });
  if (ctx.out.json) {
    await ctx.out.ndjson(run);
    return EXIT.ok;
  }
  await ctx.out.say(`${sanitize(run.session_id)}\n`);
  const flag = sessionFlag({ id: run.session_id, fromService: true });
  ctx.out.note(
    run.status === 'steered'
      ? `intern-tui: the session's turn was still running; the prompt was added to it`
      : `intern-tui: ${sanitize(intern.name)} started a self-drive run; ${flag.ok ? `add to its session with --no-wait ${flag.flag}` : flag.why}`,
  );
  return EXIT.ok;
}

/**
 * A conversation on a terminal (chat NAME, no PROMPT): prompt after prompt in one session, as
 * `llm chat` or `ollama run` do. An empty line asks again; ctrl+d, or `exit` or `quit` alone (with
 * or without a slash, and ollama's `/bye`), ends it (exit 0); ctrl+c stops
 * the turn (while its answer streams, or at its permission request or question), and at the
 * prompt ends the command (130). A turn the service fails is
 * reported and the conversation goes on; a refused credential ends it.
 */
async function converse(ctx: RunContext, api: InternApi, intern: { id: string; name: string }, saving: Saving): Promise<number> {
  // The service names a new session only in a turn's last chunk: an id of our own (an unknown id
  // starts a session under it, as the TUI's chat does) keeps a turn stopped half way in it.
  const session: Session = { id: ctx.text('session') ?? saving.resumed?.sessionId ?? randomUUID(), fromService: false };
  const named = ctx.values.session !== undefined;
  if (saving.resumed) await replayTranscript(ctx, saving.resumed);
  ctx.out.note(`Chatting with ${sanitize(intern.name)}${named ? ` in session ${sanitize(session.id)}` : ''}; ctrl+d or exit ends.`);
  for (;;) {
    const line = await askPrompt(ctx.io, 'prompt> ', ctx.signal);
    if (line === null || ENDS_CONVERSATION.test(line)) break;
    if (line.trim() === '') continue;
    const problem = promptProblem(line);
    if (problem) {
      ctx.out.error(problem, { exit: EXIT.usage });
      continue;
    }
    // ctrl+c while the answer streams stops this turn's stream, not the conversation.
    const stop = new AbortController();
    ctx.interrupts.handler = () => stop.abort(new Error('stopped'));
    try {
      const signal = AbortSignal.any([ctx.signal, stop.signal]);
      await recordTurn(saving.recorder(line), (rec) => turn(ctx, api, intern, line, session, idleTimeoutOf(ctx), signal, rec), signal);
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      // Closing a turn's stream cancels its run (the service's rule), as ctrl+c at its question does.
      if (stop.signal.aborted || interruptedAt(e)) ctx.out.note(`${stop.signal.aborted ? '\n' : ''}intern-tui: stopped the turn; ctrl+d or exit ends the conversation`);
      else if (exitCodeOf(e, false) === EXIT.failed) ctx.out.error(e instanceof Error ? e.message : String(e), { exit: EXIT.failed });
      else throw e;
    } finally {
      ctx.interrupts.handler = null;
    }
    // A blank line between an answer and the next prompt.
    ctx.out.note('');
  }
  tellSession(ctx, session);
  return EXIT.ok;
}

/** A prompt that ends a conversation instead of being sent, as in `llm chat` and `ollama run`. */
const ENDS_CONVERSATION = /^\s*\/?(?:exit|quit|bye)\s*$/i;

/** The session a turn runs in: set as soon as the service names it, so a turn stopped half way keeps it. */
interface Session {
  id: string | undefined;
  /** Named by the service (a chunk's session_id), not typed by the user or made up here. */
  fromService: boolean;
}

/**
 * `--session ID` for a command the user is told to run, ID quoted for the shell; a session id the
 * service named goes in only when it is a plain id (isPlainId), and one typed with control
 * characters not at all (a line break would fake another line): else `why` says so instead.
 */
function sessionFlag(session: { id: string; fromService: boolean }): { ok: true; flag: string } | { ok: false; why: string } {
  if (!isPlainId(session.id)) {
    if (session.fromService) return { ok: false, why: `the service named a session id that is not a plain id (${quoted(session.id, 60)}), so no command to paste is given` };
    if (sanitize(session.id) !== session.id) return { ok: false, why: `the session id holds control characters (${quoted(session.id, 60)}), so no command to paste is given` };
  }
  return { ok: true, flag: `--session ${shellQuote(session.id)}` };
}

/** The last line on stderr: how to go on in the session. */
function tellSession(ctx: RunContext, session: Session): void {
  if (!session.id) return;
  const flag = sessionFlag({ id: session.id, fromService: session.fromService });
  // One line: a session id is the service's word, and a line break in it would fake another line.
  ctx.out.note(flag.ok ? `session: ${sanitize(session.id)} (continue with ${flag.flag})` : `session: ${flag.why}`);
}

/** How an intern is named in a command to paste: by its name when that is a plain name (the service's rule), else by its id. */
const internArg = (intern: { id: string; name: string }) => shellQuote(checkName(intern.name) === null ? intern.name : intern.id);

/** How long a turn shows nothing before a terminal's stderr says the intern is still working. */
const STILL_WORKING_AFTER_MS = 2000;

/** `--idle-timeout`, in ms; undefined when not given, or 0s (wait without end). */
function idleTimeoutOf(ctx: RunContext): number | undefined {
  const text = ctx.text('idle-timeout');
  if (text === undefined) return undefined;
  return parseDuration(text, '--idle-timeout') || undefined;
}

/**
 * Watches a turn's silence, from its start or from what was last written on stdout, whichever is
 * later (a write that waits for the reader counts as output: the intern is not the one idle then).
 * On a terminal, after STILL_WORKING_AFTER_MS, stderr shows that the intern is still working and
 * for how long, one line redrawn every second and erased by the next output (Output.status). At
 * `timeoutMs` of silence it calls `giveUp`. Answers the function that stops watching.
 */
function watchSilence(ctx: RunContext, name: string, timeoutMs: number | undefined, giveUp: () => void): () => void {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = performance.now();
    const quiet = ctx.out.waitingForReader ? 0 : now - Math.max(started, ctx.out.lastOutputAt);
    if (timeoutMs !== undefined && quiet >= timeoutMs) return giveUp();
    if (quiet >= STILL_WORKING_AFTER_MS) {
      const limit = timeoutMs === undefined ? '' : ` (--idle-timeout ${formatDuration(timeoutMs)})`;
      ctx.out.status(`${name} is still working: nothing new for ${formatDuration(Math.floor(quiet / 1000) * 1000)}${limit}; ctrl+c stops`);
    }
    const nextSecond = 1000 - (quiet % 1000);
    timer = setTimeout(check, Math.max(1, Math.min(nextSecond, timeoutMs === undefined ? Infinity : timeoutMs - quiet)));
  };
  timer = setTimeout(check, Math.min(1000, timeoutMs ?? 1000));
  return () => {
    clearTimeout(timer);
    ctx.out.clearStatus();
  };
}

/** One prompt's turn, its permission requests and questions answered. */
async function turn(ctx: RunContext, api: InternApi, intern: { id: string; name: string }, prompt: string, session: Session, idleMs: number | undefined, signal = ctx.signal, rec?: TurnRecorder): Promise<void> {
  let messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  let endedWithNewline = true;
  for (;;) {
    // --idle-timeout closes the stream (which cancels the run) after that long with nothing new.
    const idle = new AbortController();
    const stopWatching = watchSilence(ctx, sanitize(intern.name), idleMs, () => idle.abort(new Error('idle')));
    let pending: ChatToolCall | undefined;
    let failure: ChatChunk['error'];
    try {
      const start = await api.chat(
        intern.id,
        { messages, stream: true, approval_mode: ctx.values['self-drive'] ? 'self-drive' : 'manual', ...(session.id ? { session_id: session.id } : {}) },
        { signal: AbortSignal.any([signal, idle.signal]) },
      );
      if (start.kind === 'steered') {
        stopWatching();
        if (ctx.out.json) await ctx.out.ndjson({ session_id: start.session_id, status: 'steered' });
        ctx.out.note(`intern-tui: the session ${sanitize(start.session_id)} was already running; the prompt was added to its turn`);
        Object.assign(session, { id: start.session_id, fromService: true });
        rec?.note('↪ steered into the running turn');
        return;
      }
      for await (const chunk of start.events) {
        if (ctx.out.json) await ctx.out.ndjson(chunk);
        rec?.chunk(chunk);
        if (chunk.session_id) Object.assign(session, { id: chunk.session_id, fromService: true });
        if (chunk.error) failure = chunk.error;
        for (const choice of chunk.choices) {
          const text = choice.delta.content;
          if (text && !ctx.out.json) {
            // Control characters are removed piped too: `chat … | cat` or `| less -R` still reaches a terminal.
            endedWithNewline = (await ctx.out.say(text)).endsWith('\n');
          }
          for (const call of choice.delta.tool_calls ?? []) pending = call;
        }
      }
    } catch (e) {
      stopWatching();
      // The error goes on a line of its own, not glued to the answer's last words.
      if (!ctx.out.json && !endedWithNewline) await ctx.out.say('\n');
      if (idle.signal.aborted && !signal.aborted) throw idleError(intern, session, idleMs!);
      throw e;
    }
    stopWatching();
    if (!ctx.out.json && !endedWithNewline) {
      await ctx.out.say('\n');
      endedWithNewline = true;
    }
    if (failure) {
      const reason = failure.metadata?.reason ? ` (${failure.metadata.reason})` : '';
      throw new CliError(failure.code === 401 || failure.code === 403 ? EXIT.auth : EXIT.failed, `the run failed${reason}: ${failure.message}`, false, {
        code: failure.code,
        reason: failure.metadata?.reason ?? null,
      });
    }
    if (!pending) return;
    const request = parseProvideInput(pending);
    if (!request) throw new CliError(EXIT.failed, `the intern called a tool this client does not know: ${sanitize(pending.function.name)}`);
    const sessionId = session.id;
    if (!sessionId) throw new CliError(EXIT.failed, 'the service asked for input without giving a session id');
    let answer: string;
    try {
      answer = request.kind === 'permission' ? await answerPermission(ctx, request) : await answerQuestion(ctx, request);
    } catch (e) {
      if (e instanceof Unanswerable || interruptedAt(e)) await cancelInteraction(api, intern.id, sessionId, pending, request.kind, signal, !(e instanceof Unanswerable));
      throw e;
    }
    rec?.reply(request.kind === 'permission' ? `→ ${optionLabel(answer)}` : '→ answered the question');
    messages = answerMessages(pending, answer);
  }
}

/** --idle-timeout ran out: the turn's stream was closed (which cancels its run); how to go on in its session. */
function idleError(intern: { id: string; name: string }, session: Session, idleMs: number): CliError {
  const flag = session.id ? sessionFlag({ id: session.id, fromService: session.fromService }) : null;
  const resume = !flag ? '' : flag.ok ? `; to go on in its session: intern-tui chat ${internArg(intern)} ${flag.flag} PROMPT` : `; ${flag.why}`;
  return new CliError(EXIT.failed, `nothing new from ${sanitize(intern.name)} for ${formatDuration(idleMs)} (--idle-timeout): stopped waiting, which cancels the turn${resume}`, false, { reason: 'idle_timeout' });
}

export async function chat(ctx: RunContext): Promise<number> {
  if (ctx.values.approve && ctx.values.deny) throw usageError('give --approve or --deny, not both');
  // A duration with its unit, before anything is sent.
  const idleMs = idleTimeoutOf(ctx);
  if (ctx.values['no-wait'] && ctx.text('idle-timeout') !== undefined) throw usageError('--no-wait does not wait for the answer: drop --idle-timeout');
  // By the service's rule, before anything is sent (an empty one is refused by the parser).
  const sessionId = ctx.text('session');
  if (sessionId !== undefined) refuseWrong([['--session', checkSessionId(sessionId)]]);
  if (ctx.values.resume !== undefined && (sessionId !== undefined || ctx.values['no-wait'])) throw usageError(`--resume continues a saved conversation in its own session: drop ${sessionId !== undefined ? '--session' : '--no-wait'}`);
  if (ctx.values['no-wait'] && (ctx.values.approve || ctx.values.deny)) {
    throw usageError('--no-wait runs the intern self-drive, so nothing asks for permission: drop --approve/--deny');
  }
  // Under --json or --no-wait the one prompt is asked for once, as a script's output is one run.
  const conversation = ctx.positionals[1] === undefined && interactive(ctx) && !ctx.out.json && !ctx.values['no-wait'];
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  // A --no-wait run has no transcript here to save; everything else is saved as it streams.
  const saving = startSaving(ctx, intern);
  if (conversation) return converse(ctx, api, intern, saving);
  const prompt = await readPrompt(ctx);
  if (ctx.values['no-wait']) return startRun(ctx, api, intern, prompt);
  // Under --idle-timeout the turn may be stopped before the service names its session (in the last
  // chunk): an id of our own (an unknown id starts a session under it) lets the message name it.
  const session: Session = { id: ctx.text('session') ?? saving.resumed?.sessionId ?? (idleMs !== undefined ? randomUUID() : undefined), fromService: false };
  // Said once however the turn ends: at its end, on ctrl+c (130), and on SIGTERM or SIGHUP, which
  // end the process once the command's cleanup has run (so the turn's own end may never come).
  let told = ctx.out.json;
  const tell = () => {
    if (told) return;
    told = true;
    tellSession(ctx, session);
  };
  ctx.cleanup.push(async () => tell());
  try {
    await recordTurn(saving.recorder(prompt), (rec) => turn(ctx, api, intern, prompt, session, idleMs, ctx.signal, rec), ctx.signal);
  } finally {
    tell();
  }
  return EXIT.ok;
}
// Under --json every line is a chunk, or the one `steered` answer (or, with --no-wait, the one
// invoke answer); FIELDS keeps those fields of each.
chat.jsonFields = [...new Set([...schemaFields(ChatChunkSchema), ...schemaFields(SteeredSchema), ...schemaFields(InvokeResultSchema)])];
