/**
 * The mouse, through the same path as in the app: raw terminal bytes into the key splitter
 * (which takes the reports out before Ink sees them), the router, and the boxes that listen.
 */
import { EventEmitter } from 'node:events';
import { render as inkRender } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { useState, type ReactElement } from 'react';
import { App } from '../../src/tui/app.js';
import { type Column, Table, tableWindow } from '../../src/tui/components/Table.js';
import { Picker } from '../../src/tui/components/Picker.js';
import type { Route } from '../../src/tui/context.js';
import { KeysProvider } from '../../src/tui/hooks/useKeys.js';
import { MouseProvider } from '../../src/tui/hooks/useMouse.js';
import { KeySplitter } from '../../src/tui/stdinSplitter.js';
import type { TuiOptions } from '../../src/tui/types.js';
import { conversationOf, newTurn } from '../../src/tui/screens/chatModel.js';
import { FakeApi, IDS, intern } from './fakeApi.js';
import { waitForFrame } from './render.js';

/** A terminal's stdin as the splitter reads it. */
class FakeStdin extends EventEmitter {
  isTTY = true;
  setRawMode(): void {}
  setEncoding(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 24;
  last = '';
  write = (frame: string) => {
    this.last = frame;
    return true;
  };
}

const mounted: { unmount(): void; keys: KeySplitter }[] = [];
afterEach(() => {
  for (const m of mounted.splice(0)) {
    m.unmount();
    m.keys.destroy();
  }
});

/** Renders `tree` with stdin behind a KeySplitter, as runTui does; `send` writes raw terminal bytes. */
function renderRaw(tree: ReactElement, size = { columns: 100, rows: 24 }) {
  const source = new FakeStdin();
  const keys = new KeySplitter(source as unknown as NodeJS.ReadStream);
  const stdout = new FakeStdout();
  Object.assign(stdout, size);
  const instance = inkRender(tree, { stdout: stdout as unknown as NodeJS.WriteStream, stdin: keys as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false });
  mounted.push({ unmount: instance.unmount, keys });
  const r = { lastFrame: () => stdout.last };
  const send = async (bytes: string) => {
    source.emit('data', bytes);
    await new Promise((res) => setImmediate(res));
  };
  return { ...r, send, waitFor: (want: string | RegExp | ((f: string) => boolean)) => waitForFrame(r, want) };
}

/** SGR reports at a cell counted from 0, as the frame's lines and columns are. */
const click = (x: number, y: number, button = 0) => `\x1b[<${button};${x + 1};${y + 1}M\x1b[<${button};${x + 1};${y + 1}m`;
const wheel = (dir: 'up' | 'down', x: number, y: number) => `\x1b[<${dir === 'up' ? 64 : 65};${x + 1};${y + 1}M`;
const lineOf = (frame: string, re: RegExp) => frame.split('\n').findIndex((l) => re.test(l));

type Row = { id: string; name: string };
const COLS: Column<Row>[] = [{ header: 'NAME', width: 12, cell: (r) => r.name }];
const ROWS: Row[] = Array.from({ length: 30 }, (_, i) => ({ id: String(i), name: `row-${i}` }));

function Harness({ opened }: { opened: string[] }) {
  const [selected, setSelected] = useState(0);
  return (
    <Table
      columns={COLS}
      rows={ROWS}
      rowKey={(r) => r.id}
      selected={selected}
      height={10}
      width={30}
      empty="none"
      onSelect={setSelected}
      onOpen={(i) => opened.push(ROWS[i]!.name)}
    />
  );
}

describe('a table and the mouse', () => {
  it('selects the clicked row, opens on a double-click, and types nothing', async () => {
    const opened: string[] = [];
    let now = 1_000;
    const t = renderRaw(
      <MouseProvider now={() => now}>
        <Harness opened={opened} />
      </MouseProvider>,
    );
    let f = await t.waitFor(/^›row-0\b/m);
    // The header is line 0: row-3 is on line 4.
    await t.send(click(3, lineOf(f, /row-3/)));
    f = await t.waitFor(/^›row-3\b/m);
    expect(opened).toEqual([]);
    // The window stayed where it was (row-0 still the first row shown), so the row is still under the pointer.
    expect(f.split('\n')[1]).toMatch(/row-0/);
    // Slower than a double-click: one more click, nothing opened.
    now += 500;
    await t.send(click(3, lineOf(f, /row-5/)));
    await t.waitFor(/^›row-5\b/m);
    now += 500;
    await t.send(click(3, lineOf(f, /row-3/)));
    await t.waitFor(/^›row-3\b/m);
    expect(opened).toEqual([]);
    now += 300;
    await t.send(click(3, lineOf(f, /row-3/)));
    await waitForFrame({ lastFrame: () => opened.join(',') }, 'row-3');
    expect(opened).toEqual(['row-3']);
    // Two quick clicks on two rows are two clicks.
    now += 1000;
    await t.send(click(3, lineOf(f, /row-6/)));
    await t.waitFor(/^›row-6\b/m);
    now += 100;
    await t.send(click(3, lineOf(f, /row-7/)));
    await t.waitFor(/^›row-7\b/m);
    // A click on the header or below the rows selects nothing; a right click neither.
    now += 1000;
    await t.send(click(3, 0) + click(3, 20) + click(3, lineOf(f, /row-1\b/), 2) + 'x');
    await t.send(click(3, lineOf(f, /row-2\b/)));
    await t.waitFor(/^›row-2\b/m);
    expect(opened).toEqual(['row-3']);
  });

  it('moves the cursor three rows a wheel notch, as many notches as came at once', async () => {
    const t = renderRaw(
      <MouseProvider>
        <Harness opened={[]} />
      </MouseProvider>,
    );
    await t.waitFor(/^›row-0\b/m);
    await t.send(wheel('down', 2, 2));
    await t.waitFor(/^›row-3\b/m);
    // Three notches in one read: each meets the row the one before it left.
    await t.send(wheel('down', 2, 2).repeat(3));
    const f = await t.waitFor(/^›row-12\b/m);
    // The window follows the cursor.
    expect(f).not.toMatch(/row-0\b/);
    await t.send(wheel('up', 2, 2));
    await t.waitFor(/^›row-9\b/m);
    // Never past the ends.
    await t.send(wheel('up', 2, 2).repeat(5));
    await t.waitFor(/^›row-0\b/m);
  });

  it('keeps the window a click left while the cursor stays in it', () => {
    expect(tableWindow(null, 3, 30, 10)).toEqual([0, 10]);
    expect(tableWindow(null, 15, 30, 10)).toEqual([10, 20]);
    // Pinned at 0 by a click on row 8: the window stays, not centred on row 8.
    expect(tableWindow(0, 8, 30, 10)).toEqual([0, 10]);
    // The cursor left it: centred again.
    expect(tableWindow(0, 12, 30, 10)).toEqual([7, 17]);
    // A pin past a list that shrank is brought back.
    expect(tableWindow(25, 26, 28, 10)).toEqual([18, 28]);
  });
});

describe('a picker and the mouse', () => {
  it('selects the clicked row, picks it on a double-click, and moves with the wheel', async () => {
    const picked: string[] = [];
    const items = Array.from({ length: 12 }, (_, i) => ({ value: `m${i}`, label: `model-${i}`, detail: '' }));
    // A clock that stands still: the two clicks are a double-click however slow the machine.
    const t = renderRaw(
      <MouseProvider now={() => 0}>
        <Picker title="Models" items={items} height={6} width={40} onClose={() => undefined} onPick={(rows) => picked.push(...rows.map((r) => String(r.value)))} />
      </MouseProvider>,
    );
    let f = await t.waitFor(/›\s*model-0/);
    await t.send(click(6, lineOf(f, /model-2\b/)));
    f = await t.waitFor(/›\s*model-2/);
    expect(picked).toEqual([]);
    await t.send(click(6, lineOf(f, /model-2\b/)));
    await waitForFrame({ lastFrame: () => picked.join(',') }, 'm2');
    await t.send(wheel('down', 6, lineOf(f, /model-2\b/)));
    await t.waitFor(/›\s*model-5/);
  });
});

function renderAppRaw(opts: { api?: FakeApi; initial?: Route; size?: { columns: number; rows: number } } = {}) {
  const api = opts.api ?? new FakeApi();
  const options: TuiOptions = {
    api,
    profile: null,
    host: '127.0.0.1:9',
    sandbox: true,
    features: [],
    iconCacheDir: '/nonexistent/intern-tui-test-cache',
    scrollback: 1000,
    warnings: [],
  };
  return {
    api,
    ...renderRaw(
      <KeysProvider>
        <MouseProvider>
          <App options={options} initial={opts.initial} />
        </MouseProvider>
      </KeysProvider>,
      opts.size,
    ),
  };
}

describe('the app and the mouse', () => {
  it('the intern list: a click on the second row selects it, a double-click opens its details', async () => {
    const app = renderAppRaw();
    let f = await app.waitFor(/› ?★ runner/);
    const line = lineOf(f, /builder/);
    await app.send(click(10, line));
    f = await app.waitFor(/› ?★ builder/);
    expect(f).not.toMatch(/› ?★ runner/);
    // No key reached the list: no filter opened, nothing typed.
    expect(f).not.toContain('name, model, status');
    await app.send(click(10, line));
    await app.send(click(10, line));
    await app.waitFor((s) => s.includes('Pulling the image') && !s.includes('NAME'));
  });

  it('keys still work after reports, and a report cut across two reads is no key', async () => {
    const app = renderAppRaw();
    await app.waitFor(/› ?★ runner/);
    await app.send('\x1b[<0;10;');
    await app.send('7M');
    await app.send('j');
    const f = await app.waitFor(/› ?★ builder|› ?★ broken/);
    expect(f).not.toContain('name, model, status');
  });

  it('a click on a row the palette covers the screen with selects nothing', async () => {
    const app = renderAppRaw();
    const f = await app.waitFor(/› ?★ runner/);
    const line = lineOf(f, /sleeper/);
    await app.send(':');
    await app.waitFor(/│ › :/);
    // The press goes out as it is read, before the key after it: once "x" shows, it was handled.
    await app.send(click(10, line) + 'x');
    const after = await app.waitFor(/› : x/);
    expect(after).toMatch(/› ?★ runner/);
    expect(after).not.toMatch(/› ?★ sleeper/);
  });

  it('the wheel scrolls an intern\'s details when they are cut', async () => {
    const api = new FakeApi();
    api.interns.push(intern({ id: 'aaaaaaaa-0000-4000-8000-0000000000ff', name: 'wordy', description: Array.from({ length: 40 }, (_, i) => `line ${i} of a long description`).join('\n') }));
    const app = renderAppRaw({ api, initial: { name: 'intern', id: 'aaaaaaaa-0000-4000-8000-0000000000ff' }, size: { columns: 100, rows: 20 } });
    const f = await app.waitFor(/↓ \d+ more lines/);
    const below = Number(/↓ (\d+)/.exec(f)![1]);
    const y = lineOf(f, /line 0 of/) >= 0 ? lineOf(f, /line 0 of/) : 8;
    await app.send(wheel('down', 10, y));
    await app.waitFor(new RegExp(`↑ 3 ↓ ${below - 3} `));
    await app.send(wheel('up', 10, y));
    await app.waitFor(new RegExp(`^↓ ${below} `, 'm'));
  });

  it('the wheel scrolls the chat\'s transcript, three rows a notch, and back down to the end', async () => {
    const api = new FakeApi();
    const answer = Array.from({ length: 30 }, (_, i) => `answer line ${i}`).join('\n\n');
    conversationOf(api, IDS.runner).turns.push({ ...newTurn('tell me'), answer, status: 'done' });
    const app = renderAppRaw({ api, initial: { name: 'chat', id: IDS.runner } });
    const f = await app.waitFor('answer line 29');
    const y = lineOf(f, /answer line 2\d/);
    await app.send(wheel('up', 10, y));
    await app.waitFor(/scrolled 3 up/);
    await app.send(wheel('up', 10, y) + wheel('up', 10, y));
    await app.waitFor(/scrolled 9 up/);
    await app.send(wheel('down', 10, y).repeat(4));
    await app.waitFor((s) => !/scrolled \d+ up/.test(s) && s.includes('answer line 29'));
  });

  it('the wheel scrolls the help overlay', async () => {
    const app = renderAppRaw();
    await app.waitFor(/› ?★ runner/);
    await app.send('?');
    const f = await app.waitFor(/ 1-\d+ of \d+/);
    await app.send(wheel('down', 10, lineOf(f, /Keys \(esc/) + 3));
    await app.waitFor(/ 4-\d+ of \d+/);
  });
});
