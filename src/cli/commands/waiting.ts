/**
 * Waiting for an intern: `interns wait NAME`, and the `--wait`/`--timeout` of create, provision and
 * delete (interns.ts), polling the intern until it has a status or is gone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, NetworkError } from '../../client/errors.js';
import { FAILED_STATUSES, INTERN_STATUSES, InternSchema, type Intern } from '../../contract/intern.js';
import { schemaFields } from '../../contract/read.js';
import type { InternApi } from '../../client/types.js';
import type { RunContext } from '../context.js';
import { WAIT_DEFAULT } from '../spec.js';
import { parseDuration } from '../duration.js';
import { CliError, EXIT, nearest, usageError } from '../exit.js';
import { quoted, sanitize } from '../../text.js';
import { resolveIntern } from '../resolve.js';

/** What `--json FIELDS` may keep of an intern: the contract's fields. */
const INTERN_FIELDS = schemaFields(InternSchema);

/** What `wait` waits for besides the statuses: the intern gone. */
export const DELETED = 'deleted';
/** How often it asks: every second at first, then less often, up to every 5 s. */
const POLL_FIRST_MS = 1000;
const POLL_MAX_MS = 5000;

const describeStatus = (i: Intern) =>
  `${i.status}${i.progress ? ` (step ${i.progress.step_number} of ${i.progress.total_steps}: ${i.progress.step_label})` : ''}`;

/** `--timeout` read, or the default; a usage error when it is not a duration with its unit (`0s`: look once). */
function timeoutOf(ctx: RunContext): { text: string; ms: number } {
  const text = ctx.text('timeout') ?? WAIT_DEFAULT;
  return { text, ms: parseDuration(text, '--timeout') };
}

/** `--wait` and its `--timeout` on a command that starts provisioning: the deadline, or null without --wait. */
export function waitFlags(ctx: RunContext): { text: string; ms: number } | null {
  if (ctx.values.wait) return timeoutOf(ctx);
  if (ctx.text('timeout') !== undefined) throw usageError('--timeout goes with --wait');
  return null;
}

/**
 * Polls the intern until it has the status `target` (the intern answered) or, for `deleted`, is
 * gone (null answered). It throws, exit 1, when the intern lands in a failed status it was not
 * asked to wait for (nothing moves it out of one) or the time is up. On a terminal each change
 * of status is told on stderr.
 */
export async function untilStatus(ctx: RunContext, api: InternApi, first: Intern, target: string, timeout: { text: string; ms: number }): Promise<Intern | null> {
  const started = performance.now();
  const name = sanitize(first.name);
  let intern = first;
  let told = '';
  let delay = POLL_FIRST_MS;
  let unreachable = false;
  for (;;) {
    const now = describeStatus(intern);
    if (now !== told) {
      told = now;
      if (intern.status !== target) ctx.out.aside(`${name}: ${sanitize(now)}`);
    }
    if (intern.status === target) return intern;
    if (FAILED_STATUSES.includes(intern.status)) {
      const why = intern.last_failure_message ? `: ${intern.last_failure_message}` : '';
      throw new CliError(EXIT.failed, `${name} is ${intern.status}${why}; it will not become ${target}`);
    }
    const elapsed = performance.now() - started;
    const gaveUp = (more = '') => new CliError(EXIT.failed, `gave up after ${timeout.text}: ${name} is still ${now}, not ${target}${more}`, false, { reason: 'timeout' });
    if (elapsed >= timeout.ms) throw gaveUp();
    await sleep(Math.min(delay, timeout.ms - elapsed), undefined, { signal: ctx.signal });
    delay = Math.min(POLL_MAX_MS, delay * 1.5);
    // Slept to the deadline: nothing left to ask in.
    if (performance.now() - started >= timeout.ms - 1) throw gaveUp();
    // No request outlives --timeout (the client's own 15 s would).
    const deadline = untilDeadline(ctx, timeout.ms - (performance.now() - started));
    try {
      intern = await api.getIntern(intern.id, { signal: deadline });
      unreachable = false;
    } catch (e) {
      if (target === DELETED && e instanceof ApiError && e.status === 404) return null;
      if (deadline.aborted && !ctx.signal.aborted) throw gaveUp(' (the service did not answer in time)');
      // A wait of minutes outlives a service restart or a dropped connection: said once, and
      // tried again until the timeout, as the status itself is (no sooner than it asks to be).
      if (!passing(ctx, e)) throw e;
      if (!unreachable) ctx.warn(`could not ask about ${name} (${sanitize((e as Error).message)}); trying again until ${timeout.text} have passed`);
      unreachable = true;
      if (e instanceof ApiError && e.retryAfterMs !== undefined) delay = Math.max(delay, e.retryAfterMs);
    }
  }
}

/** The command's signal, ended too when `ms` have passed: a wait's requests end at its --timeout. */
const untilDeadline = (ctx: RunContext, ms: number): AbortSignal => AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, Math.ceil(ms)))]);

/** What a wait asks again about rather than fails on: the service not reached, or an answer it marks retryable. */
const passing = (ctx: RunContext, e: unknown) => !ctx.signal.aborted && (e instanceof NetworkError || (e instanceof ApiError && e.retryable));

/** "runner is running (after 5s)." */
export const reached = (intern: Intern, target: string, started: number) => `${sanitize(intern.name)} is ${sanitize(target)} (after ${Math.round((performance.now() - started) / 1000)}s).`;

/** `interns wait NAME`: until the intern has a status (running by default) or is deleted. */
export async function wait(ctx: RunContext): Promise<number> {
  const target = ctx.text('for') ?? 'running';
  const known = [...INTERN_STATUSES, DELETED];
  if (!known.includes(target)) throw usageError(`--for must be a status (${INTERN_STATUSES.join(', ')}) or ${DELETED}, not ${quoted(target, 40)}${nearest(target, known)}`);
  const timeout = timeoutOf(ctx);
  const api = await ctx.api();
  const started = performance.now();
  const ref = ctx.positionals[0]!;
  const shown = sanitize(ref).slice(0, 80);
  const left = () => timeout.ms - (performance.now() - started);
  let intern: Intern | undefined;
  // The intern is looked up as its status is asked: a service not up yet (started in the same
  // script) is asked again until --timeout, and no request outlives it.
  for (let told = false, delay = POLL_FIRST_MS; intern === undefined; delay = Math.min(POLL_MAX_MS, delay * 1.5)) {
    // `--timeout 0s` looks once: that look is bounded by nothing but the command.
    const deadline = timeout.ms === 0 ? ctx.signal : untilDeadline(ctx, left());
    try {
      intern = await resolveIntern(api, ref, deadline);
    } catch (e) {
      if (target === DELETED && e instanceof CliError && e.exitCode === EXIT.failed) {
        ctx.out.done(`No intern "${shown}": it is deleted, or never was.`, { name: ref, deleted: true });
        return EXIT.ok;
      }
      if ((deadline.aborted && !ctx.signal.aborted) || left() <= 0) throw new CliError(EXIT.failed, `gave up after ${timeout.text}: could not look up ${shown} in time`, false, { reason: 'timeout' });
      if (!passing(ctx, e)) throw e;
      if (!told) ctx.warn(`could not look up ${shown} (${sanitize((e as Error).message)}); trying again until ${timeout.text} have passed`);
      told = true;
      const wait = e instanceof ApiError && e.retryAfterMs !== undefined ? Math.max(delay, e.retryAfterMs) : delay;
      await sleep(Math.min(wait, Math.max(0, left())), undefined, { signal: ctx.signal });
    }
  }
  const end = await untilStatus(ctx, api, intern, target, { text: timeout.text, ms: Math.max(1, left()) });
  if (end === null) ctx.out.done(reached(intern, DELETED, started), { id: intern.id, name: intern.name, deleted: true });
  else ctx.out.done(reached(end, target, started), end);
  return EXIT.ok;
}
wait.jsonFields = [...INTERN_FIELDS, 'deleted'];

/** How often `--watch` asks again. */
export const WATCH_EVERY_MS = 2000;

/**
 * `--watch` (interns list, interns get): reads again every 2 s and draws what it read whenever it
 * changed (Output.frame: in place on a terminal, a JSON document per change when piped), until
 * ctrl+c (exit 130) or the reader of the output goes away (141). An error ends it (exit 1).
 */
export async function watch<T>(ctx: RunContext, read: () => Promise<T>, draw: (value: T) => void): Promise<number> {
  let last: string | undefined;
  for (;;) {
    const value = await read();
    const seen = JSON.stringify(value);
    if (seen !== last) {
      last = seen;
      ctx.out.frame(value, () => draw(value));
    }
    await sleep(WATCH_EVERY_MS, undefined, { signal: ctx.signal });
  }
}
