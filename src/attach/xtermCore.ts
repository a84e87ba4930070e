/**
 * The parts of @xterm/headless's internals the terminal model reads, in one
 * place. Every use allows them to be missing (another version keeps them
 * elsewhere): the model then skims nothing and repaints every row.
 */
import type xterm from '@xterm/headless';
import type { MouseEncoding } from './mouse.js';

interface XtermCore {
  coreService?: { isCursorHidden?: boolean };
  /** How the program asked for mouse reports to be written (DECSET 1006: 'SGR'). */
  coreMouseService?: { activeEncoding?: string };
  _inputHandler?: {
    _parser?: { currentState?: number };
    _utf8Decoder?: { interim?: Uint8Array };
    /** The rows a parse touched; undefined for all of them (another buffer, synchronized output's end). */
    onRequestRefreshRows?: (listener: (rows: { start: number; end: number } | undefined) => void) => unknown;
  };
  _bufferService?: { buffer?: { scrollTop: number; scrollBottom: number } };
  /** What xterm calls on typed input: its next write into an empty buffer is parsed at once, not on a timer. */
  _writeBuffer?: { handleUserInput?: () => void };
}

function coreOf(term: xterm.Terminal): XtermCore | undefined {
  return (term as unknown as { _core?: XtermCore })._core;
}

/**
 * Calls `listener` with the screen rows each parse touched (undefined: all of them). False when
 * this version does not report them.
 */
export function onRefreshRows(term: xterm.Terminal, listener: (rows: { start: number; end: number } | undefined) => void): boolean {
  const handler = coreOf(term)?._inputHandler;
  if (typeof handler?.onRequestRefreshRows !== 'function') return false;
  handler.onRequestRefreshRows(listener);
  return true;
}

/**
 * Whether output may be skimmed (see skim.ts) before it is parsed: the emulator is between
 * sequences and characters, its scroll region is the whole screen, and the view is at the live
 * screen (a view scrolled back stays on the lines it shows). When the internals are not where
 * this version keeps them, nothing is skimmed. `after-line`: not now, the emulator is inside a
 * sequence or a character, but the rest may be once its line is parsed.
 */
export function skimState(term: xterm.Terminal): 'now' | 'after-line' | 'no' {
  const core = coreOf(term);
  const parser = core?._inputHandler?._parser;
  const utf8 = core?._inputHandler?._utf8Decoder?.interim;
  const buffer = core?._bufferService?.buffer;
  if (parser?.currentState === undefined || !utf8 || !buffer) return 'no';
  const b = term.buffer.active;
  if (buffer.scrollTop !== 0 || buffer.scrollBottom !== term.rows - 1 || b.viewportY !== b.baseY) return 'no';
  return parser.currentState !== 0 || utf8[0] !== 0 ? 'after-line' : 'now';
}

/** Has xterm parse its next write at once, as after a key, rather than on its write timer. */
export function parseNextAtOnce(term: xterm.Terminal): void {
  coreOf(term)?._writeBuffer?.handleUserInput?.();
}

/**
 * How the program in the terminal asked for mouse reports to be written: SGR (1006), else the
 * X10 bytes (DEFAULT), which every program that turns the mouse on reads. Null for a form the
 * TUI cannot write (SGR in pixels, 1016): no report is sent then.
 */
export function mouseEncoding(term: xterm.Terminal): MouseEncoding | null {
  const encoding = coreOf(term)?.coreMouseService?.activeEncoding ?? 'DEFAULT';
  return encoding === 'SGR' || encoding === 'DEFAULT' ? encoding : null;
}

/** Whether the remote hid the cursor (DECTCEM). */
export function cursorHidden(term: xterm.Terminal): boolean {
  return coreOf(term)?.coreService?.isCursorHidden ?? false;
}
