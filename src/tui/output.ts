/**
 * Ink's view of stdout, with a gate: while the attach screen draws the terminal
 * itself, Ink's writes are held back so the two never draw over each other.
 */
import { EventEmitter } from 'node:events';
import { CLEAR_SCREEN, HIDE_CURSOR, MOUSE_ON, TUI_ENTER, TUI_LEAVE } from './terminal.js';

export class GatedOutput extends EventEmitter {
  suspended = false;
  readonly isTTY = true;

  constructor(private readonly real: NodeJS.WriteStream) {
    super();
    real.on('resize', () => this.emit('resize'));
  }
  get columns(): number {
    return this.real.columns;
  }
  get rows(): number {
    return this.real.rows;
  }
  /**
   * Reads the terminal's size again and announces it. A resize while the TUI was stopped (ctrl+z) or
   * lent out signalled the foreground group, the shell's or the editor's, so no SIGWINCH ever told
   * Node, and its size stayed the one from before (`getWindowSize()` only returns that cached size).
   * `_refreshSize` is what Node's own SIGWINCH handler calls: it asks the terminal, sets the
   * stream's fields (which the attach screen reads) and emits 'resize' when they changed.
   */
  remeasure(): void {
    const real = this.real as NodeJS.WriteStream & { _refreshSize?: () => void };
    const before = `${real.columns}x${real.rows}`;
    try {
      real._refreshSize?.();
    } catch {
      // Not a terminal any more: the last size stands.
    }
    // Unchanged (or not measurable), the frame is laid out again all the same.
    if (`${real.columns}x${real.rows}` === before) this.emit('resize');
  }
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (this.suspended) {
      cb?.();
      return true;
    }
    return this.real.write(chunk, cb);
  }
}

/**
 * The gate and the key splitter of the running TUI, how it suspends to the shell, and how Ink's last
 * frame is drawn again (none of them in component tests).
 */
export const screen: {
  gate: GatedOutput | null;
  keys: { attached: ((chunk: string) => void) | null; setRawMode(mode: boolean): unknown } | null;
  /** Stops the process group for the shell's `fg`; false (and nothing done) where no shell's job control can resume it. */
  suspend: (() => boolean) | null;
  /** Writes Ink's last frame again, whole (set by runTui once the app is mounted). */
  repaint: () => void;
  /** Whether the TUI asked for mouse reports (MOUSE_ON): taking the terminal back asks again. */
  mouse: boolean;
} = {
  gate: null,
  keys: null,
  suspend: null,
  repaint: () => {},
  mouse: false,
};

/**
 * Lends the terminal to `borrower` (the shell after ctrl+z, $EDITOR) as it was before the TUI took it,
 * and takes it back (mouse reports off meanwhile: TUI_LEAVE). The program that had it may have
 * turned off any mode the TUI set (vi leaves the alternate screen and turns bracketed paste off,
 * so a later paste became one submit per line), so every one is set again, and Ink draws its last frame whole: it writes only what
 * changed, and the screen it last drew is gone. Without a terminal (component tests), `borrower`
 * runs alone.
 */
export function lendTerminal<T>(borrower: () => T): T {
  const { gate, keys } = screen;
  if (!gate || !keys) return borrower();
  keys.setRawMode(false);
  gate.write(TUI_LEAVE);
  try {
    return borrower();
  } finally {
    gate.write(TUI_ENTER + (screen.mouse ? MOUSE_ON : '') + CLEAR_SCREEN + HIDE_CURSOR);
    keys.setRawMode(true);
    gate.remeasure(); // the terminal may have changed size meanwhile
    screen.repaint();
  }
}
