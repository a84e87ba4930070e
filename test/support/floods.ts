/**
 * Floods for the emulator's property tests (skimming, lazy history): plain lines and the tokens
 * that are not, streams of them cut into chunks, and everything an emulator holds that a later
 * byte or a repaint can see, to compare one with a plain emulator fed everything.
 */
import xterm from '@xterm/headless';
import fc from 'fast-check';

export const enc = (s: string) => Buffer.from(s, 'utf8');

/** A cell's content flag: its text is in the line's `_combined` map. */
const IS_COMBINED = 0x200000;
/** A cell's background flag: its underline style and colour are in the line's `_extendedAttrs` map. */
const HAS_EXTENDED = 0x10000000;

/**
 * The entries of a line's side map (`_combined`, `_extendedAttrs`) that xterm reads: those of cells
 * whose flag (in word `word` of the cell) says so. xterm leaves entries behind when a cell is
 * written over, and never reads them; which stale ones a line holds depends on how it was reused.
 */
function readable(data: Uint32Array, map: Record<string, unknown>, word: number, flag: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map)) if ((data[3 * Number(key) + word]! & flag) !== 0) out[key] = map[key];
  return out;
}

/** Everything an emulator holds that a later byte or a repaint can see, from xterm's internals. */
interface Core {
  buffer: {
    x: number;
    y: number;
    ybase: number;
    ydisp: number;
    lines: { length: number; get(i: number): { isWrapped: boolean; _data: Uint32Array; _combined: Record<string, unknown>; _extendedAttrs: Record<string, unknown> } };
  };
  _inputHandler: { _curAttrData: { fg: number; bg: number; extended: object } };
}
export function state(term: xterm.Terminal) {
  const core = (term as unknown as { _core: Core })._core;
  const b = core.buffer;
  const lines = [];
  for (let i = 0; i < b.lines.length; i++) {
    const l = b.lines.get(i);
    lines.push({ wrapped: l.isWrapped, data: Array.from(l._data), combined: JSON.stringify(readable(l._data, l._combined, 0, IS_COMBINED)), extended: JSON.stringify(readable(l._data, l._extendedAttrs, 2, HAS_EXTENDED)) });
  }
  const attr = core._inputHandler._curAttrData;
  return { x: b.x, y: b.y, ybase: b.ybase, ydisp: b.ydisp, type: term.buffer.active.type, lines, attr: { fg: attr.fg, bg: attr.bg, extended: JSON.stringify(attr.extended) } };
}

/**
 * Moves the start of the emulator's ring of lines (xterm's CircularList) to the start of its array,
 * the lines unchanged. xterm's reflow on a resize gives different rows for the same lines depending
 * on where that ring starts (an upstream bug: a plain xterm whose ring is rotated reflows
 * otherwise), and where it starts depends on how lines came and went, not on what they hold. Tests
 * that compare a resize with a reference call it on both first.
 */
export function ringFromZero(term: xterm.Terminal): void {
  const list = (term as unknown as { _core: { buffer: { lines: { _array: unknown[]; _startIndex: number; length: number; get(i: number): unknown } } } })._core.buffer.lines;
  const rows = Array.from({ length: list.length }, (_, i) => list.get(i));
  const array = new Array<unknown>(list._array.length);
  rows.forEach((row, i) => (array[i] = row));
  list._array = array;
  list._startIndex = 0;
}

export async function plain(chunks: Uint8Array[], size: { cols: number; rows: number; scrollback: number }) {
  const term = new xterm.Terminal({ allowProposedApi: true, logLevel: 'off', ...size });
  for (const c of chunks) await new Promise<void>((r) => term.write(c, r));
  const s = state(term);
  term.dispose();
  return s;
}

export function split(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * data.length)))].filter((c) => c > 0 && c < data.length).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, data.length]) {
    out.push(data.subarray(from, c));
    from = c;
  }
  return out;
}

export const PLAIN = [
  'word',
  'intern ',
  '  ',
  '\t',
  '日本語',
  '😀',
  'e\u0301',
  'x'.repeat(27),
  '\x1b[m',
  '\x1b[0m',
  '\x1b[0;1;31m',
  '\x1b[;4m',
  '\x1b[1m',
  '\x1b[22m',
  '\x1b[7m',
  '\x1b[38;2;1;2;3m',
  '\x1b[48;5;200m',
  '\x1b[44m',
  '\x1b[4:3m',
  '\x1b[58:2::10:20:30m',
  '\x1b[00m',
  '\x1b[0:1m',
  '\x1b[01m',
  '\x1b[02;3m',
];
export const NOT_PLAIN = [
  '\x1b[2;3H',
  '\x1b[3A',
  '\x1b[K',
  '\x1b[2;4r',
  '\x1b[r',
  '\x1b[?1049h',
  '\x1b[?1049l',
  '\x1b(0',
  '\x1b(B',
  '\x0e',
  '\x0f',
  '\x1b]0;title\x07',
  '\x07',
  '\x08',
  '\x7f',
  '\u009b2J',
  '\u0085',
  '\x1b[?7l',
  '\x1b[?7h',
  '\x1b[4h',
  '\x1b[4l',
  '\x1b[20h',
  '\x1b[20l',
  '\x1bD',
  '\x1bM',
  '\x1b[S',
  '\x1b[2T',
  '\x0b',
  '\x0c',
  '\x1b7',
  '\x1b8',
  '\x1b[?6h',
  '\x1b[?6l',
  '\x1b[>4;2m',
  '\x1b[?5m',
  '\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35m',
  '\x1b',
  '\xff',
  '\u009b?1049h',
  '\u009b3;5r',
  '\u009b4A',
  '\x1b[99;1H',
];
/** A line of tokens, one in `rare + 1` not plain, ended as a pseudo-terminal (CR LF) or a raw program (LF) would. */
export const line = (plain: readonly string[], special: readonly string[], rare: number, ends: readonly string[]) =>
  fc
    .tuple(fc.array(fc.oneof({ weight: rare, arbitrary: fc.constantFrom(...plain) }, { weight: 1, arbitrary: fc.constantFrom(...special) }), { maxLength: 8 }), fc.constantFrom(...ends))
    .map(([parts, end]) => parts.join('') + end);
/**
 * A few lines that set up state (scroll regions, modes, half sequences...), a flood, a few more;
 * each run draws on a few of the tokens, so some floods have no reset in them and some no CR.
 */
export const sections = fc
  .record({
    ends: fc.constantFrom(['\r\n', '\r\n', '\r\n', '\n', '\r', ''], ['\n', '\n', '\n', '\r\n']),
    plain: fc.subarray(PLAIN, { minLength: 2 }),
    special: fc.subarray(NOT_PLAIN, { minLength: 1, maxLength: 4 }),
  })
  .chain(({ ends, plain, special }) =>
    fc
      .tuple(
        fc.array(line(plain, special, 1, ends), { maxLength: 5 }),
        fc.array(line(plain, special, 150, ends), { minLength: 20, maxLength: 200 }),
        fc.array(line(plain, special, 1, ends), { maxLength: 5 }),
      )
      .map((parts) => parts.map((lines) => lines.join('')) as [string, string, string]),
  );
export const stream = sections.map((parts) => parts.join(''));

