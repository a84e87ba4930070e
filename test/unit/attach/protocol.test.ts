import { describe, expect, it } from 'vitest';
import { ProtocolError, decodeFrame, encodeControl, encodeInput, encodeOutput } from '../../../src/attach/protocol.js';
import { ReplayBuffer } from '../../../src/sandbox/daemon/replay.js';

describe('frames', () => {
  it('round-trips input, output with its offset, and every control message', () => {
    expect(decodeFrame(encodeInput('ls\r'))).toEqual({ channel: 'input', data: Buffer.from('ls\r') });
    const out = decodeFrame(encodeOutput(2 ** 40, Buffer.from([0, 255, 27])));
    expect(out).toEqual({ channel: 'output', offset: 2 ** 40, data: Buffer.from([0, 255, 27]) });
    for (const message of [
      { type: 'hello', resume_from: null, cols: 80, rows: 24 },
      { type: 'hello', resume_from: 1234, cols: 1, rows: 1 },
      { type: 'resize', cols: 200, rows: 50 },
      { type: 'ack', offset: 0 },
      { type: 'welcome', start: 10, missed: 5 },
      { type: 'welcome', start: 10, missed: 0, live: 42 },
      { type: 'exit', code: 0, signal: null },
      { type: 'exit', code: null, signal: 9, reason: 'suspended' },
      { type: 'error', message: 'x' },
    ] as const) {
      expect(decodeFrame(encodeControl(message))).toEqual({ channel: 'control', message });
    }
  });
  it.each([
    ['empty', Buffer.alloc(0)],
    ['unknown channel', Buffer.from([7, 1])],
    ['short output', Buffer.from([1, 0, 0])],
    ['control not JSON', Buffer.from([2, 0x7b])],
    ['control invalid UTF-8', Buffer.from([2, 0xff, 0xfe])],
    ['unknown control type', Buffer.concat([Buffer.from([2]), Buffer.from('{"type":"nope"}')])],
    ['resize of zero', Buffer.concat([Buffer.from([2]), Buffer.from('{"type":"resize","cols":0,"rows":5}')])],
    ['negative ack', Buffer.concat([Buffer.from([2]), Buffer.from('{"type":"ack","offset":-1}')])],
    ['hello without size', Buffer.concat([Buffer.from([2]), Buffer.from('{"type":"hello","resume_from":null}')])],
  ])('refuses %s', (_n, frame) => {
    expect(() => decodeFrame(frame)).toThrow(ProtocolError);
  });
  it('refuses a bad output offset when encoding', () => {
    expect(() => encodeOutput(-1, Buffer.alloc(0))).toThrow(ProtocolError);
  });
});

describe('replay buffer', () => {
  const text = (r: ReplayBuffer, from: number, max = Infinity) => {
    const { start, parts, bytes } = r.slice(from, max);
    const data = Buffer.concat(parts);
    expect(data.length).toBe(bytes);
    return `${start}:${data.toString()}`;
  };

  it('answers exactly what a client is missing', () => {
    const r = new ReplayBuffer(10);
    r.append(Buffer.from('hello'));
    r.append(Buffer.from('world'));
    expect(r.resumeFrom(null)).toEqual({ start: 0, missed: 0 });
    expect(r.resumeFrom(3)).toEqual({ start: 3, missed: 0 });
    expect(text(r, 0)).toBe('0:helloworld');
    expect(text(r, 3)).toBe('3:loworld');
    expect(text(r, 5)).toBe('5:world');
    expect(text(r, 10)).toBe('10:');
  });
  it('drops the oldest bytes past its capacity and reports the gap', () => {
    const r = new ReplayBuffer(8);
    r.append(Buffer.from('0123456789'));
    r.append(Buffer.from('ab'));
    expect(r.start).toBe(4);
    expect(r.end).toBe(12);
    expect(r.resumeFrom(1)).toEqual({ start: 4, missed: 3 });
    expect(text(r, 1)).toBe('4:456789ab');
    expect(text(r, 6)).toBe('6:6789ab');
  });
  it('hands out at most what was asked for, across chunks, without copying them', () => {
    const r = new ReplayBuffer(100);
    const chunks = ['abc', 'defg', 'h', 'ijklm'].map((c) => Buffer.from(c));
    for (const c of chunks) r.append(c);
    for (let from = 0; from <= 13; from++) {
      for (let max = 1; max <= 14; max++) expect(text(r, from, max)).toBe(`${from}:${'abcdefghijklm'.slice(from, from + max)}`);
    }
    // A whole chunk goes as it is held.
    expect(r.slice(3, 4).parts[0]).toBe(chunks[1]);
  });
});

describe('output frames from parts', () => {
  it('encode as the same bytes joined would', () => {
    const parts = [Buffer.from('ab'), Buffer.from([0, 255]), Buffer.alloc(0), Buffer.from('\x1b[m')];
    for (const offset of [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      expect(encodeOutput(offset, parts)).toEqual(encodeOutput(offset, Buffer.concat(parts)));
      expect(decodeFrame(encodeOutput(offset, parts))).toEqual({ channel: 'output', offset, data: Buffer.concat(parts) });
    }
  });
});
