/** The chat's permission and question boxes say what they allow in full, and the terminal is signalled when the intern waits. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { ChatStart } from '../../src/client/types.js';
import { PROVIDE_INPUT_TOOL, type ChatChunk, type ChatRequest } from '../../src/contract/chat.js';
import type { TuiOptions } from '../../src/tui/types.js';
import { FakeApi, IDS } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk => ({
  id: 'gen-x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A chat whose first stream asks `args` (a provide_input call), and whose later ones answer and stop. */
function asking(api: FakeApi, args: object) {
  api.chat = async (internId: string, body: ChatRequest): Promise<ChatStart> => {
    api.calls.push({ method: 'chat', args: [internId, body] });
    const first = api.callsOf('chat').length === 1;
    return {
      kind: 'stream',
      events: (async function* () {
        if (first) {
          yield chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call-1', type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: JSON.stringify(args) } }] }, 'tool_calls');
        } else yield chunk({ role: 'assistant', content: 'done' }, 'stop');
      })(),
    };
  };
}

async function openChat(api: FakeApi, options: Partial<TuiOptions> = {}, size = { columns: 80, rows: 24 }) {
  const app = renderApp({ api, initial: { name: 'chat', id: IDS.runner }, options });
  app.resize(size);
  await app.waitFor('Chat with runner');
  return app;
}

const permission = (command: string) => ({ kind: 'permission', operation: 'shell', input: { command }, options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'] });

describe('what a request allows', () => {
  it('shows the command a permission allows, in full and sanitised, between its operation and its options', async () => {
    const api = new FakeApi();
    asking(api, permission('rm -rf build && echo \x1b]0;pwned\x07done'));
    const app = await openChat(api);
    await app.type('go');
    await app.press('enter');
    const f = await app.waitFor('Permission: shell');
    expect(f).toMatch(/Permission: shell *│\n│ +\$ rm -rf build && echo done *│\n│ +1\. Allow once/);
    expect(f).not.toContain('pwned');
  });

  it('wraps a long command and scrolls it with pgup/pgdn while it is asked', async () => {
    const api = new FakeApi();
    const script = Array.from({ length: 30 }, (_, i) => `echo step-${i + 1}`).join('\n');
    asking(api, permission(script));
    const app = await openChat(api);
    await app.type('go');
    await app.press('enter');
    let f = await app.waitFor(/… 0 lines above, \d+ below \(pgup\/pgdn\)/);
    expect(f).toContain('$ echo step-1');
    expect(f).not.toContain('step-30');
    // The options stay in view under it, and the prompt under them.
    expect(f).toContain('4. Reject always');
    for (let i = 0; i < 6; i++) await app.press('\x1b[6~');
    f = await app.waitFor('echo step-30');
    expect(f).toMatch(/… \d+ lines above, 0 below/);
    expect(f).not.toContain('step-1 ');
    await app.press('1');
    await app.waitFor('done');
  });

  it('wraps a long question over rows instead of cutting it', async () => {
    const api = new FakeApi();
    const message = 'Which of the release branches should I merge into main before tagging, given that the last one failed its checks?';
    asking(api, { kind: 'elicitation', message, fields: [{ name: 'answer', type: 'text', title: 'Answer' }] });
    const app = await openChat(api);
    await app.type('go');
    await app.press('enter');
    const f = await app.waitFor('failed its checks?');
    expect(f).toContain('Question: Which of the release branches');
  });
});

describe('attention', () => {
  const writes = (app: { frames: string[] }, what: string) => app.frames.filter((fr) => fr.includes(what)).length;

  it('rings the bell by default when a permission request arrives', async () => {
    const api = new FakeApi();
    asking(api, permission('ls'));
    const app = await openChat(api);
    await app.type('go');
    await app.press('enter');
    await app.waitFor('Permission: shell');
    await vi.waitFor(() => expect(writes(app, '\x07')).toBe(1));
  });

  it('sends a desktop notification by OSC 9 or OSC 777 when configured, sanitised, and nothing when off', async () => {
    for (const [notify, want] of [
      ['osc9', '\x1b]9;intern-tui: runner asks: Deploy now?\x07'],
      ['osc777', '\x1b]777;notify;intern-tui;runner asks: Deploy now?\x07'],
    ] as const) {
      const api = new FakeApi();
      asking(api, { kind: 'elicitation', message: 'Deploy\x1b[31m now?', fields: [] });
      const app = await openChat(api, { notify });
      await app.type('go');
      await app.press('enter');
      await app.waitFor('Question: Deploy now?');
      await vi.waitFor(() => expect(app.frames).toContain(want));
      cleanup();
    }
    const api = new FakeApi();
    asking(api, permission('ls'));
    const off = await openChat(api, { notify: 'off' });
    await off.type('go');
    await off.press('enter');
    await off.waitFor('Permission: shell');
    expect(writes(off, '\x07')).toBe(0);
  });

  it('signals the end of a turn that ran longer than 10 s, and not of a short one', async () => {
    const api = new FakeApi();
    const app = await openChat(api);
    await app.type('quick');
    await app.press('enter');
    await app.waitFor('Echo: quick');
    expect(writes(app, '\x07')).toBe(0);
    const now = Date.now();
    await app.type('slow');
    // The turn starts now and ends "11 s later".
    vi.spyOn(Date, 'now').mockImplementation(() => now + (api.callsOf('chat').length > 1 ? 11_000 : 0));
    await app.press('enter');
    await app.waitFor('Echo: slow');
    await vi.waitFor(() => expect(writes(app, '\x07')).toBe(1));
  });
});
