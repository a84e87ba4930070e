/**
 * The TUI's profile switching and in-TUI sign-in (issue 11, item 6): `:profile NAME` opens another
 * profile's credentials, `:login` runs the browser sign-in for the current profile with its lines
 * shown in the TUI instead of on stderr. Both answer a fresh session (client, profile, host).
 */
import { PassThrough } from 'node:stream';
import { createClient } from '../../client/index.js';
import type { TuiSession } from '../../tui/types.js';
import { type Flags, refusedFixes } from '../settings.js';
import { login } from '../login.js';
import { resolveSignedIn } from './credentials.js';
import { availableKeychain } from './store.js';

export interface SessionDeps {
  env: NodeJS.ProcessEnv;
  path: string;
  warn: (message: string) => void;
}

/** The session of a profile: flags other than the profile still win, as at start-up. */
export async function openSession(flags: Flags, deps: SessionDeps): Promise<TuiSession> {
  const r = await resolveSignedIn(flags, deps);
  return {
    api: createClient({ baseUrl: r.baseUrl, credentials: r.credentials, renewOAuthToken: r.renewOAuthToken }),
    profile: r.profile,
    host: new URL(r.baseUrl).host,
    sandbox: false,
    warnings: r.warnings,
    refusedFix: refusedFixes(r),
    // A profile's own settings go with it: the connections screen's features, attach's scrollback.
    features: r.features,
    scrollback: r.scrollback,
    notify: r.notify,
    record: r.record,
  };
}

/** `switchProfile` and `signIn` for TuiOptions; `current` tracks the profile in use. */
export function tuiSessionHooks(flags: Flags, deps: SessionDeps, startProfile: string | null) {
  let current = startProfile;
  return {
    switchProfile: async (name: string) => {
      const s = await openSession({ ...flags, profile: name }, deps);
      current = s.profile;
      return s;
    },
    signIn: async (show: (line: string) => void, signal: AbortSignal) => {
      // The sign-in's messages become lines in the TUI; nothing is read from the terminal.
      const lines = new PassThrough();
      let buffered = '';
      lines.on('data', (d: Buffer) => {
        buffered += d.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          show(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
        }
      });
      const stdin = new PassThrough();
      stdin.end();
      await login(
        { profile: current ?? undefined, baseUrl: flags.baseUrl },
        { io: { stdin, stdout: lines, stderr: lines, env: deps.env }, path: deps.path, keychain: await availableKeychain(deps.env), signal },
      );
      const s = await openSession({ ...flags, profile: current ?? undefined }, deps);
      current = s.profile;
      return s;
    },
  };
}
