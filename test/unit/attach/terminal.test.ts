import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { FrameRenderer } from '../../../src/attach/painter.js';
import { TerminalModel } from '../../../src/attach/terminal.js';

const write = (m: TerminalModel, s: string) => new Promise<void>((r) => m.write(s, r));

describe('terminal model', () => {
  it.each([
    ['16 colours', '\x1b[31mr\x1b[92mg', ['0;31', '0;92']],
    ['256 colours', '\x1b[38;5;196mx\x1b[0;48;5;21my', ['0;38;5;196', '0;48;5;21']],
    ['truecolor', '\x1b[38;2;1;2;3mx\x1b[0;48;2;250;128;0my', ['0;38;2;1;2;3', '0;48;2;250;128;0']],
    ['bold italic underline inverse', '\x1b[1;3;4;7mx', ['0;1;3;4;7']],
  ])('renders %s faithfully', async (_n, input, sgrs) => {
    const m = new TerminalModel({ cols: 20, rows: 3, scrollback: 10 });
    await write(m, input);
    const row = m.rowAnsi(0);
    for (const sgr of sgrs) expect(row).toContain(`\x1b[${sgr}m`);
    m.dispose();
  });
  it('drops what comes after dispose at once, and releases the emulator on the next turn (a detach draws first)', async () => {
    const m = new TerminalModel({ cols: 20, rows: 3, scrollback: 10 });
    await write(m, 'before');
    const released = vi.spyOn(m.term, 'dispose');
    const done = vi.fn();
    m.dispose();
    m.write('after', done);
    m.dispose(); // twice is once
    expect(released).not.toHaveBeenCalled();
    await new Promise((r) => setImmediate(r));
    expect(released).toHaveBeenCalledTimes(1);
    expect(done).not.toHaveBeenCalled();
  });
  it('draws a wide character once, in two cells', async () => {
    const m = new TerminalModel({ cols: 6, rows: 1, scrollback: 0 });
    await write(m, '日本x');
    expect(m.rowAnsi(0)).toBe('日本x');
    expect(m.cursor).toMatchObject({ x: 5, y: 0 });
    m.dispose();
  });
  it('leaves trailing blanks to erase-to-end-of-line, but keeps coloured ones', async () => {
    const m = new TerminalModel({ cols: 8, rows: 2, scrollback: 0 });
    await write(m, 'ab   \r\n\x1b[41mcd  \x1b[0m');
    expect(m.rowAnsi(0)).toBe('ab');
    expect(m.rowAnsi(1)).toBe('\x1b[0;41mcd  \x1b[0m');
    m.dispose();
  });
  it('tracks the cursor and its visibility', async () => {
    const m = new TerminalModel({ cols: 10, rows: 4, scrollback: 0 });
    await write(m, 'ab\r\ncd\x1b[?25l');
    expect(m.cursor).toEqual({ x: 2, y: 1, visible: false });
    await write(m, '\x1b[?25h');
    expect(m.cursor.visible).toBe(true);
    m.dispose();
  });
  it('scrolls history and keeps it bounded by the scrollback option', async () => {
    const m = new TerminalModel({ cols: 10, rows: 2, scrollback: 5 });
    await write(m, Array.from({ length: 20 }, (_, i) => `l${i}`).join('\r\n'));
    m.scroll(-100);
    expect(m.scrolledBack).toBe(5);
    expect(m.rowAnsi(0)).toContain('l13');
    expect(m.cursor.visible).toBe(false);
    m.scrollToBottom();
    expect(m.scrolledBack).toBe(0);
    m.dispose();
  });
  it('writes only changed rows', async () => {
    const m = new TerminalModel({ cols: 10, rows: 3, scrollback: 0 });
    let out = '';
    const r = new FrameRenderer((s) => (out += s), 2);
    await write(m, 'a\r\nb\r\nc');
    expect(r.frame(m)).toBe(3);
    out = '';
    await write(m, 'd');
    expect(r.frame(m)).toBe(1);
    expect(out).toContain('\x1b[4;1H');
    expect(r.frame(m)).toBe(0);
    r.invalidate();
    expect(r.frame(m)).toBe(3);
    m.dispose();
  });
  it('redraws every row that changed, and only reads those xterm says a parse touched', async () => {
    const op = fc.oneof(
      fc.constantFrom('x', 'ab\r\n', '\r\n\r\n\r\n\r\n', '\x1b[2;3Hyy', '\x1b[K', '\x1b[2J', '\x1b[?1049h', '\x1b[?1049l', '\x1b[31mred\x1b[0m', '\x1b[2;3r', '\x1b[r', '\x1bM', '\x1b[S', '日本', '\x1b[3;1H\x1b[1P', '\x1b[2L', '\x1bc', '\x1b[?47h', '\x1b[?1047l', '\x1b[?2026h', '\x1b[?2026l', '\x1b[?5h', '\x1b[?5l'),
      fc.record({ resize: fc.tuple(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 5 })) }),
      fc.record({ scroll: fc.integer({ min: -3, max: 3 }) }),
    );
    let skippedRows = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const m = new TerminalModel({ cols: 6, rows: 4, scrollback: 5 });
        const shown = new TerminalModel({ cols: 6, rows: 4, scrollback: 0 });
        const r = new FrameRenderer((s) => shown.write(s), 1);
        const frame = async () => {
          skippedRows += m.rows - r.frame(m);
          await write(shown, '');
          for (let y = 0; y < m.rows; y++) expect(shown.rowAnsi(y)).toBe(m.rowAnsi(y));
        };
        await frame();
        for (const o of ops) {
          if (typeof o === 'string') await write(m, o);
          else if ('resize' in o) {
            m.resize(...o.resize);
            shown.resize(...o.resize);
            r.invalidate();
          } else m.scroll(o.scroll);
          await frame();
        }
        m.dispose();
        shown.dispose();
      }),
      { numRuns: 150, seed: 7 },
    );
    expect(skippedRows).toBeGreaterThan(100);
  });

  it('keeps quiet about a malformed sequence from the remote (xterm would log it to the terminal)', async () => {
    const m = new TerminalModel({ cols: 10, rows: 2, scrollback: 0 });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await write(m, '\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35mx\x1bP\x90\xff');
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      m.dispose();
    }
  });

  it('answers a cursor position report through onData', async () => {
    const m = new TerminalModel({ cols: 10, rows: 3, scrollback: 0 });
    const replies: string[] = [];
    m.term.onData((d) => replies.push(d));
    await write(m, 'ab\x1b[6n');
    expect(replies.join('')).toBe('\x1b[1;3R');
    m.dispose();
  });

  it('parses output in order, one chunk at a time, calling each callback once it is parsed', async () => {
    const m = new TerminalModel({ cols: 20, rows: 3, scrollback: 10 });
    const done: number[] = [];
    const all = ['one ', 'two ', 'three'].map((s, i) => new Promise<void>((r) => m.write(s, () => (done.push(i), r()))));
    await Promise.all(all);
    expect(done).toEqual([0, 1, 2]);
    expect(m.term.buffer.active.getLine(0)!.translateToString(true)).toBe('one two three');
    m.dispose();
  });

  it('gives the event loop a turn between chunks once a slice of parsing time is used up', async () => {
    // Each chunk "takes" 5 ms on the model's clock: more than a slice, so it yields after each.
    let now = 0;
    const m = new TerminalModel({ cols: 20, rows: 3, scrollback: 10, now: () => now });
    const events: string[] = [];
    const all = [0, 1, 2, 3].map(
      (i) =>
        new Promise<void>((r) =>
          m.write(`${i ? ' ' : ''}c${i}`, () => {
            events.push(`parsed ${i}`);
            now += 5;
            if (i === 0) setImmediate(() => events.push('turn'));
            r();
          }),
        ),
    );
    await Promise.all(all);
    expect(events).toEqual(['parsed 0', 'turn', 'parsed 1', 'parsed 2', 'parsed 3']);
    expect(m.term.buffer.active.getLine(0)!.translateToString(true)).toBe('c0 c1 c2 c3');
    m.dispose();
  });

  it('reports held output whose only line was taken off to finish a sequence once that line is parsed', async () => {
    // The last chunk parsed ends inside an SGR sequence: the line held next is parsed first, all of it.
    const m = new TerminalModel({ cols: 20, rows: 3, scrollback: 10, lazyHistory: true });
    await write(m, 'abc\x1b[3');
    m.hold(new TextEncoder().encode('1mred\r\n'));
    expect(m.heldBytes).toBeGreaterThan(0);
    const parsed = await new Promise<boolean>((r) => {
      if (!m.release(() => r(true))) r(false);
    });
    expect(parsed).toBe(true);
    expect(m.heldBytes).toBe(0);
    expect(m.term.buffer.active.getLine(0)!.translateToString(true)).toBe('abcred');
    m.dispose();
  });

  it('parses nothing more once disposed: output still queued is dropped (xterm would parse it, disposed or not)', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const disposed = new TerminalModel({ cols: 80, rows: 24, scrollback: 100 });
    const control = new TerminalModel({ cols: 80, rows: 24, scrollback: 100 });
    const parsed: number[] = [];
    for (let i = 0; i < 4; i++) disposed.write(chunk, () => parsed.push(i));
    disposed.dispose();
    disposed.write(chunk, () => parsed.push(99));
    // The same output to a live model: once it has parsed all four, the disposed one had every chance to.
    await Promise.all([0, 1, 2, 3].map(() => write(control, chunk)));
    expect(parsed.filter((i) => i > 0)).toEqual([]);
    control.dispose();
  });
});
