/** `login`, `logout`, `auth status|login|logout|token|switch`: thin wiring of cli/login.ts and cli/auth/* into the registry. */
import { configPath, loginHint } from '../settings.js';
import { CliError, EXIT, nearest, usageError } from '../exit.js';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../../contract/routes.js';
import { quoted } from '../../text.js';
import type { RunContext } from '../context.js';
import { login as runLogin, logout as runLogout } from '../login.js';
import { AUTH_STATUS_FIELDS, authStatus, formatStatus } from '../auth/status.js';
import { availableKeychain } from '../auth/store.js';

const bool = (ctx: RunContext, name: string) => ctx.values[name] === true;

export async function login(ctx: RunContext): Promise<number> {
  const withToken = bool(ctx, 'with-token');
  // No terminal at all (CI, a script): a browser sign-in would wait ten minutes for a browser that
  // is not there. gh asks for --with-token then too; --no-browser says the URL will be opened elsewhere.
  if (!withToken && !bool(ctx, 'no-browser') && !bool(ctx, 'headless') && !ctx.io.stdin.isTTY && !ctx.out.tty) {
    throw usageError('login signs in in a browser and there is no terminal here: give --with-token (the key on stdin), or --no-browser to print the URL and wait for it to be opened elsewhere');
  }
  return runLogin(
    {
      profile: ctx.flags.profile,
      baseUrl: ctx.flags.baseUrl,
      noBrowser: bool(ctx, 'no-browser'),
      headless: bool(ctx, 'headless'),
      oauth: bool(ctx, 'oauth'),
      issuer: ctx.text('issuer'),
      withToken,
      kind: ctx.text('kind'),
    },
    { io: ctx.io, path: configPath(ctx.io.env), keychain: await availableKeychain(ctx.io.env), signal: ctx.signal },
  );
}

export async function logout(ctx: RunContext): Promise<number> {
  return runLogout({ profile: ctx.flags.profile }, { io: ctx.io, path: configPath(ctx.io.env), keychain: await availableKeychain(ctx.io.env).catch(() => null) });
}

export async function status(ctx: RunContext): Promise<number> {
  const { status: s, exit } = await authStatus(ctx.flags, { env: ctx.io.env, path: configPath(ctx.io.env), warn: ctx.warn });
  if (!ctx.out.printJson(s)) ctx.out.say(formatStatus(s));
  return exit;
}
status.jsonFields = AUTH_STATUS_FIELDS;

/**
 * `auth token` (gh's): the credential the commands would use, on stdout without a line break, for
 * another program to read. Never onto a terminal (exit 2): a secret is never drawn on the screen.
 */
export async function token(ctx: RunContext): Promise<number> {
  const kind = (ctx.text('kind') ?? 'api_key') as CredentialKind;
  const kinds = Object.keys(CREDENTIAL_SOURCES) as CredentialKind[];
  if (!kinds.includes(kind)) throw usageError(`--kind must be one of ${kinds.join(', ')}, not ${quoted(kind, 40)}${nearest(kind, kinds)}`);
  if (ctx.out.tty) throw usageError('auth token prints a secret: only into a pipe or a file (intern-tui auth token | program), never onto the terminal');
  const { resolveSignedIn } = await import('../auth/credentials.js');
  const resolved = await resolveSignedIn(ctx.flags, { env: ctx.io.env, path: configPath(ctx.io.env), warn: ctx.warn });
  const value = resolved.credentials[kind];
  if (!value) throw new CliError(EXIT.auth, `no ${CREDENTIAL_SOURCES[kind].label} is set: set ${CREDENTIAL_SOURCES[kind].env}, or run ${loginHint(kind, resolved)}`);
  // Written as it is: Output's `say` would sanitise it, and a credential holds no control character (settings.ts refuses one).
  ctx.out.secret(value);
  return EXIT.ok;
}

/** `auth switch PROFILE`: `config use PROFILE` by gh's name. */
export async function switchProfile(ctx: RunContext): Promise<number> {
  const { runLegacy } = await import('../legacy.js');
  return runLegacy(['config', 'use', ctx.positionals[0]!]);
}
