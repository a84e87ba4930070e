/** Runs one registry command: context, the command's module, and errors mapped to exit codes. */
import { ApiError, MissingCredentialError, NetworkError } from '../client/errors.js';
import { CREDENTIAL_SOURCES } from '../contract/routes.js';
import { loginHint, refusedFix } from './settings.js';
import { createContext, type Io, type RunContext } from './context.js';
import { endOnSignals } from './ending.js';
import { CliError, EXIT } from './exit.js';
import type { Parsed } from './parse.js';
import { commandTitle, type CommandSpec } from './spec.js';
import { loadRunner } from './loaders.js';
import { exitCodeOf } from './exitCode.js';
import { checkJsonFields } from './output.js';
import type { InternApi } from '../client/types.js';
import { inspect } from 'node:util';
import { sanitize } from '../text.js';

/**
 * A message with the flags that set the API fields it names: the service says "pass
 * workspace_id", the person types `--workspace` (FlagSpec.sets). The contract's own rules, when
 * the CLI refuses by them before sending, name API fields the same way.
 */
export function withFlagNames(message: string, spec: CommandSpec): string {
  const named = Object.entries(spec.flags ?? {}).filter(([, f]) => f.sets !== undefined && new RegExp(`\\b${f.sets}\\b`).test(message));
  return named.length === 0 ? message : `${message} (${named.map(([flag, f]) => `${f.sets}: --${flag}`).join(', ')})`;
}

/** Where this command's credentials were resolved: once the client was opened, else the profile flag alone. */
const signedInAt = (ctx: RunContext) => ctx.signedIn ?? { profile: ctx.flags.profile ?? null, baseUrl: '', storedWithheldFor: null };

/**
 * After a 401, which credential the service refused and how to fix it: its words ("Missing
 * authentication") do not say which key the route took, and a command may take either. Where the
 * key came from is known once the client was opened (`signedIn`): refusedFix says it as `auth
 * status` does.
 */
function refusedHint(e: ApiError | CliError, ctx: RunContext): string {
  const kind = e instanceof ApiError && e.status === 401 ? e.credential : undefined;
  if (!kind || kind === 'none') return '';
  return ` (the service refused the ${CREDENTIAL_SOURCES[kind].label}: ${refusedFix(kind, ctx.signedIn?.sources[kind], signedInAt(ctx), (c) => `\`${c}\``)})`;
}

/**
 * After a 404 from a route with no id in its path (GET /interns), which every service has: the base
 * URL is probably wrong. Both the sandbox's "No route for GET /interns" and a proxy's page leave
 * that to guess.
 */
function baseUrlHint(e: unknown): string {
  return e instanceof ApiError && e.status === 404 && !e.route.includes('{') ? ' (does the base URL end in /api/v1? if it does, this key may not reach this route)' : '';
}

export async function runCommand(spec: CommandSpec, rest: string[], parsed: Parsed, io: Io, open?: () => Promise<InternApi>): Promise<number> {
  const controller = new AbortController();
  let interrupted = false;
  let closedPipe = false;
  // Ended from outside (SIGTERM, SIGHUP, output that cannot be written): the process ends by that,
  // and the abort it caused is no error of the command's to print.
  let endedFromOutside = false;
  // A command may take ctrl+c itself for a while (RunContext.interrupts).
  const interrupts: RunContext['interrupts'] = { handler: null };
  const onSigint = () => {
    const handler = interrupts.handler;
    interrupts.handler = null;
    if (handler && !interrupted) return handler();
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    controller.abort(new Error('interrupted'));
  };
  if (!spec.raw) process.on('SIGINT', onSigint);
  const ctx = createContext(spec, rest, parsed, io, controller.signal, open, interrupts);
  // What the command opened, each closed once, whether it ends on its own or by a signal; every
  // caller waits for every close begun before (the command's own end and a signal's may race).
  let closing = Promise.resolve();
  const closeAll = () =>
    (closing = closing.then(async () => {
      for (const c of ctx.cleanup.splice(0)) await c().catch(() => undefined);
    }));
  // Ended from outside, the command is given a moment to settle first: what it was opening then
  // (the built-in sandbox starting) is registered, or closed by itself, before the process ends.
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const closeOnEnding = async () => {
    await Promise.race([settled, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
    await closeAll();
  };
  // The raw commands (config, sandbox) handle their own signals.
  const stopWatching = spec.raw
    ? () => undefined
    : endOnSignals(
        (how) => {
          if (how === 'pipe') closedPipe = true;
          else endedFromOutside = true;
          controller.abort(new Error(how === 'SIGHUP' ? 'the terminal went away' : how === 'pipe' ? 'the reader of the output went away' : 'terminated'));
        },
        closeOnEnding,
        // The command's own streams (the process's, but for tests); stdin too: attach and chat
        // read the terminal, where a hangup can show first.
        [io.stdout, io.stderr, io.stdin],
      );
  try {
    const run = await loadRunner(spec);
    if (spec.json) checkJsonFields(commandTitle(spec), run.jsonFields, parsed.json);
    // Compiled before the command runs: an expression jq refuses stops a delete before it is sent.
    if (parsed.filter) ctx.out.filter = await (await import('./filter.js')).loadFilter(parsed.filter);
    const code = await run(ctx);
    // Long output on a terminal went to a pager: the command ends when it is closed.
    await ctx.out.settled();
    return interrupted ? EXIT.interrupted : code;
  } catch (e) {
    // `| head` had what it wanted: nothing to say about it (the rest goes nowhere), as other programs end.
    if (closedPipe) return EXIT.closedPipe;
    if (endedFromOutside) return EXIT.failed;
    const code = exitCodeOf(e, interrupted);
    // The whole error for a bug report, its stack included; what the service put in it is sanitised as everywhere else.
    if (io.env.INTERN_TUI_DEBUG === '1') io.stderr.write(sanitize(inspect(e, { depth: 4 }), { multiline: true, tabs: true }) + '\n');
    if (code === EXIT.interrupted) {
      ctx.out.error('interrupted', { exit: code });
      return code;
    }
    // Commands take no credential flags, so the hint is the variable or `login`, not the client's `--api-key`.
    const message =
      e instanceof MissingCredentialError
        ? `${e.route} needs ${CREDENTIAL_SOURCES[e.kind].aLabel}: set ${e.env}, or run \`${loginHint(e.kind, signedInAt(ctx))}\``
        : e instanceof ApiError || (e instanceof CliError && !e.aboutOutput)
          ? withFlagNames(e.message, spec) + refusedHint(e, ctx) + baseUrlHint(e)
          : e instanceof Error
            ? e.message
            : String(e);
    const extra: { exit: number; status?: number; code?: number | string; reason?: string | null } = { exit: code };
    if (e instanceof ApiError) Object.assign(extra, { status: e.status, code: e.code, reason: e.reason });
    if (e instanceof NetworkError) Object.assign(extra, { reason: e.timedOut ? 'timeout' : 'network' });
    if (e instanceof CliError && e.detail) Object.assign(extra, e.detail);
    ctx.out.error(message, extra);
    return code;
  } finally {
    settle();
    process.off('SIGINT', onSigint);
    // Signals are watched until all is closed: a second SIGHUP (a hangup sends more than one) must
    // not end the process with the sandbox half closed.
    await closeAll();
    stopWatching();
  }
}
