/**
 * What a command runs with: its parsed flags, the output streams, a cancel signal, and
 * `api()`, which resolves the configuration and opens the client (or the embedded sandbox
 * when nothing at all is configured). Loaded only once a command runs.
 */
import type { InternApi } from '../client/types.js';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../contract/routes.js';
import { configPath, EMBEDDED_SANDBOX, embeddedClientOptions, type Flags, loginHint, type Resolved, usesEmbeddedSandbox, warnTo } from './settings.js';
import { CliError, EXIT } from './exit.js';
import { Output } from './output.js';
import type { Parsed } from './parse.js';
import { commandTitle, type CommandSpec } from './spec.js';
import type { Io } from './io.js';

export type { Io } from './io.js';

export interface RunContext extends Parsed {
  spec: CommandSpec;
  /** The arguments after the noun (and verb): raw commands parse these themselves. */
  rest: string[];
  io: Io;
  out: Output;
  /** Aborted on SIGINT: pass it to every call. */
  signal: AbortSignal;
  flags: Flags;
  /** A flag's value as typed (a string flag), or undefined when it was not given. */
  text(flag: string): string | undefined;
  /** The client, opened once; exits 4 (CliError) when a credential the command needs is missing. */
  api(): Promise<InternApi>;
  warn(message: string): void;
  /**
   * Where the client's credentials came from, once `api()` opened it on the configured service
   * (not on the built-in sandbox): a refused key's hint names the variable, or the login, it came from.
   */
  signedIn?: Pick<Resolved, 'profile' | 'baseUrl' | 'storedWithheldFor' | 'sources' | 'record'>;
  /** Called on exit: stops an embedded sandbox. */
  cleanup: (() => Promise<void>)[];
  /**
   * While a handler is set, ctrl+c (SIGINT) calls it, once, instead of ending the command: a chat
   * conversation stops the answer it is streaming and asks for the next prompt.
   */
  interrupts: { handler: (() => void) | null };
}

/**
 * A command's implementation, which the registry names (CommandSpec.module and .runner) and the
 * dispatcher loads (loaders.ts). One whose spec has `json` names the top-level fields its JSON
 * output may hold (`jsonFields`, set beside it): `--json FIELDS` is checked against them before the
 * command runs, so a misspelt field stops a delete before it is sent, not after.
 */
export interface Runner {
  (ctx: RunContext): Promise<number>;
  jsonFields?: readonly string[];
}

/** `open` replaces the real client (tests hand in a fake). */
export function createContext(
  spec: CommandSpec,
  rest: string[],
  parsed: Parsed,
  io: Io,
  signal: AbortSignal,
  open?: () => Promise<InternApi>,
  interrupts: RunContext['interrupts'] = { handler: null },
): RunContext {
  const warn = warnTo(io.stderr);
  const flags: Flags = {
    profile: parsed.values.profile as string | undefined,
    baseUrl: parsed.values['base-url'] as string | undefined,
  };
  const out = new Output(io, parsed.json, parsed.values['no-color'] === true, signal, parsed.json !== null && !parsed.filter, parsed.values['no-pager'] === true);
  let opened: Promise<InternApi> | undefined;
  const ctx: RunContext = {
    ...parsed,
    spec,
    rest,
    io,
    out,
    signal,
    flags,
    text: (flag) => parsed.values[flag] as string | undefined,
    warn,
    cleanup: [],
    interrupts,
    api: () => (opened ??= open ? open() : openApi(ctx)),
  };
  return ctx;
}

/**
 * Why a credential is missing and how to fix it: the variable, or `login`; for a base URL the
 * profile keeps no keys for, `login` as another profile (login refuses to move this one).
 */
export function missingCredentialMessage(command: string, kind: CredentialKind, resolved: Pick<Resolved, 'baseUrl' | 'profile' | 'storedWithheldFor'>): string {
  const s = CREDENTIAL_SOURCES[kind];
  return `${command} needs ${s.aLabel} for ${resolved.baseUrl}: set ${s.env}, or run \`${loginHint(kind, resolved)}\``;
}

async function openApi(ctx: RunContext): Promise<InternApi> {
  const { resolveSignedIn } = await import('./auth/credentials.js');
  const resolved = await resolveSignedIn(ctx.flags, { env: ctx.io.env, path: configPath(ctx.io.env), warn: ctx.warn });
  for (const w of resolved.warnings) ctx.warn(w);
  const { createClient } = await import('../client/index.js');
  if (usesEmbeddedSandbox(ctx.values.sandbox === true, resolved)) {
    const { startSandbox } = await import('../sandbox/index.js');
    if (ctx.values.sandbox !== true) ctx.warn('no service configured: using a temporary built-in sandbox with demo data (changes are lost on exit); see intern-tui --help');
    else if (ctx.flags.baseUrl) ctx.warn('--sandbox uses the built-in sandbox: --base-url is not used');
    const sandbox = await startSandbox(EMBEDDED_SANDBOX);
    ctx.cleanup.push(() => sandbox.close());
    // Ended while it started (a signal, output that cannot be written): the cleanup has run
    // already, without it; closed now, or its folders stay in TMPDIR.
    if (ctx.signal.aborted) {
      await sandbox.close();
      throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('ended');
    }
    return createClient(embeddedClientOptions(sandbox));
  }
  for (const kind of ctx.spec.needs) {
    if (!resolved.credentials[kind] && !(kind === 'oauth_token' && resolved.renewOAuthToken)) throw new CliError(EXIT.auth, missingCredentialMessage(`intern-tui ${commandTitle(ctx.spec)}`, kind, resolved));
  }
  ctx.signedIn = resolved;
  return createClient({ baseUrl: resolved.baseUrl, credentials: resolved.credentials, renewOAuthToken: resolved.renewOAuthToken });
}
