/** holdWarnings: the process's warnings wait until the TUI has given the terminal back. */
import { afterEach, describe, expect, it } from 'vitest';
import { holdWarnings } from '../../../src/tui/terminal.js';

let release: (() => void) | undefined;
afterEach(() => release?.());

describe('holdWarnings', () => {
  it('keeps warnings from the listeners until released, then gives them over in order, once', () => {
    const seen: string[] = [];
    const listener = (w: Error) => void seen.push(w.message);
    process.on('warning', listener);
    try {
      release = holdWarnings();
      process.emit('warning', new Error('first'));
      process.emit('warning', new Error('second'));
      expect(seen).toEqual([]);
      release();
      expect(seen).toEqual(['first', 'second']);
      release();
      expect(seen).toEqual(['first', 'second']);
      process.emit('warning', new Error('after'));
      expect(seen).toEqual(['first', 'second', 'after']);
    } finally {
      process.off('warning', listener);
    }
  });

  it('gives back every listener that was there, Node’s own among them', () => {
    const before = process.listeners('warning');
    release = holdWarnings();
    expect(process.listeners('warning')).toHaveLength(1);
    release();
    expect(process.listeners('warning')).toEqual(before);
  });
});
