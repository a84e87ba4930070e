/** `login`, `logout` and `auth status`: thin wiring of cli/login.ts and cli/auth/* into the registry. */
import { configPath } from '../settings.js';
import { usageError } from '../exit.js';
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
