/** Mouse reports: decoding what a terminal sends (SGR and X10), encoding for a program that asked. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeMouse, isMouseReport, parseMouse, unfinishedReport, type MouseReport } from '../../../src/attach/mouse.js';
import { tokenize } from '../../../src/tui/keyParse.js';
import { KeySplitter } from '../../../src/tui/stdinSplitter.js';

const at = (x: number, y: number) => ({ x, y, shift: false, alt: false, ctrl: false });

describe('parseMouse', () => {
  it('reads every button of an SGR press and release, at the cell from 0', () => {
    expect(parseMouse('\x1b[<0;5;3M')).toEqual({ type: 'press', button: 0, ...at(4, 2) });
    expect(parseMouse('\x1b[<1;1;1M')).toEqual({ type: 'press', button: 1, ...at(0, 0) });
    expect(parseMouse('\x1b[<2;80;24M')).toEqual({ type: 'press', button: 2, ...at(79, 23) });
    expect(parseMouse('\x1b[<0;5;3m')).toEqual({ type: 'release', button: 0, ...at(4, 2) });
    expect(parseMouse('\x1b[<2;5;3m')).toEqual({ type: 'release', button: 2, ...at(4, 2) });
    // Extra buttons (8-11) and a cell past the X10 limit.
    expect(parseMouse('\x1b[<128;300;400M')).toEqual({ type: 'press', button: 8, ...at(299, 399) });
    expect(parseMouse('\x1b[<131;1;1M')).toMatchObject({ type: 'press', button: 11 });
  });

  it('reads the wheel in four directions', () => {
    expect(parseMouse('\x1b[<64;10;10M')).toEqual({ type: 'wheel', button: -1, wheel: 'up', ...at(9, 9) });
    expect(parseMouse('\x1b[<65;10;10M')).toMatchObject({ type: 'wheel', wheel: 'down' });
    expect(parseMouse('\x1b[<66;10;10M')).toMatchObject({ type: 'wheel', wheel: 'left' });
    expect(parseMouse('\x1b[<67;10;10M')).toMatchObject({ type: 'wheel', wheel: 'right' });
  });

  it('reads shift, alt and ctrl, and motion', () => {
    expect(parseMouse('\x1b[<4;1;1M')).toMatchObject({ button: 0, shift: true, alt: false, ctrl: false });
    expect(parseMouse('\x1b[<8;1;1M')).toMatchObject({ button: 0, shift: false, alt: true, ctrl: false });
    expect(parseMouse('\x1b[<16;1;1M')).toMatchObject({ button: 0, shift: false, alt: false, ctrl: true });
    expect(parseMouse('\x1b[<81;1;1M')).toMatchObject({ type: 'wheel', wheel: 'down', ctrl: true });
    expect(parseMouse('\x1b[<32;7;2M')).toEqual({ type: 'motion', button: 0, ...at(6, 1) });
    expect(parseMouse('\x1b[<35;7;2M')).toMatchObject({ type: 'motion', button: 3 });
  });

  it('reads the legacy X10 form, whose release names no button', () => {
    const x10 = (b: number, x: number, y: number) => `\x1b[M${String.fromCharCode(32 + b, 32 + x, 32 + y)}`;
    expect(parseMouse(x10(0, 5, 3))).toEqual({ type: 'press', button: 0, ...at(4, 2) });
    expect(parseMouse(x10(3, 5, 3))).toEqual({ type: 'release', button: 3, ...at(4, 2) });
    expect(parseMouse(x10(65, 1, 1))).toMatchObject({ type: 'wheel', wheel: 'down' });
    expect(parseMouse(x10(16 + 2, 1, 1))).toMatchObject({ button: 2, ctrl: true });
  });

  it('refuses what is not a report', () => {
    for (const s of ['\x1b[A', '\x1b[<0;5M', '\x1b[<0;5;3', '\x1b[<a;b;cM', '\x1b[<0;5;3X', 'x', '', '\x1b[M', '\x1b[M!!', '\x1b[<999999;1;1M']) {
      expect(parseMouse(s), JSON.stringify(s)).toBeNull();
    }
    // An X10 report whose bytes could not be read (a column past 95 is a byte above 127) is a report still.
    expect(isMouseReport('\x1b[M \ufffd!')).toBe(true);
    expect(parseMouse('\x1b[M \x10!')).toBeNull();
    expect(isMouseReport('\x1b[A')).toBe(false);
  });

  it('says how much of an input\'s end may be a report still arriving', () => {
    expect(unfinishedReport('ab\x1b[<0;5')).toBe(6);
    expect(unfinishedReport('\x1b[<')).toBe(3);
    expect(unfinishedReport('\x1b[M !')).toBe(5);
    expect(unfinishedReport('\x1b[<0;5;3M')).toBe(0);
    expect(unfinishedReport('abc\x1b')).toBe(0);
    expect(unfinishedReport('abc\x1b[')).toBe(0);
  });
});

describe('encodeMouse', () => {
  const press: MouseReport = { type: 'press', button: 0, ...at(4, 2) };
  const release: MouseReport = { type: 'release', button: 0, ...at(4, 2) };
  const wheel: MouseReport = { type: 'wheel', button: -1, wheel: 'down', ...at(4, 2) };

  it('writes SGR for a program that asked for it (1006), and nothing for one that asked for no mouse', () => {
    expect(encodeMouse(press, 'vt200', 'SGR')).toBe('\x1b[<0;5;3M');
    expect(encodeMouse(release, 'vt200', 'SGR')).toBe('\x1b[<0;5;3m');
    expect(encodeMouse(wheel, 'vt200', 'SGR')).toBe('\x1b[<65;5;3M');
    expect(encodeMouse({ ...press, ctrl: true, shift: true }, 'vt200', 'SGR')).toBe('\x1b[<20;5;3M');
    expect(encodeMouse(press, 'none', 'SGR')).toBe('');
  });

  it('writes the X10 bytes by default, a release as button 3, and drops a cell a byte cannot say', () => {
    expect(encodeMouse(press, 'vt200', 'DEFAULT')).toBe('\x1b[M %#');
    expect(encodeMouse({ ...release, button: 2 }, 'vt200', 'DEFAULT')).toBe('\x1b[M#%#');
    expect(encodeMouse(wheel, 'vt200', 'DEFAULT')).toBe('\x1b[Ma%#');
    expect(encodeMouse({ ...press, x: 200 }, 'vt200', 'DEFAULT')).toBe('');
  });

  it('reports only what the mode asked for', () => {
    // X10 mode (DECSET 9): presses only, no modifiers.
    expect(encodeMouse({ ...press, ctrl: true }, 'x10', 'DEFAULT')).toBe('\x1b[M %#');
    expect(encodeMouse(release, 'x10', 'DEFAULT')).toBe('');
    expect(encodeMouse(wheel, 'x10', 'DEFAULT')).toBe('');
    const drag: MouseReport = { type: 'motion', button: 0, ...at(4, 2) };
    const hover: MouseReport = { type: 'motion', button: 3, ...at(4, 2) };
    expect(encodeMouse(drag, 'vt200', 'SGR')).toBe('');
    expect(encodeMouse(drag, 'drag', 'SGR')).toBe('\x1b[<32;5;3M');
    expect(encodeMouse(hover, 'drag', 'SGR')).toBe('');
    expect(encodeMouse(hover, 'any', 'SGR')).toBe('\x1b[<35;5;3M');
  });

  it('gives back what it read', () => {
    for (const seq of ['\x1b[<0;5;3M', '\x1b[<2;5;3m', '\x1b[<64;1;1M', '\x1b[<67;9;9M', '\x1b[<28;4;4M', '\x1b[<129;3;3M']) {
      expect(encodeMouse(parseMouse(seq)!, 'any', 'SGR')).toBe(seq);
    }
  });
});

describe('the key splitter and mouse reports', () => {
  function splitterOver() {
    const source = new PassThrough();
    const splitter = new KeySplitter(source as unknown as NodeJS.ReadStream);
    splitter.setRawMode(true);
    const mice: MouseReport[] = [];
    splitter.on('mouse', (r: MouseReport) => mice.push(r));
    const settled = () => new Promise((r) => setImmediate(r));
    const reads = () => {
      const out: unknown[] = [];
      for (let c = splitter.read(); c !== null; c = splitter.read()) out.push(c);
      return out;
    };
    return { source, splitter, settled, reads, mice };
  }

  it('cuts reports out of what is typed around them', () => {
    expect(tokenize('a\x1b[<0;5;3Mb\x1b[M !!c').keys).toEqual(['a', '\x1b[<0;5;3M', 'b', '\x1b[M !!', 'c']);
    expect(tokenize('\x1b[M !').rest).toBe('\x1b[M !');
  });

  it('hands reports to its mouse listeners and never to Ink, whole or cut across reads', async () => {
    const { source, splitter, settled, reads, mice } = splitterOver();
    source.write('j\x1b[<0;5;3M\x1b[<0;5;3mk\x1b[<65;1;2M');
    await settled();
    expect(reads()).toEqual(['j', 'k']);
    expect(mice.map((m) => m.type)).toEqual(['press', 'release', 'wheel']);
    // A report cut in two by the reads: the second half completes it.
    source.write('\x1b[<2;10');
    await settled();
    source.write(';4M');
    await settled();
    expect(reads()).toEqual([]);
    expect(mice.at(-1)).toEqual({ type: 'press', button: 2, ...at(9, 3) });
    // X10, cut after its first byte.
    source.write('\x1b[M');
    await settled();
    source.write(' %#x');
    await settled();
    expect(reads()).toEqual(['x']);
    expect(mice.at(-1)).toEqual({ type: 'press', button: 0, ...at(4, 2) });
    splitter.destroy();
  });

  it('drops a report whose end never comes, and one it cannot read, rather than typing them', async () => {
    const { source, splitter, settled, reads, mice } = splitterOver();
    source.write('\x1b[<0;12');
    await settled();
    await new Promise((r) => setTimeout(r, 80));
    expect(reads()).toEqual([]);
    source.write('\x1b[M \ufffd!q');
    await settled();
    expect(reads()).toEqual(['q']);
    expect(mice).toEqual([]);
    splitter.destroy();
  });

  it('passes reports through as they came while attached', async () => {
    const { source, splitter, settled, mice } = splitterOver();
    const got: string[] = [];
    splitter.attached = (c) => got.push(c);
    source.write('\x1b[<0;5;3M');
    await settled();
    expect(got).toEqual(['\x1b[<0;5;3M']);
    expect(mice).toEqual([]);
    // A report cut in two by the reads goes on whole.
    source.write('x\x1b[<0;5');
    await settled();
    source.write(';3M');
    await settled();
    expect(got).toEqual(['\x1b[<0;5;3M', 'x', '\x1b[<0;5;3M']);
    splitter.destroy();
  });
});
