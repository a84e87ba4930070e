import { describe, expect, it } from 'vitest';
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
  let detached = 0;
  const written: string[] = [];
  const s = new AttachSession({
    title: 'intern t',
    cols: 40,
    rows: 10,
    scrollback: 100,
    write: (w) => written.push(w),
    makeTransport: (h) => (transport = new FakeTransport(h)),
    onDetach: () => detached++,
    ...over,
  });
  s.start();
  const remoteOutput = (text: string) => new Promise<void>((r) => s.model.write(text, r));
  return { s, transport, written, detached: () => detached, remoteOutput };
}

describe('attach session input', () => {
  it('asks the outer terminal for bracketed pastes while attached, and stops on leaving', () => {
    const { s, written } = session();
    expect(written.join('')).toContain('\x1b[?2004h');
    s.dispose();
    expect(written.at(-1)).toBe('\x1b[?2004l');
  });

  it('holds a paste split over reads until it ends, then sends it as one piece', async () => {
    const { s, transport, remoteOutput } = session();
    s.input('a\x1b[200~line one\n');
    expect(transport.sent).toEqual(['a']);
    s.input('line two');
    expect(transport.sent).toEqual(['a']);
    s.input('\x1b[201~b');
    expect(transport.sent).toEqual(['a', 'line one\rline two', 'b']);
    // Once the remote asks for bracketed paste, the paste goes in brackets.
    await remoteOutput('\x1b[?2004h');
    s.input('\x1b[200~x\x1b[201~');
    expect(transport.sent.at(-1)).toBe('\x1b[200~x\x1b[201~');
  });

  it('detaches on ctrl+] even in the middle of a paste', () => {
    const { s, transport, detached } = session();
    s.input('\x1b[200~half');
    s.input('\x1d');
    expect(detached()).toBe(1);
    expect(transport.sent).toEqual([]);
  });
});

describe('attach session painting', () => {
  it("draws a key's echo as soon as it is parsed, without waiting for the frame clock", async () => {
    const { s, transport, written } = session();
    // A frame was just drawn (start), so ordinary output would wait up to a frame interval.
    s.input('x');
    expect(transport.sent).toEqual(['x']);
    const before = written.length;
    await new Promise<void>((r) => {
      transport.handlers.output(Buffer.from('x'), 0);
      s.model.write('', r);
    });
    expect(written.length).toBeGreaterThan(before);
    expect(written.slice(before).join('')).toContain('x');
  });

  it('parses and draws the echo within the output handler itself, with no tick in between', () => {
    const { s, transport, written } = session();
    s.input('y');
    const before = written.length;
    // No await: the emulator was told the key was the user's, so it parses the next output at once.
    transport.handlers.output(Buffer.from('y'), 0);
    expect(written.slice(before).join('')).toContain('y');
  });
});

describe('attach session passthrough (attach NAME)', () => {
  function passthrough() {
    const raw: string[] = [];
    const exits: string[] = [];
    const { s, transport, written } = session({
      cols: 20,
      rows: 5,
      scrollback: 0,
      passthrough: { writeRaw: (d) => raw.push(Buffer.from(d).toString()), onExit: (how) => exits.push(how) },
    });
    const parsed = () => new Promise<void>((r) => s.model.write('', r));
    return { s, transport, written, raw, exits, parsed };
  }

  it('writes the remote bytes straight through, with no status bar, and keeps the emulator in step', async () => {
    const { s, transport, written, raw, parsed } = passthrough();
    transport.handlers.output(Buffer.from('\x1b[31mhello\x1b[0m'), 0);
    expect(raw).toEqual(['\x1b[31mhello\x1b[0m']);
    await parsed();
    expect(written.join('')).not.toContain('ctrl+] detach');
    expect(s.model.rowAnsi(0)).toContain('hello');
  });

  it('repaints the whole screen from the emulator after a resize, then passes bytes through again', async () => {
    const { s, transport, written, raw, parsed } = passthrough();
    transport.handlers.output(Buffer.from('line-a\r\n'), 0);
    await parsed();
    written.length = 0;
    s.resize(30, 6);
    const repaint = written.join('');
    expect(repaint).toContain('\x1b[2J');
    expect(repaint).toContain('line-a');
    transport.handlers.output(Buffer.from('more'), 8);
    expect(raw.at(-1)).toBe('more');
  });

  it('ends through onExit when the remote exits', () => {
    const { transport, exits } = passthrough();
    transport.handlers.exit({ code: 0, signal: null });
    expect(exits).toEqual(['exited with code 0']);
  });
});
