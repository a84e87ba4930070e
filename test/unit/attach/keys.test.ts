import { describe, expect, it } from 'vitest';
import { decodeInput, encodeKey, scrollOf, type KeyEvent } from '../../../src/attach/keys.js';

const normal = { applicationCursorKeysMode: false, bracketedPasteMode: false };
const app = { applicationCursorKeysMode: true, bracketedPasteMode: true };
const send = (input: string, modes = normal) => decodeInput(input).map((e) => encodeKey(e, modes)).join('');

describe('decoding the outer terminal', () => {
  it.each([
    ['abc', [{ kind: 'text', text: 'abc' }]],
    ['\x1b[A', [{ kind: 'key', name: 'up' }]],
    ['\x1bOB', [{ kind: 'key', name: 'down' }]],
    ['\x1b[1;5C', [{ kind: 'key', name: 'right', ctrl: true }]],
    ['\x1b[5;2~', [{ kind: 'key', name: 'pageup', shift: true }]],
    ['\x1b[3~', [{ kind: 'key', name: 'delete' }]],
    ['\x1bOP', [{ kind: 'key', name: 'f1' }]],
    ['\x1b[24~', [{ kind: 'key', name: 'f12' }]],
    ['\x1b[Z', [{ kind: 'key', name: 'backtab', shift: true }]],
    ['\x1bx', [{ kind: 'text', text: 'x', alt: true }]],
    ['\x1b[200~a\nb\x1b[201~', [{ kind: 'paste', text: 'a\nb' }]],
    ['\x1b', [{ kind: 'raw', bytes: '\x1b' }]],
    ['\x1b[?1;2c', [{ kind: 'raw', bytes: '\x1b[?1;2c' }]],
    // A cursor position report at row 1, column 1: not F3 (a key never encodes "no modifier" as 1).
    ['\x1b[1;1R', [{ kind: 'raw', bytes: '\x1b[1;1R' }]],
    ['\x1b[1;5R', [{ kind: 'key', name: 'f3', ctrl: true }]],
    ['a\x1b[Db', [{ kind: 'text', text: 'a' }, { kind: 'key', name: 'left' }, { kind: 'text', text: 'b' }]],
  ] as [string, KeyEvent[]][])('%j', (input, events) => {
    expect(decodeInput(input)).toEqual(events);
  });
});

describe('encoding for the remote modes', () => {
  it.each([
    ['\x1b[A', normal, '\x1b[A'],
    ['\x1b[A', app, '\x1bOA'],
    ['\x1bOD', normal, '\x1b[D'],
    ['\x1b[H', app, '\x1bOH'],
    ['\x1b[1;5C', app, '\x1b[1;5C'],
    ['\x1b[1;3A', normal, '\x1b[1;3A'],
    ['\x1bOP', normal, '\x1bOP'],
    ['\x1b[15~', normal, '\x1b[15~'],
    ['\x1b[6~', normal, '\x1b[6~'],
    ['\x1bx', normal, '\x1bx'],
    ['\x03', normal, '\x03'],
    ['\r', normal, '\r'],
    ['\x1b[Z', normal, '\x1b[Z'],
    ['\x1b[1;1R', normal, '\x1b[1;1R'],
  ])('%j in %j → %j', (input, modes, expected) => {
    expect(send(input, modes)).toBe(expected);
  });
  it('brackets a paste only when the remote asked for it, and cannot be broken out of', () => {
    expect(send('\x1b[200~x\ny\x1b[201~', normal)).toBe('x\ry');
    expect(send('\x1b[200~x\ny\x1b[201~', app)).toBe('\x1b[200~x\ry\x1b[201~');
    expect(encodeKey({ kind: 'paste', text: 'a\x1b[201~rm -rf' }, app)).toBe('\x1b[200~arm -rf\x1b[201~');
  });
  it('keeps shift+PageUp/PageDown for local history', () => {
    expect(decodeInput('\x1b[5;2~').map(scrollOf)).toEqual([-1]);
    expect(decodeInput('\x1b[6;2~').map(scrollOf)).toEqual([1]);
    expect(decodeInput('\x1b[5~').map(scrollOf)).toEqual([0]);
  });
});
