/** Mouse reporting follows the terminal: off whenever the TUI lends it (^z, $EDITOR) or leaves, on again when it takes it back. */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { GatedOutput, lendTerminal, screen } from '../../../src/tui/output.js';
import { MOUSE_OFF, MOUSE_ON, TUI_LEAVE } from '../../../src/tui/terminal.js';

class FakeTerminal extends EventEmitter {
  columns = 80;
  rows = 24;
  written: string[] = [];
  write(chunk: string): boolean {
    this.written.push(chunk);
    return true;
  }
}

afterEach(() => {
  screen.gate = null;
  screen.keys = null;
  screen.mouse = false;
});

function lend(mouse: boolean): string {
  const real = new FakeTerminal();
  screen.gate = new GatedOutput(real as unknown as NodeJS.WriteStream);
  screen.keys = { attached: null, setRawMode: () => undefined };
  screen.mouse = mouse;
  lendTerminal(() => real.written.push('<borrowed>'));
  return real.written.join('');
}

describe('mouse reporting and the terminal', () => {
  it('is turned off on the way out, whatever the way', () => {
    expect(TUI_LEAVE.startsWith(MOUSE_OFF)).toBe(true);
    expect(MOUSE_ON).toBe('\x1b[?1000h\x1b[?1006h');
  });

  it('is off while the terminal is lent and on again once it is back', () => {
    const [before, after] = lend(true).split('<borrowed>');
    expect(before).toContain(MOUSE_OFF);
    expect(before).not.toContain(MOUSE_ON);
    expect(after).toContain(MOUSE_ON);
  });

  it('is never turned on when the mouse is off (--no-mouse)', () => {
    expect(lend(false)).not.toContain('\x1b[?1000h');
  });
});
