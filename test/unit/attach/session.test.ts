import { describe, expect, it } from 'vitest';
import { AttachSession } from '../../../src/attach/session.js';
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

function session() {
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
