import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { CopyMode } from '../../../src/attach/copyMode.js';
import { AttachSession } from '../../../src/attach/session.js';
import type { ConnectionState, TerminalTransport, TransportHandlers } from '../../../src/attach/transport.js';
import { historyAction, historyHint } from '../../../src/tui/rawKeys.js';

/** A 30x5 terminal with 100 lines of scrollback holding `lines`. */
async function terminal(lines: string[]): Promise<xterm.Terminal> {
  const term = new xterm.Terminal({ cols: 30, rows: 5, scrollback: 100, allowProposedApi: true });
  await new Promise<void>((r) => term.write(lines.join('\r\n'), r));
  return term;
}

const LINES = ['alpha one', 'Beta two', 'gamma three', 'beta four', 'delta five', 'epsilon six', 'zeta seven', 'eta eight'];

describe('copy mode', () => {
  it('searches forward and backward, steps with next and previous, and wraps round once', async () => {
    const term = await terminal(LINES);
    const c = new CopyMode(term);
    // It starts on the view's last row.
    expect(c.cursor).toEqual({ line: 7, col: 0 });
    c.act('searchForward');
    for (const ch of 'beta') c.type({ text: ch });
    c.type('enter');
    // Lower case matches either case; from the last row it goes round to the top.
    expect(c.cursor).toEqual({ line: 1, col: 0 });
    expect(c.note).toBe('search went past the end: from the top');
    c.act('next');
    expect(c.cursor).toEqual({ line: 3, col: 0 });
    c.act('previous');
    expect(c.cursor).toEqual({ line: 1, col: 0 });
    // ? searches backward; n then goes backward too.
    c.act('searchBackward');
    for (const ch of 'ta') c.type({ text: ch });
    c.type('enter');
    // "eta eight": the wrap goes round to the end.
    expect(c.cursor).toEqual({ line: 7, col: 1 });
    c.act('next');
    expect(c.cursor).toEqual({ line: 6, col: 2 });
  });

  it('matches case when the search has a capital letter, and says when nothing matches', async () => {
    const c = new CopyMode(await terminal(LINES));
    c.act('searchForward');
    for (const ch of 'Beta') c.type({ text: ch });
    c.type('enter');
    expect(c.cursor).toEqual({ line: 1, col: 0 });
    c.act('next');
    expect(c.cursor).toEqual({ line: 1, col: 0 });
    c.act('searchForward');
    for (const ch of 'omega') c.type({ text: ch });
    c.type('enter');
    expect(c.note).toBe('no match for "omega"');
    // Escape drops a search being typed; the one in force stays.
    c.act('searchForward');
    c.type({ text: 'x' });
    c.type('escape');
    expect(c.prompt).toBeNull();
    expect(c.query).toBe('omega');
  });

  it('highlights the matches on a row in view, the one under the cursor apart', async () => {
    const term = await terminal(['one two one', 'none']);
    const c = new CopyMode(term);
    c.act('searchForward');
    for (const ch of 'one') c.type({ text: ch });
    c.type('enter');
    expect(c.cursor).toEqual({ line: 0, col: 0 });
    expect(c.marks(0, 0)).toEqual([
      { from: 0, to: 3, sgr: '0;30;46' },
      { from: 8, to: 11, sgr: '0;30;43' },
    ]);
    expect(c.marks(1, 0)).toEqual([{ from: 1, to: 4, sgr: '0;30;43' }]);
  });

  it('copies a selection across rows, joining a row that wrapped, trailing blanks off', async () => {
    const term = await terminal(['first line   ', `${'w'.repeat(30)}rapped`, 'third']);
    const c = new CopyMode(term);
    c.act('top');
    c.act('right');
    c.act('select');
    c.act('down');
    c.act('down');
    c.act('lineEnd');
    // Rows: "first line", the 30 w's, "rapped" (wrapped on), "third".
    expect(c.act('copy')).toBe(`irst line\n${'w'.repeat(30)}rapped`);
    // Without a selection, y copies the cursor's line.
    c.act('select');
    c.act('down');
    expect(c.act('copy')).toBe('third');
    // G goes to the live screen's last row (blank here).
    c.act('bottom');
    expect(c.cursor.line).toBe(4);
  });

  it('copies no control character, and a wide character whole', async () => {
    const c = new CopyMode(await terminal(['日本 x']));
    c.act('top');
    c.act('select');
    c.act('lineEnd');
    expect(c.act('copy')).toBe('日本 x');
  });
});

class FakeTransport implements TerminalTransport {
  sent: string[] = [];
  state: ConnectionState = 'open';
  constructor(readonly handlers: TransportHandlers) {}
  connect(): void {}
  send(data: string | Uint8Array): void {
    this.sent.push(typeof data === 'string' ? data : Buffer.from(data).toString());
  }
  resize(): void {}
  ack(): void {}
  close(): void {}
}

describe('history mode in the attach session', () => {
  async function attached(cols = 40) {
    let transport!: FakeTransport;
    const copied: string[] = [];
    const written: string[] = [];
    const s = new AttachSession({
      title: 'intern t',
      cols,
      rows: 10,
      scrollback: 200,
      write: (w) => written.push(w),
      makeTransport: (h) => (transport = new FakeTransport(h)),
      onDetach: () => undefined,
      history: { action: historyAction, copy: (t) => copied.push(t), hint: historyHint() },
    });
    s.start();
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i} of the log`).join('\r\n');
    await new Promise<void>((r) => s.model.write(lines, r));
    return { s, transport: () => transport, copied, written };
  }
  const SHIFT_PGUP = '\x1b[5;2~';

  it('searches with / and n, selects with v, copies with y and goes back to the live screen, sending no key', async () => {
    const { s, transport, copied } = await attached();
    s.input(SHIFT_PGUP);
    expect(s.model.scrolledBack).toBeGreaterThan(0);
    for (const key of ['/', 'l', 'i', 'n', 'e', ' ', '1', '2', '\r']) s.input(key);
    const line = s.model.term.buffer.active.getLine(12)!.translateToString(true);
    expect(line).toBe('line 12 of the log');
    s.input('n');
    for (const key of ['v', 'l', 'l', 'l', 'l', 'l', 'l']) s.input(key);
    s.input('y');
    expect(copied).toEqual(['line 12']);
    expect(s.model.scrolledBack).toBe(0);
    expect(transport().sent).toEqual([]);
  });

  it('draws the matches in view and names the keys in the status bar', async () => {
    const { s, written } = await attached(120);
    s.input(SHIFT_PGUP);
    for (const key of ['?', '4', '0', '\r']) s.input(key);
    written.length = 0;
    await new Promise((r) => setTimeout(r, 40));
    const frame = written.join('');
    expect(frame).toContain('\x1b[0;30;46m40');
    expect(frame).toContain('"40": n/N next/previous');
  });

  it('ends with a key that is not its own, which goes to the remote', async () => {
    const { s, transport } = await attached();
    s.input(SHIFT_PGUP);
    s.input('x');
    expect(s.model.scrolledBack).toBe(0);
    expect(transport().sent).toEqual(['x']);
  });
});

describe('recording in the attach session', () => {
  it('hands the recorder the output as received, resizes, typed bytes, and markers at attach, resume, exit and detach', async () => {
    let transport!: FakeTransport;
    const calls: string[] = [];
    const recorder = {
      output: (d: Uint8Array, offset: number) => void calls.push(`o ${offset} ${Buffer.from(d).toString()}`),
      input: (d: string) => void calls.push(`i ${d}`),
      resize: (c: number, r: number) => void calls.push(`r ${c}x${r}`),
      marker: (m: string) => void calls.push(`m ${m}`),
      restarted: (start: number) => void calls.push(`restarted ${start}`),
    };
    const s = new AttachSession({ title: 't', cols: 40, rows: 10, scrollback: 10, write: () => undefined, makeTransport: (h) => (transport = new FakeTransport(h)), onDetach: () => undefined, recorder });
    s.start();
    transport.handlers.state('open');
    transport.handlers.output(Buffer.from('$ '), 0);
    transport.handlers.state('reconnecting', 'connection lost');
    transport.handlers.state('open');
    transport.handlers.output(Buffer.from('ls'), 2);
    s.input('l');
    s.resize(50, 12);
    transport.handlers.restarted?.(0);
    transport.handlers.exit({ code: 0, signal: null });
    s.dispose();
    expect(calls).toEqual(['m attach', 'o 0 $ ', 'm resume', 'o 2 ls', 'i l', 'r 50x11', 'restarted 0', 'm exit: exited with code 0', 'm detach']);
  });
});
