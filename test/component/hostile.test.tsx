/**
 * Issue 13, defect 1: no string from the service reaches the terminal raw. Every
 * screen is drawn over fixture data whose strings hold hostile sequences, and
 * the raw bytes Ink wrote (every frame, not only the last) are searched for them.
 */
import fc from 'fast-check';
import { render } from 'ink-testing-library';
import { Text } from '../../src/tui/components/Text.js';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/tui/context.js';
import { credential, FakeApi, IDS, intern } from './fakeApi.js';
import { renderApp } from './render.js';

const HOSTILE = [
  '\x1b]52;c;ZXZpbA==\x07', // OSC 52: write the clipboard
  '\x1b]8;;https://evil.example/\x1b\\', // OSC 8 link
  '\x07', // BEL
  '\x9b31m', // C1 CSI
  '\x9d0;title\x9c', // C1 OSC
  '\x1b[38;5;199m', // a colour code
  '\x1b[2J', // clear the screen
  '\u202e', // right-to-left override
  '\u2066', // bidi isolate
  '\x1bP+q\x1b\\', // DCS
  '\r',
];
/** What must never appear in what Ink wrote: escape, BEL, C1, bidi controls. */
const FORBIDDEN = /[\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/;

const hostile = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));

/** Every screen, and text each one draws once its data is in. */
const SCREENS: { route: Route; ready: string }[] = [
  { route: { name: 'interns' }, ready: 'mark1' },
  { route: { name: 'intern', id: IDS.runner }, ready: 'mark1' },
  { route: { name: 'settings', id: IDS.runner }, ready: 'mark1' },
  { route: { name: 'connections', id: IDS.runner }, ready: 'mark3' },
  { route: { name: 'byok' }, ready: 'mark2' },
  { route: { name: 'byokDetails', id: 'c1' }, ready: 'mark2' },
  { route: { name: 'byokForm', id: 'c1' }, ready: 'mark2' },
  { route: { name: 'intern', id: IDS.broken }, ready: 'mark4' },
  { route: { name: 'vault', internId: IDS.runner }, ready: 'mark5' },
];

function hostileApi(s: string[]): FakeApi {
  const api = new FakeApi();
  const at = (i: number) => s[i % s.length]!;
  api.interns[0] = intern({ id: IDS.runner, name: `mark1${at(0)}`, description: at(1), instructions: `${at(2)}\n${at(3)}`, model: `x/${at(4)}`, hostname: at(5) });
  api.interns[2] = intern({ id: IDS.broken, name: 'broken', status: 'failed', hostname: null, last_failure_message: `mark4${at(6)}` });
  api.byok[0] = credential({
    id: 'c1',
    provider: 'openai',
    name: `mark2${at(7)}`,
    label: at(8),
    allowed_models: [at(9), at(10)],
    allowed_user_ids: [at(11)],
    allowed_api_key_hashes: [at(12)],
  });
  api.connections = [`mark3${at(13)}`, `mcp:${at(14)}`];
  const secret = { name: `mark5${at(0)}`, hosts: [at(1), at(2)], fingerprint: at(3), created_at: new Date().toISOString(), value: 'v' };
  api.secrets.set(IDS.runner, new Map([[secret.name, secret]]));
  return api;
}

describe('the Text primitive', () => {
  it('cleans strings at any depth of its children: nested Text, fragments, arrays', () => {
    const r = render(
      <Text>
        a{'\x1b]52;c;ZXZpbA==\x07'}
        <>{['\u202e', 'b\x9b31m']}</>
        <Text bold>{'\x1b[2Jc'}</Text>
        {7}
      </Text>,
    );
    const out = r.frames.join('');
    expect(out).not.toMatch(FORBIDDEN);
    expect(r.lastFrame()).toContain('abc7');
    r.unmount();
  });
});

describe('hostile server strings', () => {
  it('never reach the terminal on any screen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 15, maxLength: 15 }), async (strings) => {
        for (const { route, ready } of SCREENS) {
          const app = renderApp({ api: hostileApi(strings), initial: route });
          try {
            await app.waitFor(ready);
            const written = app.frames.join('');
            const bad = FORBIDDEN.exec(written);
            expect(bad && `${route.name}: ${JSON.stringify(written.slice(Math.max(0, bad.index - 20), bad.index + 20))}`).toBeNull();
          } finally {
            app.unmount();
          }
        }
      }),
      { numRuns: 4 },
    );
  }, 60_000);
});
