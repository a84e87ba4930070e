/**
 * The terminal model: an @xterm/headless emulator fed with the remote's output
 * (one chunk at a time, skimmed where nothing could tell, in slices that leave
 * the event loop its turn), the view over it (scrolling, the cursor, the rows
 * that changed), and its rows as ANSI (painter.ts draws them).
 */
import xterm from '@xterm/headless';
import { HeldOutput } from './held.js';
import { LazyHistory } from './history.js';
import { lineAnsi, type Cell, type RowMark } from './painter.js';
import { LF, skim } from './skim.js';
import { cursorHidden, onRefreshRows, parseNextAtOnce, skimState } from './xtermCore.js';

/** A chunk is skimmed only if it could hold the lines to keep at this many bytes a line. */
const SKIM_MIN_LINE_BYTES = 8;
/**
 * The largest piece handed to the emulator at once: xterm checks its time budget (and lets the
 * event loop run, a detach key among it) only between the pieces it was given.
 */
const PARSE_PIECE_BYTES = 64 << 10;
/**
 * Parsing goes on from chunk to chunk for at most this long before the event loop gets a turn (a
 * key, a detach): xterm's own budget is 12 ms.
 */
const PARSE_SLICE_MS = 4;
/** Fewer lines than this are parsed rather than set aside as lazy history (a replay costs an emulator). */
const LAZY_MIN_LINES = 64;
/**
 * The most lazy history holds as bytes (a flood of long lines); past it, the oldest is parsed. A
 * replay runs at 10-16 MB/s, all at the first scroll back: 2 MiB keeps that under 200 ms.
 */
const LAZY_MAX_BYTES = 2 << 20;

/**
 * Runs once a write is parsed, told how many of its bytes were skimmed (left out unparsed), and
 * whether it might have been with more lines after it (`plain`: false when skimming was ruled out
 * by what it holds or by the emulator's state).
 */
export type Parsed = (result: { skipped: number; plain: boolean }) => void;

/** A chunk waiting for the emulator; `headParsed`: the start of a chunk was already split off it (see feed). */
interface QueuedWrite {
  /** Output, or output held (see hold) to be skimmed once its turn comes. */
  data: Uint8Array | string | HeldOutput;
  done: Parsed | undefined;
  headParsed?: boolean;
}

export interface TerminalModelOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /**
   * Every byte handed to the emulator, as it is handed over, in order: what skimming left of the
   * output. A terminal fed these ends up as the emulator does (the `attach` subcommand's screen).
   */
  onFeed?: (data: Uint8Array | string) => void;
  /** The clock parsing slices are timed by (PARSE_SLICE_MS); tests set it. */
  now?: () => number;
  /**
   * Keep the lines of held output that scroll off as the bytes they came in, parsed only when the
   * view is scrolled back or the terminal resized (history.ts): a release then costs the parsing
   * of its last two screens, however long it is. Not with onFeed: a terminal fed what the emulator
   * is given would never see those lines.
   */
  lazyHistory?: boolean;
}

/** A history cut (history.ts) of plain lines with `rest` after them: the rest is parsed after what the cut leaves, or handed back with its `later`. */
function followedBy(cut: { parse: Uint8Array[]; later?: Uint8Array[] } | undefined, rest: Uint8Array[]): { parse: Uint8Array[]; later?: Uint8Array[] } | undefined {
  if (!cut) return undefined;
  return cut.later ? { parse: cut.parse, later: [...cut.later, ...rest] } : { parse: [...cut.parse, ...rest] };
}

export class TerminalModel {
  readonly term: xterm.Terminal;
  private readonly cell: Cell;
  /** Output not yet handed to the emulator (see write), and whether a chunk is with it now. */
  private readonly queue: QueuedWrite[] = [];
  private feeding = false;
  /** When the current run of parsing began (see PARSE_SLICE_MS). */
  private sliceStart = 0;
  /** Output set aside to be parsed later (see hold). */
  private held = new HeldOutput();
  /** Bytes of lines taken off held output to be parsed first (skimHeld), not parsed yet. */
  private takenBytes = 0;
  private disposed = false;
  /** Screen rows parsed output touched since the renderer last asked (takeChangedRows). */
  private dirtyFrom = Number.POSITIVE_INFINITY;
  private dirtyTo = -1;
  private tracksRows = false;
  private lastView = '';
  /** Output bytes left out unparsed because they could not change the result (skim.ts). */
  skipped = 0;
  /** History kept unparsed (see TerminalModelOptions.lazyHistory); undefined when off. */
  private readonly history: LazyHistory | undefined;

  private readonly onFeed: ((data: Uint8Array | string) => void) | undefined;
  private readonly now: () => number;

  constructor(options: TerminalModelOptions) {
    this.onFeed = options.onFeed;
    this.now = options.now ?? (() => performance.now());
    this.term = new xterm.Terminal({
      allowProposedApi: true,
      // xterm logs a malformed sequence from the remote with console.error, which is the user's
      // terminal: the emulator keeps quiet.
      logLevel: 'off',
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      // The remote's answers (cursor reports, DA) come back through onData.
      convertEol: false,
    });
    this.cell = this.term.buffer.active.getNullCell();
    this.history = options.lazyHistory && !options.onFeed && LazyHistory.supported(this.term) ? new LazyHistory(this.term, LAZY_MIN_LINES, LAZY_MAX_BYTES) : undefined;
    this.tracksRows = onRefreshRows(this.term, (rows) => {
      this.dirtyFrom = Math.min(this.dirtyFrom, rows?.start ?? 0);
      this.dirtyTo = Math.max(this.dirtyTo, rows?.end ?? Number.POSITIVE_INFINITY);
    });
  }

  /**
   * The rows of the view that may have changed since the last call (all of them when that is not
   * known): xterm reports the screen rows each parse touched; a scroll, a resize, another buffer
   * or a view scrolled back moves every row.
   */
  takeChangedRows(): { from: number; to: number } {
    const b = this.term.buffer.active;
    const view = `${b.type} ${b.baseY} ${b.viewportY} ${this.term.cols}x${this.term.rows}`;
    const known = this.tracksRows && view === this.lastView && b.viewportY === b.baseY;
    const rows = known ? { from: this.dirtyFrom, to: this.dirtyTo } : { from: 0, to: Number.POSITIVE_INFINITY };
    this.lastView = view;
    this.dirtyFrom = Number.POSITIVE_INFINITY;
    this.dirtyTo = -1;
    return rows;
  }

  get cols(): number {
    return this.term.cols;
  }
  get rows(): number {
    return this.term.rows;
  }

  /**
   * Feeds output; `done` runs once it is parsed (flow control acknowledges then). Anything held
   * (see hold) goes first. The emulator is given one chunk at a time, the next from the last one's
   * callback (which xterm runs inside its parse loop, so the next is parsed in the same pass):
   * xterm keeps parsing whatever it was given even after it is disposed, so a flood's whole
   * unacknowledged window, handed over at once, held the main thread for tens of milliseconds
   * after a detach. Queued here, it is dropped at dispose.
   */
  write(data: Uint8Array | string, done?: () => void): void {
    if (this.disposed) return;
    this.release();
    this.enqueue(data, done && (() => done()));
  }

  /**
   * Sets output aside instead of parsing it now, until the next `release` (or `write`). Held
   * output is skimmed as it comes (held.ts) where the same lines parsed in small pieces could not
   * be: a line is left out once twice the rows (plus the scrollback) more follow it, and held
   * lines can be followed by lines that have not arrived yet. The caller bounds what it holds.
   */
  hold(data: Uint8Array): void {
    if (this.disposed || data.length === 0) return;
    this.held.push(data);
    this.skimHeld();
  }

  /**
   * Bytes set aside (hold) and not yet handed on (release), counting a first line taken off them
   * to be parsed first (skimHeld) until it is parsed: the caller's release then reports it.
   */
  get heldBytes(): number {
    return this.held.bytes + this.takenBytes;
  }

  /**
   * Skims what is held, while the emulator has parsed all it was given: its state now is the
   * state the held output will meet. Inside a sequence or a character, the first line held is
   * parsed first (then the next hold skims).
   */
  private skimHeld(): void {
    if (this.feeding || this.disposed) return;
    const line = this.skimAgainstState(this.held);
    if (!line) return;
    this.takenBytes += line.length;
    this.enqueue(line, () => {
      this.takenBytes -= line.length;
    });
  }

  /**
   * Skims `held` against the emulator's state now (everything before it parsed). Inside a sequence
   * or a character, nothing can be yet: its first line is taken off instead, to be parsed first.
   */
  private skimAgainstState(held: HeldOutput): Uint8Array | undefined {
    const may = this.mayBeSkimmed();
    if (may === 'after-line') return held.takeFirstLine();
    if (may === 'now') held.skim(this.keep());
    return undefined;
  }

  /**
   * Hands what is held to the emulator; `done` runs once it is parsed, told what was skimmed. It is
   * skimmed once its turn comes, against the state the output before it leaves. False when
   * nothing was held. Held output whose lines were all taken off to be parsed first is still
   * released: `done` runs once they are parsed (without it, their screen waited for the next
   * output or key to be drawn).
   */
  release(done?: Parsed): boolean {
    if (this.heldBytes === 0) return false;
    const held = this.held;
    this.held = new HeldOutput();
    this.enqueue(held, done);
    return true;
  }

  /**
   * Held output whose turn has come: skimmed (its first line first if the emulator is inside a
   * sequence or a character), then back to the front of the queue in the chunks it was held in;
   * the last reports to `done`. Returns the first chunk to feed now, and what reports for it.
   */
  private unhold(held: HeldOutput, done: Parsed | undefined): { data: Uint8Array; done: Parsed | undefined } {
    const line = this.skimAgainstState(held);
    if (line) {
      this.queue.unshift({ data: held, done });
      return { data: line, done: undefined };
    }
    const { parts: taken, dropped, plain, lead } = held.take();
    this.skipped += dropped;
    const report: Parsed | undefined = done && ((r) => done({ skipped: dropped + r.skipped, plain: plain && r.plain }));
    // With everything before it parsed, the emulator's state is the one the held lines meet: their
    // history may be set aside (history.ts), perhaps once the lines that reach the bottom row are in.
    // Held output that ends in something else (a flood's last lines, then the prompt) has the
    // history of its plain lines set aside all the same, and the rest parsed after them.
    const cut = this.mayBeSkimmed() !== 'now' ? undefined : plain ? this.history?.cut(taken) : lead && followedBy(this.history?.cut(lead.plain), lead.rest);
    const parts = cut?.parse ?? taken;
    const rest: QueuedWrite[] = parts.slice(1).map((data) => ({ data, done: undefined, headParsed: true }));
    if (cut?.later) {
      const later = new HeldOutput();
      for (const part of cut.later) later.push(part);
      rest.push({ data: later, done: report });
    } else if (rest.length === 0) return { data: parts[0] ?? new Uint8Array(0), done: report };
    else rest[rest.length - 1]!.done = report;
    this.queue.unshift(...rest);
    return { data: parts[0]!, done: undefined };
  }

  /** The lines a skim must keep: twice the rows, and the scrollback on the normal screen. */
  private keep(): number {
    return 2 * this.term.rows + (this.term.buffer.active.type === 'normal' ? (this.term.options.scrollback ?? 0) : 0);
  }

  private enqueue(data: Uint8Array | string | HeldOutput, done: Parsed | undefined): void {
    if (this.feeding) this.queue.push({ data, done });
    else {
      this.sliceStart = this.now();
      this.feed(data, done);
    }
  }

  private feed(output: Uint8Array | string | HeldOutput, done: Parsed | undefined, headParsed = false): void {
    this.feeding = true;
    let data: Uint8Array | string;
    if (output instanceof HeldOutput) {
      ({ data, done } = this.unhold(output, done));
      headParsed = true;
    } else data = output;
    const keep = this.keep();
    let skipped = 0;
    let plain = true;
    // Skimming reads every byte (about eight times faster than parsing them): not worth trying on a
    // chunk too short to hold `keep` lines.
    if (typeof data !== 'string' && data.length >= keep * SKIM_MIN_LINE_BYTES) {
      const may = this.mayBeSkimmed();
      if (may === 'now') {
        const skimmed = skim(data, keep);
        plain = skimmed.plain;
        if (skimmed.skipped > 0) {
          skipped = skimmed.skipped;
          this.skipped += skipped;
          this.onFeed?.(skimmed.prefix);
          this.term.write(skimmed.prefix);
          data = skimmed.rest;
        }
      } else if (may === 'no') plain = false;
      else if (!headParsed) {
        // The last chunk ended inside a sequence or a character: its line is parsed first, then
        // the rest of this chunk may be skimmed.
        const lf = data.indexOf(LF);
        if (lf !== -1 && lf + 1 < data.length) {
          this.queue.unshift({ data: data.subarray(lf + 1), done, headParsed: true });
          data = data.subarray(0, lf + 1);
          done = undefined;
        }
      }
    }
    let parsed: (() => void) | undefined = done && (() => done({ skipped, plain }));
    if (typeof data !== 'string' && data.length > PARSE_PIECE_BYTES) {
      // The rest goes back to the front of the queue in pieces; the last one reports the whole.
      const pieces: QueuedWrite[] = [];
      for (let at = PARSE_PIECE_BYTES; at < data.length; at += PARSE_PIECE_BYTES) pieces.push({ data: data.subarray(at, at + PARSE_PIECE_BYTES), done: undefined, headParsed: true });
      pieces[pieces.length - 1]!.done = parsed;
      this.queue.unshift(...pieces);
      data = data.subarray(0, PARSE_PIECE_BYTES);
      parsed = undefined;
    }
    if (data.length > 0) this.onFeed?.(data);
    this.term.write(data, () => {
      parsed?.();
      const next = this.queue.shift();
      if (!next || this.disposed) {
        this.feeding = false;
        return;
      }
      if (this.now() - this.sliceStart < PARSE_SLICE_MS) return this.feed(next.data, next.done, next.headParsed);
      // The event loop's turn; the queue keeps what arrives meanwhile behind `next`. Then xterm
      // parses at once, as after a key, rather than on its timer (at least 1 ms in Node).
      setImmediate(() => {
        if (this.disposed) return;
        this.sliceStart = this.now();
        parseNextAtOnce(this.term);
        this.feed(next.data, next.done, next.headParsed);
      });
    });
  }

  /** Whether output may be skimmed now (xtermCore.ts). */
  private mayBeSkimmed(): 'now' | 'after-line' | 'no' {
    return skimState(this.term);
  }

  /**
   * Typed input, sent on through the emulator's onData (where the session forwards it to the
   * remote). Marked as the user's, the emulator parses the next output (the echo) at once instead
   * of on a later tick.
   */
  input(data: string): void {
    this.term.input(data, true);
  }

  /** Whether held output's history is kept unparsed (see TerminalModelOptions.lazyHistory). */
  get lazyHistory(): boolean {
    return this.history !== undefined;
  }

  /** Bytes of history set aside unparsed so far (lazyHistory). */
  get deferred(): number {
    return this.history?.deferred ?? 0;
  }

  /** Parses the history set aside and puts it into the scrollback (lazyHistory): before anything reads or reflows it. */
  materializeHistory(): void {
    this.history?.materialize();
  }

  resize(cols: number, rows: number): void {
    this.materializeHistory();
    this.term.resize(Math.max(2, cols), Math.max(1, rows));
  }

  /** Scrolls local history; negative is up. */
  scroll(lines: number): void {
    if (lines < 0) this.materializeHistory();
    this.term.scrollLines(lines);
  }
  scrollToBottom(): void {
    this.term.scrollToBottom();
  }
  /** How many lines above the live screen the view is. */
  get scrolledBack(): number {
    const b = this.term.buffer.active;
    return b.baseY - b.viewportY;
  }

  get modes() {
    return this.term.modes;
  }

  get cursor(): { x: number; y: number; visible: boolean } {
    const b = this.term.buffer.active;
    return { x: b.cursorX, y: b.cursorY + b.baseY - b.viewportY, visible: !cursorHidden(this.term) && this.scrolledBack === 0 };
  }

  /** The ANSI text of visible row `y` (0-based), `marks` restyling some of its cells (painter.ts). */
  rowAnsi(y: number, marks?: readonly RowMark[]): string {
    return lineAnsi(this.term, this.term.buffer.active.viewportY + y, this.cell, marks);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue.length = 0;
    this.held.take();
    this.history?.dispose();
    // The emulator's own release (its buffers and listeners: 10 ms after a flood filled the
    // scrollback) waits for the next turn of the event loop, so that a detach first draws the
    // screen it goes back to (bench row 4). Nothing is written to it once it is disposed.
    const term = this.term;
    setImmediate(() => term.dispose());
  }
}
