/** Profiles in the TUI (issue 11, item 6): "signed in as" in the header, `:profile NAME`, `:login`. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkError } from '../../src/client/errors.js';
import type { TuiSession } from '../../src/tui/types.js';
import { FakeApi } from './fakeApi.js';
import { renderApp } from './render.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function session(profile: string, label: string, names: string[]): TuiSession {
  const api = new FakeApi();
  api.keyInfo = { ...api.keyInfo, label };
  api.interns = api.interns.slice(0, names.length).map((i, n) => ({ ...i, name: names[n]! }));
  return { api, profile, host: `${profile}.example`, sandbox: false, warnings: [], features: [{ name: `${profile} digest`, requires: ['github'] }], scrollback: 500 };
}

describe('profiles in the TUI', () => {
  it('the header shows the profile and the key it is signed in as (from GET /key)', async () => {
    const app = renderApp({ options: { profile: 'work', sandbox: false } });
    cleanup = () => app.unmount();
    const f = await app.waitFor('signed in as sk-or-v1-abc...f00');
    expect(f).toContain('profile work');
    expect(app.api.callsOf('getKeyInfo').length).toBe(1);
  });

  it('asks GET /key again while the service cannot be reached, and keeps the label once known', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const api = new FakeApi();
      const answer = api.getKeyInfo.bind(api);
      let down = true;
      api.getKeyInfo = async (...args: Parameters<FakeApi['getKeyInfo']>) => {
        if (down) {
          api.calls.push({ method: 'getKeyInfo', args: [] });
          throw new NetworkError('GET /key', 'ECONNREFUSED', false, '127.0.0.1:9');
        }
        return answer(...args);
      };
      const app = renderApp({ api, options: { profile: 'work', sandbox: false } });
      cleanup = () => app.unmount();
      await app.waitFor('profile work');
      await app.waitFor(() => app.api.callsOf('getKeyInfo').length >= 1);
      expect(app.frame()).not.toContain('signed in as');
      down = false;
      await vi.advanceTimersByTimeAsync(5_000);
      await app.waitFor('signed in as sk-or-v1-abc...f00');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a narrow header gives up the context before the title, and the title before the credential kinds', async () => {
    const app = renderApp({ options: { profile: 'work', sandbox: true } });
    cleanup = () => app.unmount();
    const header = async (columns: number) => {
      app.resize({ columns });
      // A frame drawn at this width (the header's rule as wide as the terminal), once GET /key has answered.
      const f = await app.waitFor((fr) => app.api.callsOf('getKeyInfo').length > 0 && (fr.split('\n')[1] ?? '').length === columns);
      return f.split('\n')[0]!;
    };
    expect(await header(120)).toMatch(/^intern-tui SANDBOX {2}127\.0\.0\.1:9 · profile work · signed in as sk-or-v1-abc\.\.\.f00 › Interns +api✓ mgmt✓ oauth✓$/);
    // 80 columns: what does not fit whole of the context goes ("signed in as" cut said nothing); the title is whole.
    let line = await header(80);
    expect(line).toMatch(/^intern-tui SANDBOX {2}127\.0\.0\.1:9 · profile work › Interns +api✓ mgmt✓ oauth✓$/);
    expect(line).toHaveLength(80);
    // Narrower, the host goes before the profile, and the profile is cut last of the context.
    expect(await header(62)).toMatch(/^intern-tui SANDBOX {2}profile work › Interns +api✓ mgmt✓ oauth✓$/);
    // Whole, the profile outlasts the title (the screen names itself under the header); cut, it does not.
    expect(await header(57)).toMatch(/^intern-tui SANDBOX {2}profile work › Int… +api✓ mgmt✓ oauth✓$/);
    // 47: no context; 45: the title cut; 40: no title; 30: the product is cut, the credential kinds are whole.
    expect(await header(47)).toBe('intern-tui SANDBOX  › Interns api✓ mgmt✓ oauth✓');
    expect(await header(45)).toBe('intern-tui SANDBOX  › Inte… api✓ mgmt✓ oauth✓');
    expect(await header(40)).toBe('intern-tui SANDBOX '.padEnd(40 - 18) + ' api✓ mgmt✓ oauth✓');
    line = await header(30);
    expect(line).toMatch(/^intern-tui …? api✓ mgmt✓ oauth✓$/);
    expect(line).toHaveLength(30);
  });

  it(':profile NAME switches the client, header and list without restarting; an unknown profile is a message', async () => {
    const asked: string[] = [];
    const app = renderApp({
      options: {
        profile: 'work',
        sandbox: false,
        switchProfile: async (name) => {
          asked.push(name);
          if (name !== 'home') throw new Error(`no profile "${name}" in the config file (known: home, work)`);
          return session('home', 'sk-...HOME', ['home-intern']);
        },
      },
    });
    cleanup = () => app.unmount();
    await app.waitFor('runner');
    await app.press(':');
    await app.type('profile nope');
    await app.press('enter');
    await app.waitFor('no profile "nope"');
    await app.press(':');
    await app.type('profile home');
    await app.press('enter');
    const f = await app.waitFor((fr) => fr.includes('home-intern') && fr.includes('signed in as sk-...HOME'));
    expect(f).toContain('home.example');
    expect(f).toContain('Interns  1 ');
    expect(asked).toEqual(['nope', 'home']);
    // The profile's own features come with it: the connections screen checks home's, not work's.
    await app.press('c');
    const c = await app.waitFor('home digest');
    expect(c).not.toContain('Release notes');
  });

  it(':login shows the sign-in URL, waits, and then uses the signed-in session; esc cancels', async () => {
    let finish: ((s: TuiSession) => void) | undefined;
    let cancelled = false;
    const app = renderApp({
      options: {
        profile: 'work',
        sandbox: false,
        signIn: (show, signal) =>
          new Promise<TuiSession>((resolve, reject) => {
            show('Open this URL to sign in:');
            show('  http://127.0.0.1:9/auth?code_challenge=abc');
            finish = resolve;
            signal.addEventListener('abort', () => {
              cancelled = true;
              reject(new Error('interrupted'));
            });
          }),
      },
    });
    cleanup = () => app.unmount();
    await app.waitFor('runner');
    await app.press(':');
    await app.type('login');
    await app.press('enter');
    await app.waitFor('http://127.0.0.1:9/auth?code_challenge=abc');
    await app.waitFor('esc cancels');
    await app.press('esc');
    await app.waitFor('sign-in cancelled');
    expect(cancelled).toBe(true);

    await app.press(':');
    await app.type('login');
    await app.press('enter');
    await app.waitFor('Open this URL to sign in:');
    finish!(session('work', 'sk-...NEW1', ['newly-signed']));
    const f = await app.waitFor((fr) => fr.includes('newly-signed') && fr.includes('signed in as sk-...NEW1'));
    expect(f).not.toContain('Open this URL');
  });

  it('on the built-in sandbox, :profile and :login explain why they are not offered', async () => {
    const app = renderApp();
    cleanup = () => app.unmount();
    await app.waitFor('runner');
    await app.press(':');
    await app.type('login');
    await app.press('enter');
    await app.waitFor('signing in needs a configured service');
  });
});
