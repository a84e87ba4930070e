/**
 * Ink's view of stdout, with a gate: while the attach screen draws the terminal
 * itself, Ink's writes are held back so the two never draw over each other.
 */
import { EventEmitter } from 'node:events';

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
 * The gate and the key splitter of the running TUI, and how it suspends to the shell (none of them
 * in component tests).
 */
export const screen: { gate: GatedOutput | null; keys: { attached: ((chunk: string) => void) | null } | null; suspend: (() => void) | null } = {
  gate: null,
  keys: null,
  suspend: null,
};
