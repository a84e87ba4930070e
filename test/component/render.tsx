/** Renders the whole app on a fake API, with helpers that wait for frames instead of sleeping. */
import { render } from 'ink-testing-library';
import { App } from '../../src/tui/app.js';
import { KeysProvider } from '../../src/tui/hooks/useKeys.js';
import type { Route } from '../../src/tui/context.js';
import type { TuiOptions } from '../../src/tui/types.js';
import { inkKey } from '../../src/tui/keyParse.js';
import { KEYS } from '../support/keys.js';
import { FakeApi } from './fakeApi.js';

type Wanted = string | RegExp | ((f: string) => boolean);

/** Waits until a rendered tree's last frame shows `want` (frames update asynchronously), and returns that frame. */
/** A frame's last line: the footer. */
export const footerOf = (frame: string): string => frame.trimEnd().split('\n').at(-1)!;

export async function waitForFrame(r: { lastFrame: () => string | undefined }, want: Wanted, timeoutMs = 5_000): Promise<string> {
  const ok = typeof want === 'function' ? want : (f: string) => (typeof want === 'string' ? f.includes(want) : want.test(f));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const f = r.lastFrame() ?? '';
    if (ok(f)) return f;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(want)} in:\n${f}`);
    await new Promise((res) => setTimeout(res, 5));
  }
}

export function renderApp(opts: { api?: FakeApi; initial?: Route; options?: Partial<TuiOptions> } = {}) {
  const api = opts.api ?? new FakeApi();
  const options: TuiOptions = {
    api,
    profile: null,
    host: '127.0.0.1:9',
    sandbox: true,
    features: [{ name: 'Release notes', requires: ['github', 'slack'] }, { name: 'Calendar', requires: ['google'] }],
    iconCacheDir: '/nonexistent/intern-tui-test-cache',
    scrollback: 1000,
    warnings: [],
    ...opts.options,
  };
  const r = render(
    <KeysProvider>
      <App options={options} initial={opts.initial} />
    </KeysProvider>,
  );
  const frame = () => r.lastFrame() ?? '';
  const waitFor = (want: Wanted, timeoutMs = 5_000) => waitForFrame(r, want, timeoutMs);
  /**
   * One key per write, as the app's stdin splitter hands it to Ink (inkKey). No pause is needed
   * between keys: the app's key pump releases each key only after the commit of the one before.
   */
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      r.stdin.write(inkKey(KEYS[k] ?? k));
      await new Promise((res) => setImmediate(res));
    }
  };
  const type = async (text: string) => {
    for (const ch of text) await press(ch);
  };
  /** The terminal's new size (either side left as it is), as a real one reports it: its getters, then `resize`. */
  const resize = (size: { columns?: number; rows?: number }) => {
    for (const side of ['columns', 'rows'] as const) {
      const cells = size[side];
      if (cells !== undefined) Object.defineProperty(r.stdout, side, { get: () => cells, configurable: true });
    }
    r.stdout.emit('resize');
  };
  return { ...r, api, frame, waitFor, press, type, resize };
}
