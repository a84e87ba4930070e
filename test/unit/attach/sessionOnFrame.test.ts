/** A session whose frames its caller draws (the split view's pane): told when a frame is due, it writes none. */
import { describe, expect, it } from 'vitest';
import { AttachSession } from '../../../src/attach/session.js';
import type { TerminalTransport, TransportHandlers } from '../../../src/attach/transport.js';

describe('attach session with onFrame', () => {
  it('tells its caller a frame is due when output arrives, paints nothing itself, and sizes the remote a row under its rows', async () => {
    let handlers!: TransportHandlers;
    const sizes: string[] = [];
    const written: string[] = [];
    let frames = 0;
    const transport: TerminalTransport = {
      state: 'open',
      connect: () => undefined,
      send: () => undefined,
      resize: (cols, rows) => void sizes.push(`${cols}x${rows}`),
      ack: () => undefined,
      close: () => undefined,
    };
    const s = new AttachSession({
      title: 'intern t',
      cols: 30,
      rows: 8,
      scrollback: 100,
      write: (w) => void written.push(w),
      onFrame: () => void frames++,
      onDetach: () => undefined,
      makeTransport: (h, size) => {
        handlers = h;
        sizes.push(`${size.cols}x${size.rows}`);
        return transport;
      },
    });
    s.start();
    const before = frames;
    handlers.output(Buffer.from('hello \x1b[31mred\x1b[0m\r\n'), 0);
    const deadline = Date.now() + 5000;
    while (frames === before || !s.model.rowAnsi(0).includes('red')) {
      if (Date.now() > deadline) throw new Error('no frame after output');
      await new Promise((r) => setTimeout(r, 5));
    }
    s.resize(40, 12);
    expect(sizes).toEqual(['30x7', '40x11']);
    // No row of the emulator reached `write`: the caller draws them.
    expect(written.join('')).not.toContain('hello');
    expect(s.status()).toContain('intern t');
    s.dispose();
  });
});
