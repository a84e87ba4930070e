import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeldOutput } from '../../../src/attach/held.js';
import { printableEnd, skim, wordsOf } from '../../../src/attach/skim.js';
import { TerminalModel } from '../../../src/attach/terminal.js';
import { enc, plain, split, state, sections, stream } from '../../support/floods.js';

/**
 * The model fed `chunks` (written, or where `held` says so set aside and released merged), its
 * state, and the state of a plain emulator fed what the model reported handing over (onFeed: what
 * `attach NAME` writes to the user's terminal).
 */
async function skimming(chunks: Uint8Array[], size: { cols: number; rows: number; scrollback: number }, held: boolean[] = []) {
  const fed: Uint8Array[] = [];
  const m = new TerminalModel({ ...size, onFeed: (d) => fed.push(typeof d === 'string' ? enc(d) : Uint8Array.from(d)) });
  const order: number[] = [];
  const written: Promise<void>[] = [];
  chunks.forEach((c, i) => {
    if (held[i]) m.hold(c);
    else written.push(new Promise<void>((r) => m.write(c, () => r(void order.push(i)))));
  });
  written.push(new Promise<void>((r) => (m.release(() => r()) ? undefined : r())));
  await Promise.all(written);
  // Every chunk written is done, in order (flow control acknowledges by offset).
  expect(order).toEqual(chunks.map((_c, i) => i).filter((i) => !held[i]));
  const s = state(m.term);
  const skipped = m.skipped;
  m.dispose();
  return { s, skipped, fed: await plain(fed, size) };
}

describe('skim', () => {
  it('leaves the emulator exactly as parsing everything would, however the output is cut into chunks', async () => {
    let skipped = 0;
    await fc.assert(
      fc.asyncProperty(
        stream,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        fc.record({ cols: fc.integer({ min: 2, max: 24 }), rows: fc.integer({ min: 1, max: 6 }), scrollback: fc.constantFrom(0, 0, 3, 9) }),
        async (text, cuts, size) => {
          const chunks = split(enc(text), cuts);
          const want = await plain(chunks, size);
          const got = await skimming(chunks, size);
          skipped += got.skipped;
          expect(got.s).toEqual(want);
          expect(got.fed).toEqual(want);
        },
      ),
      { numRuns: 400, seed: 12 },
    );
    // The property is only worth something if the skim happened in it.
    expect(skipped).toBeGreaterThan(10_000);
  });

  it('leaves the emulator, and a terminal fed what it was handed, as parsing everything would when output is held and released merged', async () => {
    let skipped = 0;
    await fc.assert(
      fc.asyncProperty(
        stream,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 13 }),
        fc.record({ cols: fc.integer({ min: 2, max: 24 }), rows: fc.integer({ min: 1, max: 6 }), scrollback: fc.constantFrom(0, 0, 3, 9) }),
        async (text, cuts, held, size) => {
          const chunks = split(enc(text), cuts);
          const want = await plain(chunks, size);
          const got = await skimming(chunks, size, held);
          skipped += got.skipped;
          expect(got.s).toEqual(want);
          expect(got.fed).toEqual(want);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
    expect(skipped).toBeGreaterThan(10_000);
  });

  it('leaves the emulator, and a terminal fed what it was handed, as parsing everything would when output is held as it comes and skimmed where it lies', async () => {
    let skipped = 0;
    await fc.assert(
      fc.asyncProperty(
        sections,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 24 }),
        fc.nat({ max: 2 }),
        fc.record({ cols: fc.integer({ min: 2, max: 24 }), rows: fc.integer({ min: 1, max: 6 }), scrollback: fc.constantFrom(0, 0, 3, 9) }),
        async ([setUp, flood, after], cuts, more, size) => {
          const data = enc(setUp + flood + after);
          const setUpBytes = enc(setUp).length;
          const chunks = split(data, [...cuts, setUpBytes / data.length]);
          const want = await plain(chunks, size);
          const fed: Uint8Array[] = [];
          const m = new TerminalModel({ ...size, onFeed: (d) => fed.push(typeof d === 'string' ? enc(d) : Uint8Array.from(d)) });
          // The lines that set up state parsed, and perhaps a chunk or two of the flood (the last
          // may end inside a sequence); then the rest held one by one with the model idle, as a
          // flood arrives: each is skimmed with those held before it.
          let at = 0;
          let written = 0;
          while (written < chunks.length && at < setUpBytes) at += chunks[written++]!.length;
          written = Math.min(chunks.length, written + more);
          for (const c of chunks.slice(0, written)) await new Promise<void>((r) => m.write(c, r));
          for (const c of chunks.slice(written)) {
            m.hold(c);
            await new Promise<void>((r) => setImmediate(r));
          }
          await new Promise<void>((r) => (m.release(() => r()) ? undefined : r()));
          skipped += m.skipped;
          expect(state(m.term)).toEqual(want);
          expect(await plain(fed, size)).toEqual(want);
          m.dispose();
        },
      ),
      { numRuns: 300, seed: 21 },
    );
    expect(skipped).toBeGreaterThan(10_000);
  });

  it('skips the start of a plain flood, keeping twice the rows plus the scrollback in line feeds', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m \x1b[1mbold`).join('\r\n') + '\r\n';
    const s = skim(enc(lines), 2 * 5 + 3);
    expect(s.plain).toBe(true);
    const rest = Buffer.from(s.rest).toString();
    expect(rest.split('\n').length - 1).toBe(13);
    expect(rest.startsWith('\x1b[37mline 87')).toBe(true);
    // The attributes in force at the cut: from the last reset on.
    expect(Buffer.from(s.prefix).toString()).toBe('\x1b[0m\x1b[1m\r');
    expect(s.skipped + s.rest.length).toBe(enc(lines).length);
  });

  it('hands over the attributes in force where it skimmed, so a terminal fed what the model was given matches it', async () => {
    const size = { cols: 10, rows: 5, scrollback: 0 };
    const chunks = [enc('\x1b[1;31mred' + '\r\nx'.repeat(300))];
    const got = await skimming(chunks, size);
    expect(got.skipped).toBeGreaterThan(0);
    expect(got.fed).toEqual(await plain(chunks, size));
  });

  it('keeps every SGR after the last reset, and only a leading 0 or empty parameter counts as one', () => {
    const text = '\x1b[0;32mA\x1b[44mB\x1b[01mC\x1b[0:1mD\x1b[02;3mE\r\n' + 'c\r\n'.repeat(20);
    expect(Buffer.from(skim(enc(text), 5).prefix).toString()).toBe('\x1b[0;32m\x1b[44m\x1b[01m\x1b[0:1m\x1b[02;3m\r');
  });

  it.each([
    ['too few lines', enc('a\r\n'.repeat(13)), true],
    ['bare line feeds (where the column is not known)', enc('abc\n'.repeat(40)), true],
    ['a cursor movement near the end', enc('a\r\n'.repeat(10) + '\x1b[H' + 'b\r\n'.repeat(30)), false],
    ['a C1 control in UTF-8', enc('a\r\n\u009b2J' + 'b\r\n'.repeat(30)), false],
    ['a chunk that ends inside a colour', enc('a\r\n'.repeat(10) + '\x1b[38;5'), true],
    ['a chunk that ends inside a character', Buffer.concat([enc('a\r\n'.repeat(10)), enc('日').subarray(0, 2)]), true],
    ['a chunk that ends inside a sequence that is not a colour', enc('a\r\n'.repeat(10) + '\x1b[?1'), false],
  ])('skips nothing before %s', (_n, bytes, plain) => {
    const s = skim(bytes, 13);
    expect(s.skipped).toBe(0);
    expect(s.prefix.length).toBe(0);
    expect(Buffer.from(s.rest).equals(bytes)).toBe(true);
    // Whether more lines could make it skimmable: not past something that is not a plain line.
    expect(s.plain).toBe(plain);
  });

  it('skims nothing while a scroll region is set or the view is scrolled back', async () => {
    const flood = enc('x\r\n'.repeat(200));
    const cases: [string, (m: TerminalModel) => Promise<void>][] = [
      ['scroll region', (m) => new Promise((r) => m.write(enc('\x1b[2;4r'), r))],
      [
        'scrolled back',
        async (m) => {
          await new Promise<void>((r) => m.write(enc('y\r\n'.repeat(40)), r));
          m.scroll(-3);
        },
      ],
    ];
    for (const [name, setUp] of cases) {
      const m = new TerminalModel({ cols: 10, rows: 5, scrollback: 20 });
      await setUp(m);
      const before = m.skipped;
      await new Promise<void>((r) => m.write(flood, r));
      expect(m.skipped - before, name).toBe(0);
      m.dispose();
    }
    const m = new TerminalModel({ cols: 10, rows: 5, scrollback: 20 });
    await new Promise<void>((r) => m.write(flood, r));
    expect(m.skipped).toBeGreaterThan(0);
    m.dispose();
  });

  it.each([
    ['inside a sequence', enc('\x1b[3')],
    ['inside a UTF-8 character', enc('日').subarray(0, 2)],
  ])('parses the rest of the line first when the last chunk ended %s, then skims', async (_name, head) => {
    const size = { cols: 10, rows: 5, scrollback: 20 };
    const flood = enc('1m red\x1b[0m' + 'x\r\n'.repeat(200));
    const m = new TerminalModel(size);
    await new Promise<void>((r) => m.write(head, r));
    const done: number[] = [];
    await new Promise<void>((r) => m.write(flood, () => r(void done.push(1))));
    expect(done).toEqual([1]);
    expect(m.skipped).toBeGreaterThan(0);
    // The line the sequence ended in was parsed whole: `skipped` starts after its line feed.
    expect(m.skipped).toBeLessThanOrEqual(flood.length - flood.indexOf(0x0a) - 1);
    expect(state(m.term)).toEqual(await plain([head, flood], size));
    m.dispose();
  });
});

describe('printableEnd', () => {
  it('finds the first byte that is not printable ASCII, a word at a time, wherever the bytes lie in their buffer', () => {
    // Mostly printable bytes, with every byte value (0x1f, 0x20, 0x7e, 0x7f, 0x80 and 0xff above all) somewhere.
    const byte = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) }, { weight: 1, arbitrary: fc.constantFrom(0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff) });
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 80 }), fc.nat(7), fc.nat(80), (bytes, offset, from) => {
        const buffer = new Uint8Array(offset + bytes.length);
        buffer.set(bytes, offset);
        const data = buffer.subarray(offset);
        const i = Math.min(from, data.length);
        let want = i;
        while (want < data.length && data[want]! >= 0x20 && data[want]! <= 0x7e) want++;
        const { words, first } = wordsOf(data);
        expect(printableEnd(data, words, first, i)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('HeldOutput', () => {
  const size = { cols: 12, rows: 3, scrollback: 2 };
  const keep = 2 * size.rows + size.scrollback;
  /** Held chunk by chunk (skimmed after each when `each`, else once at the end), then taken: the parts, and what was dropped. */
  function held(chunks: string[], each: boolean) {
    const h = new HeldOutput();
    for (const c of chunks) {
      h.push(enc(c));
      if (each) h.skim(keep);
    }
    h.skim(keep);
    return h.take();
  }

  it('keeps exactly the lines to keep, and holds no more than them and a chunk however long the flood', () => {
    const lines = Array.from({ length: 501 }, (_, i) => `line ${String(i).padStart(3, '0')}\r\n`);
    const chunks = Array.from({ length: 167 }, (_, i) => lines.slice(3 * i, 3 * i + 3).join(''));
    const h = new HeldOutput();
    let most = 0;
    for (const c of chunks) {
      h.push(enc(c));
      h.skim(keep);
      most = Math.max(most, h.bytes);
    }
    expect(most).toBeLessThanOrEqual((keep + 3) * 10);
    const { parts, dropped } = h.take();
    expect(Buffer.concat(parts).toString()).toBe('\r' + lines.slice(-keep).join(''));
    expect(dropped).toBe((501 - keep) * 10);
  });

  it.each([
    ['a colour in a chunk dropped whole', ['\x1b[31m', ...Array.from({ length: 30 }, () => 'x\r\n')], false],
    ['a colour cut across two chunks', ['a\r\n'.repeat(20) + '\x1b[3', '1mred\r\n' + 'b\r\n'.repeat(20)], true],
    ['a character cut across two chunks', ['a\r\n'.repeat(20) + '\xe6\x97', '\xa5\r\n' + 'b\r\n'.repeat(20)], true],
    ['bare line feeds before the lines kept', ['abc\n'.repeat(5), 'x\r\n'.repeat(3), 'de\n'.repeat(20)], true],
  ])('hands over what leaves a terminal as parsing everything would: %s', async (_name, chunks, each) => {
    const bytes = chunks.map((c) => Buffer.from(c, 'latin1'));
    const h = new HeldOutput();
    for (const b of bytes) {
      h.push(b);
      if (each) h.skim(keep);
    }
    h.skim(keep);
    const { parts, dropped } = h.take();
    expect(dropped).toBeGreaterThan(0);
    expect(await plain(parts, size)).toEqual(await plain(bytes, size));
  });

  it('drops nothing after something that is not a plain line, and stops growing its carry when no reset ever comes', () => {
    const { parts, dropped, plain: isPlain } = held(['a\r\n'.repeat(20) + '\x1b[H', 'b\r\n'.repeat(50)], true);
    expect(isPlain).toBe(false);
    expect(Buffer.concat(parts).toString()).toContain('b\r\n'.repeat(50));
    expect(dropped).toBeGreaterThan(0);
    const colours = held(Array.from({ length: 3000 }, () => '\x1b[1mx\r\n'), true);
    expect(colours.dropped).toBeGreaterThan(0);
    expect(colours.parts[0]!.length).toBeLessThan(5 << 10);
    // Once it stops dropping, it still reads what comes: held output that is not plain lines says so.
    const moved = held([...Array.from({ length: 3000 }, () => '\x1b[1mx\r\n'), '\x1b[H', 'y\r\n'], true);
    expect(moved.plain).toBe(false);
  });

  it('splits held output that is not all plain lines where the rest starts (lead)', () => {
    const taken = held(['a\r\n'.repeat(20), 'b\r\n\x1b[Hc', '\r\n'], true);
    expect(taken.plain).toBe(false);
    const whole = Buffer.concat(taken.parts).toString();
    const { plain: before, rest } = taken.lead!;
    expect(Buffer.concat(before).toString() + Buffer.concat(rest).toString()).toBe(whole);
    expect(Buffer.concat(before).toString().endsWith('b\r\n')).toBe(true);
    expect(Buffer.concat(rest).toString()).toBe('\x1b[Hc\r\n');
    expect(held(['a\r\n'.repeat(20)], true).lead).toBeUndefined();
  });
});
