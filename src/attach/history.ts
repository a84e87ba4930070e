/**
 * History kept as the bytes it came in, parsed when someone looks at it.
 *
 * In a flood, the lines that scroll off the screen go to the scrollback, and
 * parsing them is most of the emulator's work: of a release of held output
 * (TerminalModel.hold) only the last two screens decide what the screen shows.
 * So the plain lines before those are set aside unparsed, with what replaying
 * them needs, and the emulator parses only the last ones. When the view is
 * scrolled back (or the terminal resized), each set-aside run is replayed into
 * an emulator of its own and its rows are put into the scrollback where they
 * belong: the history is then the same, cell for cell, as if every byte had
 * been parsed in order.
 *
 * Why that holds: a run is set aside only when the emulator has parsed all
 * before it, with the cursor on its bottom row (so each line feed scrolls one
 * row into the scrollback), wrapping on, no insert mode, the default character
 * set and tab stops, and no hyperlink open; the run is plain lines (skim.ts),
 * which need nothing else, and it ends just after a CR LF. A replay starts
 * from a copy of the cursor's row, the cursor's column and the attributes in
 * force, on a one-row emulator of the same width: it writes the same rows.
 * The emulator, instead of the run, is given the attributes in force after it,
 * a carriage return and an erase of the cursor's row: the fresh row a line
 * feed at the end of the run would have scrolled in (blank, in the background
 * then in force). A marker on that row tells where the run's rows go, however
 * the scrollback moves; when it is trimmed off or erased (ESC[3J), so are they.
 */
import xterm from '@xterm/headless';
import { LF, attributesAfter, countLineFeeds, cutPrefix, splitParts, tailCut } from './skim.js';

/** The parts of @xterm/headless's internals lazy history reads and writes (checked by `supported`). */
interface Row {
  clone(): Row;
}
interface Rows {
  readonly length: number;
  readonly maxLength: number;
  get(i: number): Row | undefined;
  set(i: number, row: Row): void;
  splice(start: number, deleteCount: number, ...items: Row[]): void;
  trimStart(count: number): void;
}
interface Screen {
  lines: Rows;
  x: number;
  y: number;
  ybase: number;
  ydisp: number;
  tabs: Record<number, boolean | undefined>;
}
interface Attributes {
  clone(): Attributes;
  extended?: { urlId?: number };
}
interface Core {
  _bufferService?: { buffers?: { normal?: Screen; active?: Screen } };
  _inputHandler?: { _curAttrData?: Attributes };
  _charsetService?: { charset?: unknown };
  _writeBuffer?: { writeSync?: (data: Uint8Array | string) => void };
}

const coreOf = (term: xterm.Terminal): Core | undefined => (term as unknown as { _core?: Core })._core;

/** A run of plain lines set aside, and what replaying it needs. */
interface Run {
  /** On the row the run's first line was written on in the emulator (its rows go before it). */
  marker: xterm.IMarker;
  /** The buffer the marker is in: a reset (ESC c) makes new ones, and the run is gone with the old. */
  buffer: Screen;
  cols: number;
  /** That row as it was, the cursor's column on it, and the attributes then in force. */
  row: Row;
  x: number;
  attributes: Attributes;
  /** The run's bytes, as they came (views of the messages, not copies). */
  parts: Uint8Array[];
  /** Its line feeds: each ends a row, so the run has at least as many rows. */
  lineFeeds: number;
}

const ERASE_ROW = new TextEncoder().encode('\x1b[2K');
/** Rows are put into the scrollback this many at a time (one call's arguments). */
const SPLICE_ROWS = 4096;

export class LazyHistory {
  private runs: Run[] = [];
  /** Bytes set aside so far (not parsed unless the history is looked at). */
  deferred = 0;
  /** Bytes the runs set aside now hold. */
  private held = 0;

  /**
   * @param minLines the fewest lines worth setting aside (a replay costs an emulator of its own).
   * @param maxBytes the most the runs may hold: past it, the oldest is put into the scrollback at
   *   once. Line feeds bound how many runs stay reachable, but not their bytes: a flood of long
   *   lines wraps into many rows a line, and would otherwise keep far more bytes than rows.
   */
  constructor(
    private readonly term: xterm.Terminal,
    private readonly minLines: number,
    private readonly maxBytes: number,
  ) {
    // xterm keeps a saved cursor as a line of the buffer (`ybase + y`), not of the screen: where a
    // restore puts the cursor depends on how many rows the buffer held at the save and holds at
    // the restore, which the rows set aside change (a buffer short of its scrollback grows where a
    // full one would have trimmed). So they are put in place before any save or restore.
    const inPlace = (): boolean => {
      if (this.runs.length > 0) this.materialize();
      return false;
    };
    const saveOrRestore = (params: (number | number[])[]): boolean => (params.some((p) => p === 1048 || p === 1049) ? inPlace() : false);
    term.parser.registerEscHandler({ final: '7' }, inPlace);
    term.parser.registerEscHandler({ final: '8' }, inPlace);
    term.parser.registerCsiHandler({ final: 's' }, inPlace);
    term.parser.registerCsiHandler({ final: 'u' }, inPlace);
    term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, saveOrRestore);
    term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, saveOrRestore);
  }

  /** Whether this version of @xterm/headless keeps what lazy history needs where it reads it. */
  static supported(term: xterm.Terminal): boolean {
    const core = coreOf(term);
    const normal = core?._bufferService?.buffers?.normal;
    const rows = normal?.lines;
    return (
      typeof rows?.splice === 'function' &&
      typeof rows.trimStart === 'function' &&
      typeof rows.set === 'function' &&
      typeof normal?.tabs === 'object' &&
      typeof core?._inputHandler?._curAttrData?.clone === 'function' &&
      core._charsetService !== undefined &&
      typeof core._writeBuffer?.writeSync === 'function' &&
      typeof term.registerMarker === 'function'
    );
  }

  /** Runs set aside and not yet put into the scrollback. */
  get pending(): number {
    return this.runs.length;
  }

  /**
   * Plain lines about to be parsed, everything before them parsed: sets aside all but their last
   * `2 × rows` lines when the emulator's state allows, and answers what to parse instead (`parse`,
   * and when the cursor must first reach the bottom row, `later`: the rest, to be handed back once
   * `parse` is parsed); undefined to parse them all.
   */
  cut(parts: readonly Uint8Array[]): { parse: Uint8Array[]; later?: Uint8Array[] } | undefined {
    const term = this.term;
    const core = coreOf(term);
    const buffers = core?._bufferService?.buffers;
    const buffer = buffers?.active;
    if (!core || !buffer || buffer !== buffers.normal || (term.options.scrollback ?? 0) === 0) return undefined;
    if (buffer.x >= term.cols || !this.replayable(core, buffer)) return undefined;
    const cut = tailCut(parts, 2 * term.rows);
    if (!cut) return undefined;
    const { before: aside, after: kept } = splitParts(parts, cut.part, cut.at);
    const lineFeeds = aside.reduce((n, p) => n + countLineFeeds(p), 0);
    if (lineFeeds < this.minLines + term.rows) return undefined;
    if (buffer.y < term.rows - 1) {
      // Not on the bottom row yet (a flood on a fresh screen): the lines that take the cursor
      // there are parsed first, then the rest is cut (`later`, to be given back).
      const lead = afterLineFeeds(parts, term.rows - 1 - buffer.y);
      return lead && { parse: lead.before, later: lead.after };
    }
    const row = buffer.lines.get(buffer.ybase + buffer.y);
    const marker = term.registerMarker(0);
    if (!row || !marker) return undefined;
    const run: Run = {
      marker,
      buffer,
      cols: term.cols,
      row: row.clone(),
      x: buffer.x,
      attributes: core._inputHandler!._curAttrData!.clone(),
      parts: aside,
      lineFeeds,
    };
    marker.onDispose(() => this.forget(run));
    this.runs.push(run);
    const bytes = aside.reduce((n, p) => n + p.length, 0);
    this.held += bytes;
    this.deferred += bytes;
    this.forgetUnreachable();
    while (this.held > this.maxBytes && this.runs.length > 0) this.putBack(this.runs[0]!);
    let attributes: Uint8Array = new Uint8Array(0);
    for (const p of aside) attributes = attributesAfter(attributes, p);
    return { parse: [cutPrefix(attributes), ERASE_ROW, ...kept] };
  }

  /** Puts every run set aside into the scrollback, oldest first. */
  materialize(): void {
    while (this.runs.length > 0) this.putBack(this.runs[0]!);
  }

  /** Bytes the runs set aside now hold. */
  get bytes(): number {
    return this.held;
  }

  /** Puts a run into the scrollback (unless its rows are gone with its marker), and forgets it. */
  private putBack(run: Run): void {
    const normal = coreOf(this.term)?._bufferService?.buffers?.normal;
    if (!run.marker.isDisposed && run.buffer === normal && run.cols === this.term.cols) this.insert(run);
    run.marker.dispose();
    this.forget(run);
  }

  /** Forgets every run (the emulator is going away). */
  dispose(): void {
    for (const run of [...this.runs]) run.marker.dispose();
  }

  /**
   * The emulator's state a replay can reproduce: wrapping on, no insert mode, no automatic CR on
   * line feeds, the default character set, tab stops every 8 columns, no hyperlink open.
   */
  private replayable(core: Core, buffer: Screen): boolean {
    const modes = this.term.modes;
    if (modes.insertMode || !modes.wraparoundMode || this.term.options.convertEol) return false;
    if (core._charsetService?.charset !== undefined) return false;
    if (core._inputHandler?._curAttrData?.extended?.urlId) return false;
    for (let x = 0; x < this.term.cols; x += 8) if (buffer.tabs[x] !== true) return false;
    for (const key of Object.keys(buffer.tabs)) if (Number(key) % 8 !== 0 || buffer.tabs[Number(key)] !== true) return false;
    return true;
  }

  private forget(run: Run): void {
    const i = this.runs.indexOf(run);
    if (i === -1) return;
    this.runs.splice(i, 1);
    for (const p of run.parts) this.held -= p.length;
  }

  /**
   * Forgets runs whose rows, once in the scrollback, would be trimmed off it: at least as many rows
   * as the buffer keeps come after them (a line feed is a row at least).
   */
  private forgetUnreachable(): void {
    const runs = this.runs;
    const limit = runs.at(-1)!.buffer.lines.maxLength;
    let after = 0;
    for (let k = runs.length - 1; k > 0; k--) {
      after += runs[k]!.lineFeeds + (runs[k]!.marker.line - runs[k - 1]!.marker.line);
      if (after >= limit) {
        for (const run of runs.slice(0, k)) run.marker.dispose();
        return;
      }
    }
  }

  /** A run's rows, put into the scrollback before its marker; the oldest rows go if there are too many. */
  private insert(run: Run): void {
    const rows = this.replay(run);
    const buffer = run.buffer;
    const list = buffer.lines;
    const at = run.marker.line;
    const over = Math.max(0, list.length + rows.length - list.maxLength);
    const trimmed = Math.min(over, at);
    const items = rows.slice(over - trimmed);
    const atBottom = buffer.ydisp === buffer.ybase;
    const shown = buffer.ydisp;
    if (trimmed > 0) list.trimStart(trimmed);
    for (let i = 0; i < items.length; i += SPLICE_ROWS) list.splice(at - trimmed + i, 0, ...items.slice(i, i + SPLICE_ROWS));
    buffer.ybase += items.length - trimmed;
    buffer.ydisp = atBottom ? buffer.ybase : Math.max(0, shown - trimmed + (shown >= at ? items.length : 0));
  }

  /** Replays a run on a one-row emulator of its width: the rows it wrote, in order. */
  private replay(run: Run): Row[] {
    const term = new xterm.Terminal({ allowProposedApi: true, logLevel: 'off', cols: run.cols, rows: 1, scrollback: run.buffer.lines.maxLength });
    try {
      const core = coreOf(term)!;
      const buffer = core._bufferService!.buffers!.normal!;
      buffer.lines.set(0, run.row);
      buffer.x = run.x;
      core._inputHandler!._curAttrData = run.attributes;
      for (const part of run.parts) core._writeBuffer!.writeSync!(part);
      const rows: Row[] = [];
      for (let i = 0; i < buffer.ybase; i++) rows.push(buffer.lines.get(i)!);
      return rows;
    } finally {
      term.dispose();
    }
  }
}

/** `parts` split just after their `n`th line feed; undefined when they hold fewer. */
function afterLineFeeds(parts: readonly Uint8Array[], n: number): { before: Uint8Array[]; after: Uint8Array[] } | undefined {
  let seen = 0;
  for (let p = 0; p < parts.length; p++) {
    const data = parts[p]!;
    for (let lf = data.indexOf(LF); lf !== -1; lf = data.indexOf(LF, lf + 1)) if (++seen === n) return splitParts(parts, p, lf + 1);
  }
  return undefined;
}
