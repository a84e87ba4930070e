import xterm from '@xterm/headless';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalModel } from '../../../src/attach/terminal.js';
import { NOT_PLAIN, PLAIN, enc, line, plain, ringFromZero, split, state } from '../../support/floods.js';

type Size = { cols: number; rows: number; scrollback: number };

/** A plain emulator fed everything, then perhaps resized: what the model must end up as. */
async function reference(chunks: Uint8Array[], size: Size, resize?: [number, number]) {
  if (!resize) return plain(chunks, size);
  const term = new xterm.Terminal({ allowProposedApi: true, logLevel: 'off', ...size });
  for (const c of chunks) await new Promise<void>((r) => term.write(c, r));
  ringFromZero(term);
  term.resize(...resize);
  const s = state(term);
  term.dispose();
  return s;
}

const released = (m: TerminalModel) => new Promise<void>((r) => (m.release(() => r()) ? undefined : r()));
const written = (m: TerminalModel, data: Uint8Array | string) => new Promise<void>((r) => m.write(data, r));

/** Lines that set up state, a flood long enough to be set aside, and a few lines after (some erase the scrollback, reset the terminal, switch screens). */
const floods = fc
  .record({
    ends: fc.constantFrom(['\r\n', '\r\n', '\r\n', '\n', '\r', ''], ['\r\n', '\r\n', '\n'], ['\r\n']),
    plain: fc.subarray(PLAIN, { minLength: 2 }),
    special: fc.subarray(NOT_PLAIN, { minLength: 1, maxLength: 4 }),
    after: fc.subarray([...NOT_PLAIN, '\x1b[3J', '\x1bc', '\x1b[2J', '\x1b[?1049h', '\x1b[?1049l'], { minLength: 1, maxLength: 4 }),
  })
  .chain(({ ends, plain, special, after }) =>
    fc.tuple(
      fc.array(line(plain, special, 1, ends), { maxLength: 5 }).map((l) => l.join('')),
      fc.array(line(plain, special, 400, ends), { minLength: 80, maxLength: 500 }).map((l) => l.join('')),
      fc.array(line(plain, after, 2, ends), { maxLength: 5 }).map((l) => l.join('')),
    ),
  );

describe('lazy history', () => {
  it('ends, once looked at, exactly as parsing every byte in order would, however the flood is held, released and cut', async () => {
    let deferred = 0;
    await fc.assert(
      fc.asyncProperty(
        floods,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.record({ cols: fc.integer({ min: 2, max: 24 }), rows: fc.integer({ min: 1, max: 6 }), scrollback: fc.constantFrom(0, 20, 100, 100, 300) }),
        fc.option(fc.tuple(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 1, max: 8 })), { freq: 4 }),
        async ([setUp, flood, after], cuts, releases, size, resize) => {
          const data = enc(setUp + flood + after);
          const setUpBytes = enc(setUp).length;
          const chunks = split(data, [...cuts, setUpBytes / data.length]);
          const want = await reference(chunks, size, resize ?? undefined);
          const m = new TerminalModel({ ...size, lazyHistory: true });
          let i = 0;
          for (let at = 0; i < chunks.length && at < setUpBytes; i++) {
            at += chunks[i]!.length;
            await written(m, chunks[i]!);
          }
          // The rest held as it arrives, released now and then (the session releases every 50 ms).
          for (; i < chunks.length; i++) {
            m.hold(chunks[i]!);
            await new Promise<void>((r) => setImmediate(r));
            if (releases[i]) await released(m);
          }
          await released(m);
          if (resize) {
            m.materializeHistory();
            ringFromZero(m.term);
            m.resize(...resize);
          }
          m.materializeHistory();
          deferred += m.deferred;
          expect(state(m.term)).toEqual(want);
          m.dispose();
        },
      ),
      { numRuns: 300, seed: 5 },
    );
    // Worth something only if history was set aside in it.
    expect(deferred).toBeGreaterThan(20_000);
  });

  const size = { cols: 20, rows: 5, scrollback: 100 };
  const flood = Array.from({ length: 400 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m \x1b[44m日本\x1b[0m\r\n`).join('');
  /** Fewer lines than the scrollback keeps: nothing is left out, everything is set aside but two screens. */
  const short = flood.slice(0, flood.indexOf('line 90\x1b'));

  /** A model that held `flood` after `before` and released it: history set aside. */
  async function heldFlood(before = 'prompt$ cat file\r\n', text = flood) {
    const m = new TerminalModel({ ...size, lazyHistory: true });
    await written(m, before);
    for (const c of split(enc(text), [0.2, 0.4, 0.6, 0.8])) m.hold(c);
    await released(m);
    expect(m.deferred).toBeGreaterThan(0);
    return m;
  }

  it('sets aside all but the last two screens of a released flood, and shows them when the view is scrolled back', async () => {
    const m = await heldFlood();
    // Lines past the scrollback are left out (skim.ts); of the rest, all but two screens set aside.
    expect(m.skipped + m.deferred).toBeGreaterThan(enc(flood).length * 0.9);
    expect(m.deferred).toBeGreaterThan(80 * 17);
    // The screen is right without the history.
    expect(m.rowAnsi(size.rows - 2)).toContain('line 399');
    m.scroll(-60);
    expect(m.scrolledBack).toBe(60);
    expect(m.term.buffer.active.getLine(m.term.buffer.active.viewportY)!.translateToString(true)).toBe(`line ${399 - 60 - (size.rows - 2)} 日本`);
    m.scrollToBottom();
    expect(state(m.term)).toEqual(await plain([enc('prompt$ cat file\r\n'), enc(flood)], size));
    m.dispose();
  });

  it.each([
    ['the scrollback erased', '\x1b[3J'],
    ['a reset', '\x1bc'],
    ['the screen cleared', '\x1b[H\x1b[2J'],
    ['a full-screen program on the alternate screen', '\x1b[?1049h\x1b[Hvi\x1b[?1049l'],
  ])('agrees with parsing everything after %s', async (_name, next) => {
    const m = await heldFlood();
    await written(m, next);
    m.materializeHistory();
    expect(state(m.term)).toEqual(await plain([enc('prompt$ cat file\r\n'), enc(flood), enc(next)], size));
    m.dispose();
  });

  it('agrees with parsing everything after a resize, which reflows the history', async () => {
    const m = await heldFlood();
    m.materializeHistory();
    ringFromZero(m.term);
    m.resize(13, 7);
    expect(state(m.term)).toEqual(await reference([enc('prompt$ cat file\r\n'), enc(flood)], size, [13, 7]));
    m.dispose();
  });

  it.each([
    ['a half-written line in a background to its end', '\x1b[41mhalf a li\x1b[K\x1b[0m'],
    ['a long line the cursor went back to the start of', 'a line longer than the first of the flood\r'],
    ['a wide character, the cursor past it', '日本'],
  ])('replays the row the flood began on as it was, and starts the kept lines on a fresh one: %s', async (_name, row) => {
    // The cursor on the bottom row, where a cut is made at once.
    const before = 'x\r\n'.repeat(size.rows - 1) + row;
    const m = await heldFlood(before, short);
    expect(m.skipped).toBe(0);
    m.materializeHistory();
    expect(state(m.term)).toEqual(await plain([enc(before), enc(short)], size));
    m.dispose();
  });

  it('sets aside the history of a release that ends in something other than plain lines (a prompt after the flood)', async () => {
    // The bench's prompt: a string terminator, CR, erase to the end of the line, `$ `.
    const prompt = '\x1b\\\r\x1b[K$ ';
    const m = new TerminalModel({ ...size, lazyHistory: true });
    await written(m, 'prompt$ cat file\r\n');
    for (const c of split(enc(flood + prompt), [0.3, 0.6, 0.9])) m.hold(c);
    await released(m);
    // As much as with the flood alone: all but two screens of what the scrollback keeps.
    expect(m.deferred).toBeGreaterThan(80 * 17);
    const want = await plain([enc('prompt$ cat file\r\n'), enc(flood + prompt)], size);
    // The screen is right without the history; with it, everything is.
    const got = state(m.term);
    expect([got.x, got.y, got.lines.slice(-size.rows)]).toEqual([want.x, want.y, want.lines.slice(-size.rows)]);
    m.materializeHistory();
    expect(state(m.term)).toEqual(want);
    m.dispose();
  });

  it.each([
    ['saved before the flood, restored after it', '\x1b7', '\x1b8X\r\n'],
    ['saved after the flood, restored after more lines', '', '\x1b7\r\nA\r\nB\r\n\x1b8X'],
    ['saved and restored the SCO way', '\x1b[s', '\r\nA\r\n\x1b[uX'],
    ['saved by the alternate screen (1049) and restored leaving it', '', '\x1b[?1049hvi\r\n\x1b[?1049lX'],
  ])('agrees with parsing everything when the cursor is %s', async (_name, before, after) => {
    // xterm keeps a saved cursor as a line of the buffer (ybase + y): with the scrollback full, the
    // rows set aside decide where a restore puts the cursor, so they are put in place first.
    const m = new TerminalModel({ ...size, lazyHistory: true });
    await written(m, `prompt$ cat file${before}\r\n`);
    for (const c of split(enc(flood), [0.2, 0.4, 0.6, 0.8])) m.hold(c);
    await released(m);
    await written(m, after);
    const want = await plain([enc(`prompt$ cat file${before}\r\n`), enc(flood), enc(after)], size);
    expect(state(m.term).y).toBe(want.y);
    m.materializeHistory();
    expect(state(m.term)).toEqual(want);
    m.dispose();
  });

  it('parses everything where a replay could not reproduce the state: insert mode, no wrapping, another character set, tab stops', async () => {
    for (const mode of ['\x1b[4h', '\x1b[?7l', '\x1b(0', '\x1b[3g', '\x1b[1;3H\x1bH\x1b[5;1H']) {
      const m = new TerminalModel({ ...size, lazyHistory: true });
      await written(m, `${mode}x\r\n`.repeat(6));
      m.hold(enc(flood));
      await released(m);
      expect(m.deferred, JSON.stringify(mode)).toBe(0);
      expect(state(m.term)).toEqual(await plain([enc(`${mode}x\r\n`.repeat(6)), enc(flood)], size));
      m.dispose();
    }
  });

  it('forgets history that later lines pushed past the scrollback, without replaying it', async () => {
    const m = new TerminalModel({ ...size, lazyHistory: true });
    for (let k = 0; k < 5; k++) {
      m.hold(enc(flood));
      await released(m);
    }
    expect(m.deferred).toBeGreaterThan(0);
    // Each release's set-aside lines are more than the scrollback: only the last is kept.
    expect((m as unknown as { history: { pending: number } }).history.pending).toBe(1);
    m.materializeHistory();
    expect(state(m.term)).toEqual(await plain(Array.from({ length: 5 }, () => enc(flood)), size));
    m.dispose();
  });

  it('holds at most 2 MiB of history as bytes: a flood of long lines has the oldest parsed', async () => {
    const wide = { cols: 100, rows: 5, scrollback: 10_000 };
    const m = new TerminalModel({ ...wide, lazyHistory: true });
    const history = (m as unknown as { history: { bytes: number } }).history;
    // Lines of 20,000 characters (200 rows each): 2 MB a release, far fewer line feeds than rows.
    const long = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(5, '0')}${'x'.repeat(19_995)}\r\n`).join('');
    const chunks: Uint8Array[] = [];
    let most = 0;
    for (let k = 0; k < 8; k++) {
      const chunk = enc(`\x1b[3${k}m${long}`);
      chunks.push(chunk);
      m.hold(chunk);
      await released(m);
      most = Math.max(most, history.bytes);
    }
    expect(m.deferred).toBeGreaterThan(8 << 20);
    expect(most).toBeGreaterThan(1 << 20);
    expect(most).toBeLessThanOrEqual(2 << 20);
    m.materializeHistory();
    expect(state(m.term)).toEqual(await plain(chunks, wide));
    m.dispose();
  });

  it('is off with onFeed (a terminal fed what the emulator is given would miss those lines)', async () => {
    const m = new TerminalModel({ ...size, lazyHistory: true, onFeed: () => {} });
    expect(m.lazyHistory).toBe(false);
    m.hold(enc(flood));
    await released(m);
    expect(m.deferred).toBe(0);
    m.dispose();
  });
});
