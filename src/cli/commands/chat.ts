/**
 * `chat NAME [PROMPT]`: one prompt, the answer streamed to stdout. Permission requests and questions
 * are asked on stderr when there is a terminal; without one `--approve`/`--deny` answers permissions.
 * `--json` prints each chunk as NDJSON.
 */
import { answerMessages, elicitationAnswer, optionLabel, parseProvideInput, type ChatChunk, type ChatMessage, type ChatToolCall, type ElicitationRequest, type PermissionRequest } from '../../contract/chat.js';
import { LIMITS } from '../../contract/limits.js';
import { sanitize } from '../../tui/sanitize.js';
import type { RunContext } from '../context.js';
import { CliError, EXIT, usageError } from '../exit.js';
import { readAll } from '../input.js';
import { resolveIntern } from '../resolve.js';

async function ask(ctx: RunContext, question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  const onAbort = () => rl.close();
  ctx.signal.addEventListener('abort', onAbort);
  try {
    return await rl.question(question, { signal: ctx.signal });
  } catch (e) {
    if (ctx.signal.aborted) throw new CliError(EXIT.interrupted, 'interrupted');
    throw e;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    rl.close();
  }
}

const interactive = (ctx: RunContext) => Boolean(ctx.io.stdin.isTTY && ctx.io.stderr.isTTY);

async function readPrompt(ctx: RunContext): Promise<string> {
  let prompt = ctx.positionals[1];
  if (prompt === undefined) prompt = interactive(ctx) ? await ask(ctx, 'prompt> ') : await readAll(ctx.io.stdin);
  prompt = prompt.replace(/\r?\n$/, '');
  if (prompt.trim() === '') throw usageError('the prompt is empty: give PROMPT, or pipe it in on stdin');
  if (prompt.length > LIMITS.prompt.max) throw usageError(`the prompt is ${prompt.length} characters; the service takes at most ${LIMITS.prompt.max}`);
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
    ctx.io.stderr.write(`intern-tui: permission for ${what}: ${optionLabel(choice)}\n`);
    return choice;
  }
  if (!interactive(ctx)) throw usageError(`the intern asks permission for ${what}: pass --approve or --deny (there is no terminal to ask on)`);
  ctx.io.stderr.write(`\nThe intern asks permission for ${what}:\n`);
  req.options.forEach((o, i) => ctx.io.stderr.write(`  ${i + 1}) ${optionLabel(sanitize(o))}\n`));
  for (;;) {
    const a = (await ask(ctx, `choose 1-${req.options.length} (empty cancels): `)).trim();
    if (a === '') return 'cancel';
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= req.options.length) return req.options[n - 1]!;
  }
}

async function answerQuestion(ctx: RunContext, req: ElicitationRequest): Promise<string> {
  if (!interactive(ctx)) throw usageError(`the intern asks a question ("${sanitize(req.message).slice(0, 200)}"): run chat in a terminal to answer it`);
  ctx.io.stderr.write(`\n${sanitize(req.message, { multiline: true })}\n`);
  const content: Record<string, string | number | boolean> = {};
  for (const f of req.fields) {
    const label = sanitize(f.title ?? f.name);
    const hint = f.options?.length ? ` (${f.options.map((o) => sanitize(o)).join('/')})` : f.type === 'boolean' ? ' (y/n)' : '';
    const a = (await ask(ctx, `${label}${hint}${f.required ? '' : ' [optional]'}: `)).trim();
    if (a === '' && !f.required) continue;
    content[f.name] = f.type === 'boolean' ? /^y(es)?$|^true$/i.test(a) : f.type === 'number' && a !== '' && Number.isFinite(Number(a)) ? Number(a) : a;
  }
  return elicitationAnswer({ action: 'accept', content });
}

export async function chat(ctx: RunContext): Promise<number> {
  if (ctx.values.approve && ctx.values.deny) throw usageError('give --approve or --deny, not both');
  const api = await ctx.api();
  const intern = await resolveIntern(api, ctx.positionals[0]!, ctx.signal);
  const prompt = await readPrompt(ctx);
  const out = ctx.io.stdout;
  let sessionId = ctx.values.session as string | undefined;
  let messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  let endedWithNewline = true;
  for (;;) {
    const start = await api.chat(
      intern.id,
      { messages, stream: true, approval_mode: ctx.values['self-drive'] ? 'self-drive' : 'manual', ...(sessionId ? { session_id: sessionId } : {}) },
      { signal: ctx.signal },
    );
    if (start.kind === 'steered') {
      if (ctx.out.json) ctx.out.ndjson({ session_id: start.session_id, status: 'steered' });
      ctx.io.stderr.write(`intern-tui: the session ${start.session_id} was already running; the prompt was added to its turn\n`);
      return EXIT.ok;
    }
    let pending: ChatToolCall | undefined;
    let failure: ChatChunk['error'];
    for await (const chunk of start.events) {
      if (ctx.out.json) ctx.out.ndjson(chunk);
      if (chunk.session_id) sessionId = chunk.session_id;
      if (chunk.error) failure = chunk.error;
      for (const choice of chunk.choices) {
        const text = choice.delta.content;
        if (text && !ctx.out.json) {
          const clean = ctx.out.tty ? sanitize(text, { multiline: true }) : text;
          out.write(clean);
          endedWithNewline = clean.endsWith('\n');
        }
        for (const call of choice.delta.tool_calls ?? []) pending = call;
      }
    }
    if (!ctx.out.json && !endedWithNewline) {
      out.write('\n');
      endedWithNewline = true;
    }
    if (failure) {
      const reason = failure.metadata?.reason ? ` (${failure.metadata.reason})` : '';
      throw new CliError(failure.code === 401 || failure.code === 403 ? EXIT.auth : EXIT.failed, `the run failed${reason}: ${failure.message}`);
    }
    if (!pending) break;
    const request = parseProvideInput(pending);
    if (!request) throw new CliError(EXIT.failed, `the intern called a tool this client does not know: ${sanitize(pending.function.name)}`);
    if (!sessionId) throw new CliError(EXIT.failed, 'the service asked for input without giving a session id');
    const answer = request.kind === 'permission' ? await answerPermission(ctx, request) : await answerQuestion(ctx, request);
    messages = answerMessages(pending, answer);
  }
  if (sessionId && !ctx.out.json) ctx.io.stderr.write(`session: ${sessionId} (continue with --session ${sessionId})\n`);
  return EXIT.ok;
}
