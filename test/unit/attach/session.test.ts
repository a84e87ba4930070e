import xterm from '@xterm/headless';
import { describe, expect, it, vi } from 'vitest';
import { FLOW } from '../../../src/attach/protocol.js';
import { AttachSession, type AttachSessionOptions } from '../../../src/attach/session.js';
import type { ConnectionState, TerminalTransport, TransportHandlers } from '../../../src/attach/transport.js';

class FakeTransport implements TerminalTransport {
  sent: string[] = [];
  acks: number[] = [];
  state: ConnectionState = 'open';
  constructor(readonly handlers: TransportHandlers) {}
  connect(): void {}
  send(data: string | Uint8Array): void {
    this.sent.push(typeof data === 'string' ? data : Buffer.from(data).toString());
  }
  resize(): void {}
  ack(offset: number): void {
    this.acks.push(offset);
  }
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

/** Waits (polling, not sleeping a fixed time) until `ok` holds. */
async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** 1 MiB of coloured lines in 16 KiB messages, back to back (a flood), through the transport; what was sent. */
function flood(transport: FakeTransport): string {
  let sent = '';
  let offset = 0;
  for (let n = 0; offset < 1 << 20; ) {
    let chunk = '';
    while (chunk.length < 16 << 10) chunk += `\x1b[3${n % 8}mline ${n++}\x1b[0m\r\n`;
    transport.handlers.output(Buffer.from(chunk, 'latin1'), offset);
    sent += chunk;
    offset += chunk.length;
  }
  return sent;
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

  it('answers a terminal query that arrives live, never one in the replay an attach begins with', async () => {
    const { s, transport } = session();
    // The daemon: the 9 bytes before offset 9 were written before this connection.
    transport.handlers.replayed?.(9);
    transport.handlers.output(Buffer.from('\x1b[6nab\x1b[c'), 0);
    // A key typed while the replay is parsed is the user's: it goes.
    s.input('k');
    await until(() => s.model.term.buffer.active.cursorX === 2, 'the replay parsed');
    transport.handlers.output(Buffer.from('\x1b[6n'), 9);
    await until(() => transport.sent.length > 1, 'the live query answered');
    // The key, and one answer: the live query's (the cursor after "ab" is on row 1, column 3).
    expect(transport.sent).toEqual(['k', '\x1b[1;3R']);
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

describe('attach session in a flood (the TUI)', () => {
  it('holds a flood, parses little of its history, and shows all of it, as parsing every byte would, once scrolled back', async () => {
    const size = { cols: 30, rows: 8, scrollback: 500 };
    const { s, transport, written } = session(size);
    const sent = flood(transport);
    expect(transport.acks.at(-1)).toBeGreaterThan(sent.length - FLOW.ackEveryBytes);
    const last = `line ${sent.split('line ').length - 2}`;
    await until(() => s.model.heldBytes === 0 && written.join('').includes(last), 'the last line on screen');
    await new Promise<void>((r) => s.model.write('', r));
    // Lines past the scrollback left out, most of the rest set aside unparsed.
    expect(s.model.skipped).toBeGreaterThan(sent.length / 2);
    expect(s.model.deferred).toBeGreaterThan(400 * 10);
    s.input('\x1b[5;2~');
    expect(s.model.scrolledBack).toBe(size.rows - 2);
    const want = new xterm.Terminal({ allowProposedApi: true, logLevel: 'off', cols: size.cols, rows: size.rows - 1, scrollback: size.scrollback });
    await new Promise<void>((r) => want.write(Buffer.from(sent, 'latin1'), r));
    const text = (t: xterm.Terminal) => Array.from({ length: t.buffer.active.length }, (_, i) => t.buffer.active.getLine(i)!.translateToString(true));
    expect(text(s.model.term)).toEqual(text(want));
    want.dispose();
    s.dispose();
  });
});

describe('attach session: when held output goes to the screen', () => {
  /** 16 KiB of plain lines, numbered from `n`. */
  const lines = (n: number) => {
    let chunk = '';
    while (chunk.length < 16 << 10) chunk += `line ${n++}\r\n`;
    return Buffer.from(chunk);
  };

  it('releases a held flood as soon as output pauses, and not before HOLD_MS while it streams on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'performance', 'Date'] });
    try {
      const { s, transport } = session({ cols: 30, rows: 8, scrollback: 500 });
      let offset = 0;
      const send = () => {
        const chunk = lines(offset);
        transport.handlers.output(chunk, offset);
        offset += chunk.length;
      };
      // A stream's first 64 KiB are parsed as they come: a flood is held only after them.
      while (offset <= 64 << 10) send();
      send();
      expect(s.model.heldBytes).toBeGreaterThan(0);
      // Output goes on every 2 ms: held until 50 ms after its first byte, then released.
      for (let t = 2; t <= 48; t += 2) {
        await vi.advanceTimersByTimeAsync(2);
        expect(s.model.heldBytes, `${t} ms after the first byte held`).toBeGreaterThan(0);
        send();
      }
      await vi.advanceTimersByTimeAsync(2);
      expect(s.model.heldBytes).toBe(0);
      // Then the stream stops: what came last is held only until output has paused 4 ms.
      send();
      expect(s.model.heldBytes).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(3);
      expect(s.model.heldBytes).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.model.heldBytes).toBe(0);
      s.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('attach session status bar', () => {
  it("draws the daemon's words (an error, an exit reason) without their escape sequences", async () => {
    const { transport, written } = session({ cols: 100 });
    transport.handlers.state('reconnecting', 'daemon error: \x1b]52;c;ZXZpbA==\x07bad\x9b2J');
    await until(() => written.join('').includes('daemon error: bad'), 'the status bar');
    transport.handlers.exit({ code: null, signal: null, reason: '\x1b]0;title\x07stopped\x1b[2J' });
    await until(() => written.join('').includes('stopped │ press any key to return'), 'the exit in the status bar');
    const bars = written.filter((w) => w.includes('intern t │')).join('');
    expect(bars).not.toMatch(/\x1b\]|\x07|\x9b|\x1b\[2J/);
  });

  it('cuts a long state first, so the hint (detach, or return) stays whole on a narrow screen', async () => {
    const { transport, written } = session({ cols: 50 });
    transport.handlers.exit({ code: null, signal: null, reason: 'The intern was suspended by its owner while you were attached' });
    await until(() => written.join('').includes('press any key to return'), 'the exit in the status bar');
    const bar = written.filter((w) => w.includes('intern t │')).at(-1)!;
    expect(bar).toContain(' intern t │ The intern… │ press any key to return ');
    const narrow = session({ cols: 30 });
    narrow.transport.handlers.state('reconnecting', 'connection lost');
    await until(() => narrow.written.join('').includes('intern t │ r…'), 'the status bar');
    // Too narrow for all three: the hint comes first.
    expect(narrow.written.filter((w) => w.includes('intern t')).at(-1)).toContain(' ctrl+] detach │ intern t │ r…');
  });
});

describe('attach session passthrough (attach NAME)', () => {
  function passthrough(cols = 20) {
    const raw: string[] = [];
    const exits: string[] = [];
    const written: string[] = [];
    /** Both, in the order they reached the terminal: `R` what was passed through, `W` what the session drew. */
    const log: string[] = [];
    const { s, transport } = session({
      cols,
      rows: 5,
      scrollback: 0,
      write: (w) => {
        written.push(w);
        log.push(`W${w}`);
      },
      passthrough: {
        writeRaw: (d) => {
          const text = typeof d === 'string' ? d : Buffer.from(d).toString('latin1');
          raw.push(text);
          log.push(`R${text}`);
        },
        onExit: (how, byService) => exits.push(`${how} (by the ${byService ? 'service' : 'program'})`),
      },
    });
    const parsed = () => new Promise<void>((r) => s.model.write('', r));
    return { s, transport, written, raw, log, exits, parsed };
  }

  it('writes the remote bytes straight through, with no status bar, and keeps the emulator in step', async () => {
    const { s, transport, written, raw, parsed } = passthrough();
    transport.handlers.output(Buffer.from('\x1b[31mhello\x1b[0m'), 0);
    expect(raw).toEqual(['\x1b[31mhello\x1b[0m']);
    await parsed();
    expect(written.join('')).not.toContain('ctrl+] detach');
    expect(s.model.rowAnsi(0)).toContain('hello');
  });

  it('draws the replay an attach begins with from the emulator, so the terminal answers none of its queries; live output passes', async () => {
    const { transport, written, raw, parsed } = passthrough();
    transport.handlers.replayed?.(9);
    transport.handlers.output(Buffer.from('\x1b[6nab\x1b[c'), 0);
    await parsed();
    expect(raw.join('')).toBe('');
    expect(written.join('')).toContain('ab');
    transport.handlers.output(Buffer.from('cd\x1b[6n'), 9);
    await parsed();
    expect(raw.join('')).toBe('cd\x1b[6n');
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

  it('ends through onExit when the remote exits, saying whether the service ended it', () => {
    const { transport, exits } = passthrough();
    transport.handlers.exit({ code: 0, signal: null });
    expect(exits).toEqual(['exited with code 0 (by the program)']);
    const other = passthrough();
    other.transport.handlers.exit({ code: null, signal: null, reason: 'The sandbox is shutting down\x1b]0;pwned\x07' });
    expect(other.exits).toEqual(['The sandbox is shutting down (by the service)']);
    const empty = passthrough();
    empty.transport.handlers.exit({ code: null, signal: null, reason: '' });
    expect(empty.exits).toEqual(['ended by the service (by the service)']);
  });

  it('draws a notice over the top row while the connection is lost, and repaints the screen from the emulator once back', async () => {
    const { transport, written, raw, parsed } = passthrough(100);
    transport.handlers.output(Buffer.from('top-row\r\nsecond'), 0);
    await parsed();
    written.length = 0;
    transport.handlers.state('reconnecting', 'connection lost');
    const notice = written.join('');
    // Over row 1, then the cursor back where the emulator has it, so typing after it lands where it was.
    expect(notice).toMatch(/^\x1b\[1;1H.*reconnecting… \(connection lost\).*\x1b\[2;7H$/);
    expect(notice).not.toMatch(/\x1b[78]/);
    // A retry says so again, with its own reason.
    transport.handlers.state('reconnecting', 'daemon access failed: HTTP 503');
    expect(written.join('')).toContain('reconnecting… (daemon access failed: HTTP 503)');
    written.length = 0;
    transport.handlers.state('open');
    const repaint = written.join('');
    expect(repaint).toContain('\x1b[2J');
    expect(repaint).toContain('top-row');
    expect(repaint).not.toContain('reconnecting');
    // Open again with no notice shown: nothing is drawn.
    written.length = 0;
    transport.handlers.state('open');
    expect(written.join('') + raw.join('')).not.toContain('\x1b[2J');
  });

  /** The screen and attributes an emulator of the same size shows after `bytes`. */
  async function screenOf(bytes: string, cols: number, rows: number): Promise<string[]> {
    const term = new xterm.Terminal({ allowProposedApi: true, cols, rows, scrollback: 0, logLevel: 'off' });
    await new Promise<void>((r) => term.write(Buffer.from(bytes, 'latin1'), r));
    const lines: string[] = [];
    const cell = term.buffer.active.getNullCell();
    for (let y = 0; y < rows; y++) {
      const line = term.buffer.active.getLine(y)!;
      let out = '';
      for (let x = 0; x < cols; x++) out += `${line.getCell(x, cell)!.getChars() || ' '}${line.getCell(x, cell)!.getFgColor()}`;
      lines.push(out);
    }
    lines.push(`cursor ${term.buffer.active.cursorX},${term.buffer.active.cursorY}`);
    term.dispose();
    return lines;
  }

  it('leaves out of the terminal the lines of a flood that scroll off unseen, and the terminal ends as the emulator does', async () => {
    const { s, transport, raw } = passthrough();
    const sent = flood(transport);
    // Held output is acknowledged as it arrives, so the daemon goes on sending.
    expect(transport.acks.at(-1)).toBeGreaterThan(sent.length - FLOW.ackEveryBytes);
    await until(() => s.model.heldBytes === 0 && raw.join('').includes(`line ${sent.split('line ').length - 2}`), 'the held flood to reach the terminal');
    await new Promise<void>((r) => s.model.write('', r));
    const shown = raw.join('');
    expect(shown.length).toBeLessThan(sent.length / 10);
    expect(await screenOf(shown, 20, 5)).toEqual(await screenOf(sent, 20, 5));
  });

  it('holds neither a command\'s output nor what follows a key', async () => {
    const { s, transport, raw, parsed } = passthrough();
    // A command's output up to 256 KiB reaches the terminal whole (its scrollback is the user's).
    transport.handlers.output(Buffer.from('x'.repeat(200 << 10)), 0);
    expect(s.model.heldBytes).toBe(0);
    s.input('k');
    transport.handlers.output(Buffer.from('k'.repeat(100 << 10)), 200 << 10);
    expect(s.model.heldBytes).toBe(0);
    await parsed();
    expect(raw.join('').length).toBe(300 << 10);
    // The same stream with no key: past its first 256 KiB, it is held.
    const other = passthrough();
    other.transport.handlers.output(Buffer.from('x'.repeat(200 << 10)), 0);
    other.transport.handlers.output(Buffer.from('y'.repeat(100 << 10)), 200 << 10);
    expect(other.s.model.heldBytes).toBe(100 << 10);
  });

  it('keeps the terminal on its alternate screen when the remote switches screens, and repaints it from the emulator', async () => {
    const { transport, raw, written, parsed } = passthrough();
    transport.handlers.output(Buffer.from('$ vim\r\n\x1b[?1049h\x1b[Hediting'), 0);
    await parsed();
    expect(written.join('')).toContain('editing');
    written.length = 0;
    transport.handlers.output(Buffer.from('\x1b[?1049l$ done'), 30);
    await parsed();
    expect(raw.join('')).not.toContain('1049');
    const repaint = written.join('');
    expect(repaint).toContain('\x1b[2J');
    expect(repaint).toContain('$ vim');
    expect(repaint).toContain('$ done');
    expect(repaint).not.toContain('editing');
  });

  it('repaints after the message that switched screens, before the next one reaches the terminal', async () => {
    const { transport, log, parsed } = passthrough();
    transport.handlers.output(Buffer.from('\x1b[?1049hfull screen'), 0);
    transport.handlers.output(Buffer.from('NEXT'), 19);
    await parsed();
    const repaint = log.findIndex((l) => l.startsWith('W') && l.includes('full screen'));
    expect(repaint).toBeGreaterThan(-1);
    expect(log.findIndex((l) => l === 'RNEXT')).toBeGreaterThan(repaint);
  });

  it('goes back to the alternate screen when a switch cut across two messages reached the terminal', async () => {
    const { transport, raw, written, parsed } = passthrough();
    transport.handlers.output(Buffer.from('one\x1b[?104'), 0);
    transport.handlers.output(Buffer.from('9lafter'), 11);
    await parsed();
    expect(raw.join('')).toContain('\x1b[?1049l');
    expect(written.join('')).toContain('\x1b[?1047h');
  });
});

