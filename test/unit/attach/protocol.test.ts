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
  it('answers exactly what a client is missing', () => {
    const r = new ReplayBuffer(10);
    r.append(Buffer.from('hello'));
    r.append(Buffer.from('world'));
    expect(r.since(null)).toEqual({ start: 0, missed: 0, data: Buffer.from('helloworld') });
    expect(r.since(3).data.toString()).toBe('loworld');
    expect(r.since(10).data.toString()).toBe('');
  });
  it('drops the oldest bytes past its capacity and reports the gap', () => {
    const r = new ReplayBuffer(8);
    r.append(Buffer.from('0123456789'));
    r.append(Buffer.from('ab'));
    expect(r.start).toBe(4);
    expect(r.end).toBe(12);
    expect(r.since(1)).toEqual({ start: 4, missed: 3, data: Buffer.from('456789ab') });
    expect(r.since(6).data.toString()).toBe('6789ab');
  });
});
