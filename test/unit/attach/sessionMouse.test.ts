/** The mouse while attached: the wheel scrolls history, or goes to a program that asked for the mouse in the form it asked. */
import { describe, expect, it } from 'vitest';
import { decodeInput } from '../../../src/attach/keys.js';
import { moveReports } from '../../../src/attach/mouse.js';
import { AttachSession, type AttachSessionOptions } from '../../../src/attach/session.js';
import type { ConnectionState, TerminalTransport, TransportHandlers } from '../../../src/attach/transport.js';

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

function session(over: Partial<AttachSessionOptions> = {}) {
  let transport!: FakeTransport;
  const s = new AttachSession({
    title: 'intern t',
    cols: 40,
    rows: 10,
    scrollback: 100,
    write: () => undefined,
    makeTransport: (h) => (transport = new FakeTransport(h)),
    onDetach: () => undefined,
    history: { action: () => undefined, copy: () => undefined, hint: '' },
    ...over,
  });
  s.start();
  const remote = (text: string) => new Promise<void>((r) => s.model.write(text, r));
  return { s, transport, remote };
}

/** SGR reports at a screen cell from 0 (the status bar is row 0). */
const press = (x: number, y: number) => `\x1b[<0;${x + 1};${y + 1}M`;
const release = (x: number, y: number) => `\x1b[<0;${x + 1};${y + 1}m`;
const wheel = (dir: 'up' | 'down', x = 3, y = 3) => `\x1b[<${dir === 'up' ? 64 : 65};${x + 1};${y + 1}M`;

describe('decoding input with mouse reports in it', () => {
  it('makes each report one event, never raw bytes or typed text', () => {
    const events = decodeInput(`a${press(1, 1)}\x1b[M !!b`);
    expect(events.map((e) => e.kind)).toEqual(['text', 'mouse', 'mouse', 'text']);
    expect(events[1]).toMatchObject({ kind: 'mouse', bytes: press(1, 1), report: { type: 'press', x: 1, y: 1 } });
    expect(events[3]).toEqual({ kind: 'text', text: 'b' });
  });
});

describe('the mouse while attached (the TUI)', () => {
  it('scrolls history with the wheel, three lines a notch, and sends the remote nothing', async () => {
    const { s, transport, remote } = session();
    await remote(Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\r\n'));
    s.input(wheel('up'));
    expect(s.model.scrolledBack).toBe(3);
    s.input(wheel('up') + wheel('up'));
    expect(s.model.scrolledBack).toBe(9);
    s.input(wheel('down'));
    expect(s.model.scrolledBack).toBe(6);
    // A click is no key for a shell: nothing is sent, and history stays.
    s.input(press(2, 2) + release(2, 2));
    expect(s.model.scrolledBack).toBe(6);
    s.input(wheel('down').repeat(3));
    expect(s.model.scrolledBack).toBe(0);
    expect(transport.sent).toEqual([]);
    s.dispose();
  });

  it('hands reports to a program that turned the mouse on, in its cells and its encoding', async () => {
    const { s, transport, remote } = session();
    // SGR (1000 + 1006), as vim and htop ask.
    await remote('\x1b[?1000h\x1b[?1006h');
    s.input(press(4, 3) + release(4, 3) + wheel('down', 4, 3));
    // The status bar is the screen's first row: the remote's row 2 is the screen's 3.
    expect(transport.sent).toEqual(['\x1b[<0;5;3M', '\x1b[<0;5;3m', '\x1b[<65;5;3M']);
    expect(s.model.scrolledBack).toBe(0);
    // A click on the status bar is nobody's.
    transport.sent.length = 0;
    s.input(press(4, 0));
    expect(transport.sent).toEqual([]);
    // The X10 bytes for one that did not ask for SGR.
    await remote('\x1b[?1006l');
    s.input(press(4, 3));
    expect(transport.sent).toEqual(['\x1b[M %#']);
    // Mouse off again: the wheel is history's once more.
    await remote('\x1b[?1000l');
    transport.sent.length = 0;
    s.input(wheel('up'));
    expect(transport.sent).toEqual([]);
    s.dispose();
  });

  it('moves reports to where a pane is (the split view), dropping those left of or above it', () => {
    expect(moveReports(`a${press(52, 6)}b${press(10, 6)}`, -50, -5)).toBe(`a${press(2, 1)}b`);
  });

  it('turns the wheel into arrow keys on the alternate screen, which has no history (less, man)', async () => {
    const { s, transport, remote } = session();
    await remote('\x1b[?1049h');
    s.input(wheel('down'));
    expect(transport.sent.join('')).toBe('\x1b[B'.repeat(3));
    s.dispose();
  });
});

describe('the mouse while attached (attach NAME, passthrough)', () => {
  it('passes a report on as the terminal wrote it', () => {
    const { s, transport } = session({ passthrough: { writeRaw: () => undefined, onExit: () => undefined }, scrollback: 0, history: undefined });
    s.input(press(4, 3) + '\x1b[M %#');
    expect(transport.sent).toEqual([press(4, 3), '\x1b[M %#']);
    s.dispose();
  });
});
