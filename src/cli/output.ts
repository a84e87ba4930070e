/**
 * Command output. For people: a table aligned by display width (string-width), coloured only
 * when stdout is a TTY and NO_COLOR is unset; tab-separated without a header otherwise, for
 * `cut` and `awk`. For programs: `--json` prints the service's objects as one JSON value,
 * `--json a,b` keeps only those fields. Errors go to stderr (as JSON under --json).
 * Every string from the server is sanitised before it reaches a terminal in table mode.
 * Every write goes through `writeOut`, which waits for a full stream's `drain`: a command that
 * streams (chat) awaits it between pieces, so memory stays bounded whatever the reader's pace.
 */
import { jsonText, sanitize, truncate, widthOf } from '../text.js';
import { wrapText } from '../tui/wrap.js';
import { backgroundFromEnv, noColorFromEnv } from '../tui/theme.js';
import type { Io } from './context.js';
import { CliError, EXIT } from './exit.js';

export type Cell = string | number | boolean | null | undefined;
export interface Column<T> {
  header: string;
  get: (row: T) => Cell;
  /** Colour for a TTY, by the cell's text. */
  tone?: (text: string) => Tone | undefined;
  /**
   * Never cut to fit a terminal: what a person copies into the next command (an intern's name, a
   * BYOK key's id, a model's id), and short words (a status). The other columns are cut.
   */
  keep?: boolean;
  /** On a terminal, the cell shortened thus (a BYOK key's id, which commands take as short as shown); piped, it is whole. */
  short?: (text: string) => string;
  /** What an empty cell says on a terminal, dim (a dash by default; piped, the cell stays empty). */
  empty?: string;
}
/**
 * A line of `object`: its label, its value, what an empty value says on a terminal (a dash by
 * default), and how a terminal shows the value (a time with its age); piped, it is as sent.
 */
/**
 * A `label  value` line of a detail view. Only a `prose` row (a description, instructions, a
 * failure message) keeps its own line breaks: in any other, a line break from the service would
 * draw a row of its own (`status: running` then a fake `last failure` line).
 */
export type DetailRow<T> = [label: string, get: (value: T) => Cell, empty?: string, shown?: (text: string) => string, prose?: 'prose'];
export type Tone = 'green' | 'yellow' | 'red' | 'dim' | 'bold';
const SGR: Record<Tone, [string, string]> = {
  green: ['\x1b[32m', '\x1b[39m'],
  yellow: ['\x1b[33m', '\x1b[39m'],
  red: ['\x1b[31m', '\x1b[39m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  bold: ['\x1b[1m', '\x1b[22m'],
};
/** On a light background yellow is unreadable: what it says (on its way, going away) is drawn magenta, as the TUI's light theme does. */
const LIGHT_SGR: Record<Tone, [string, string]> = { ...SGR, yellow: ['\x1b[35m', '\x1b[39m'] };

/**
 * The one way a command's output is written: `text` to `stream`, resolving once the stream takes
 * more: at once while what it holds is under its high-water mark, else on `drain`. A stream that
 * closes or fails meanwhile resolves it too (the ending watch, ending.ts, reports why and ends the
 * command), and so does `signal` (ctrl+c, SIGTERM: the command then sees its abort, not a reader
 * that never reads). A command that writes piece after piece awaits each, so what its reader has not taken
 * yet stays in the pipe and the socket behind it, not in this process: without it, `chat` against
 * an endless stream with a stalled reader grew by tens of MB a second (bench/README.md, issue 43).
 */
export function writeOut(stream: NodeJS.WritableStream, text: string, signal?: AbortSignal): Promise<void> {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (s.destroyed || s.writableEnded) return Promise.resolve();
  if (stream.write(text) || signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
    signal?.addEventListener('abort', done);
  });
}

/** The display column a terminal's cursor is at after `text` is written from column `from` (tabs to every eighth). */
export function columnAfter(from: number, text: string): number {
  const nl = text.lastIndexOf('\n');
  let col = nl >= 0 ? 0 : from;
  const parts = (nl >= 0 ? text.slice(nl + 1) : text).split('\t');
  parts.forEach((part, i) => {
    if (i > 0) col = (Math.floor(col / 8) + 1) * 8;
    col += widthOf(part);
  });
  return col;
}

const text = (c: Cell): string => (c === null || c === undefined ? '' : sanitize(String(c)));

/**
 * Checks `--json FIELDS` against the fields a command's JSON output may hold, before the command
 * runs (usage error, exit 2). A command that prints JSON without naming its fields is a bug here.
 */
export function checkJsonFields(command: string, known: readonly string[] | undefined, fields: string[] | null): void {
  if (!fields?.length) return;
  if (!known) throw new Error(`intern-tui ${command} does not name its JSON fields`);
  const unknown = [...new Set(fields.filter((f) => !known.includes(f)))];
  if (unknown.length) {
    throw new CliError(EXIT.usage, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f.slice(0, 40)}"`).join(', ')} for --json; available: ${known.join(', ')}`, true);
  }
}

/** Keeps only the named fields (checked by checkJsonFields) of an object, or of each object of an array; a field the service left out stays out. */
export function pickFields(value: unknown, fields: string[]): unknown {
  const pick = (o: unknown) => (o && typeof o === 'object' ? Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, (o as Record<string, unknown>)[f]])) : o);
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

/** Two cells between columns. */
const GAP = 2;

/**
 * The widths a table's columns get on a terminal `screen` cells wide: their own when the rows fit;
 * else the columns that may be cut share what the kept ones leave, the widest cut first and to one
 * width (what a floor leaves over goes to the first cut ones), never below one cell (an ellipsis):
 * a terminal too narrow for the kept columns alone wraps. Returns whether any was cut.
 */
export function fitColumns(widths: number[], keep: boolean[], screen: number): { widths: number[]; cut: boolean } {
  const total = widths.reduce((a, w) => a + w, 0) + GAP * (widths.length - 1);
  if (total <= screen) return { widths, cut: false };
  const room = screen - widths.reduce((a, w, i) => a + (keep[i] ? w : 0), 0) - GAP * (widths.length - 1);
  const flexible = widths.filter((_, i) => !keep[i]).sort((a, b) => a - b);
  let left = room;
  let cap = Infinity;
  for (let i = 0; i < flexible.length; i++) {
    if (flexible[i]! * (flexible.length - i) > left) {
      cap = Math.max(1, Math.floor(left / (flexible.length - i)));
      break;
    }
    left -= flexible[i]!;
  }
  const fitted = widths.map((w, i) => (keep[i] ? w : Math.min(w, cap)));
  let spare = room - fitted.reduce((a, w, i) => a + (keep[i] ? 0 : w), 0);
  for (let i = 0; i < fitted.length && spare > 0; i++) {
    if (!keep[i] && fitted[i]! < widths[i]!) {
      fitted[i]!++;
      spare--;
    }
  }
  return { widths: fitted, cut: fitted.some((w, i) => w < widths[i]!) };
}

export class Output {
  readonly tty: boolean;
  readonly color: boolean;
  /** The escapes each tone is drawn with: for a light background or a dark one (backgroundFromEnv). */
  private readonly sgr: Record<Tone, [string, string]>;
  /** When stdout was last written to (performance.now()): what `chat` measures a silence from. */
  lastOutputAt = performance.now();
  /** How many writes to stdout wait for its reader (writeOut): the command is not idle then, the reader is. */
  private waiting = 0;
  /** On a terminal, the column stdout's last line ends at (0 after a line break): where a status line must not draw over. */
  private column = 0;
  /** The status line on stderr (`status`), while one is shown: whether it sits on a line of its own below an unfinished line of stdout. */
  private statusShown: { below: boolean; column: number } | null = null;

  constructor(
    private readonly io: Io,
    /** null without --json; [] for --json alone. */
    readonly jsonFields: string[] | null,
    /** --no-color: as NO_COLOR does. */
    noColorFlag = false,
    /** The command's cancel signal: a write waiting for the reader stops waiting on it. */
    private readonly signal?: AbortSignal,
  ) {
    this.tty = Boolean(io.stdout.isTTY);
    this.color = this.tty && !(noColorFlag || noColorFromEnv(io.env));
    this.sgr = backgroundFromEnv(io.env) === 'light' ? LIGHT_SGR : SGR;
  }

  get json(): boolean {
    return this.jsonFields !== null;
  }

  paint(s: string, tone: Tone | undefined): string {
    if (!this.color || !tone || s === '') return s;
    const [on, off] = this.sgr[tone];
    return on + s + off;
  }

  /** Under --json: prints the value (fields picked). Returns whether it did, so callers print the human form otherwise. */
  printJson(value: unknown): boolean {
    if (!this.json) return false;
    const v = this.jsonFields && this.jsonFields.length ? pickFields(value, this.jsonFields) : value;
    void this.put(jsonText(v, 2) + '\n');
    return true;
  }

  /**
   * One JSON value per line (chat chunks under --json), fields picked. A value holding none of the
   * fields asked for is left out: `--json session_id` prints the chunks that carry one, not a `{}`
   * for every piece of text. Resolves once stdout takes more (writeOut).
   */
  async ndjson(value: unknown): Promise<void> {
    const v = this.jsonFields && this.jsonFields.length ? pickFields(value, this.jsonFields) : value;
    if (this.jsonFields?.length && v && typeof v === 'object' && Object.keys(v).length === 0) return;
    await this.put(jsonText(v) + '\n');
  }

  /** A list: JSON (the objects as sent) or a table; on a terminal, a remark when values were cut to fit it. */
  list<T>(rows: T[], columns: Column<T>[], empty = 'nothing to show'): void {
    if (this.printJson(rows)) return;
    const { text: printed, cut } = this.layout(rows, columns, empty);
    void this.put(printed);
    if (cut) this.aside(`cut to fit ${this.io.stdout.columns} columns: --json or a pipe prints whole values`);
  }

  table<T>(rows: T[], columns: Column<T>[], empty = 'nothing to show'): string {
    return this.layout(rows, columns, empty).text;
  }

  /** The table as printed, and whether it cut values to fit the terminal. */
  private layout<T>(rows: T[], columns: Column<T>[], empty: string): { text: string; cut: boolean } {
    const cells = rows.map((r) =>
      columns.map((c) => {
        const cell = text(c.get(r));
        return this.tty && c.short && cell ? c.short(cell) : cell;
      }),
    );
    if (!this.tty) return { text: cells.map((r) => r.join('\t') + '\n').join(''), cut: false };
    if (rows.length === 0) return { text: this.paint(empty, 'dim') + '\n', cut: false };
    const headers = columns.map((c) => c.header);
    // An empty cell is dim words for people (`empty`, else a dash); piped, it stays empty.
    const blank = columns.map((c) => c.empty ?? '—');
    const natural = columns.map((c, i) => Math.max(widthOf(c.header), ...cells.map((r) => widthOf(r[i] || blank[i]!))));
    // On a terminal, columns are cut (with an ellipsis) to fit its width instead of wrapping.
    const { widths, cut } = this.io.stdout.columns ? fitColumns(natural, columns.map((c) => Boolean(c.keep)), this.io.stdout.columns) : { widths: natural, cut: false };
    const line = (r: string[], tones: (Tone | undefined)[]) =>
      r
        .map((cell, i) => {
          const fitted = truncate(cell || blank[i]!, widths[i]!);
          const padded = i === r.length - 1 ? fitted : fitted + ' '.repeat(widths[i]! - widthOf(fitted));
          return this.paint(padded, cell === '' ? 'dim' : tones[i]);
        })
        .join(' '.repeat(GAP))
        .trimEnd() + '\n';
    const body = cells.map((r) => line(r, columns.map((c, i) => c.tone?.(r[i]!)))).join('');
    return { text: line(headers, columns.map(() => 'bold' as const)) + body, cut };
  }

  /** One object: JSON, or `label  value` lines. */
  object<T>(value: T, rows: DetailRow<T>[]): void {
    if (this.printJson(value)) return;
    const width = Math.max(...rows.map(([l]) => widthOf(l)));
    // On a terminal a long value (the instructions) wraps under itself, its own line breaks kept;
    // piped, each is one line after a tab.
    const room = (this.io.stdout.columns ?? 0) - width - GAP;
    const lines = rows.map(([label, get, empty = '—', shown, prose]) => {
      if (!this.tty) return `${label}\t${text(get(value))}`;
      const raw = get(value);
      const v = raw === null || raw === undefined ? '' : sanitize(shown ? shown(String(raw)) : String(raw), { multiline: prose === 'prose' });
      // Nothing there: dim words for people, as the TUI draws them (piped, the value stays empty).
      if (v === '') return `${this.paint(label.padEnd(width), 'dim')}${' '.repeat(GAP)}${this.paint(empty, 'dim')}`;
      // (wrapText keeps the value's line breaks; a blank line stays blank.)
      const wrapped = room >= 20 ? wrapText(v, room) : [v.replace(/\n/g, ' ')];
      const under = ' '.repeat(width + GAP);
      return wrapped.map((line, i) => (i === 0 ? `${this.paint(label.padEnd(width), 'dim')}${' '.repeat(GAP)}${line}` : line ? under + line : '').trimEnd()).join('\n');
    });
    void this.put(lines.join('\n') + '\n');
  }

  /** A confirmation for people (stdout); under --json the given value is printed instead. */
  done(message: string, jsonValue: unknown): void {
    if (this.printJson(jsonValue)) return;
    void this.put(sanitize(message) + '\n');
  }

  /** A remark for a person reading a table on a terminal (stderr); none under --json or in a pipe, where no one reads it. */
  aside(message: string): void {
    if (this.tty && !this.json) void this.put(this.paint(sanitize(message), 'dim') + '\n', this.io.stderr);
  }

  /**
   * Whether a person can be asked (stdin and stderr are terminals). Commands reach the streams
   * only through Output (a lint rule), so that nothing the service sent is written unsanitised.
   */
  get canAsk(): boolean {
    return Boolean(this.io.stdin.isTTY && this.io.stderr.isTTY);
  }

  /**
   * Text on stdout as it comes (an answer streaming, an id alone): control characters removed, line
   * breaks and tabs kept. Answers what was written, once stdout takes more (writeOut): a command
   * that streams awaits each piece.
   */
  async say(text: string): Promise<string> {
    const clean = sanitize(text, { multiline: true, tabs: true });
    await this.put(clean);
    return clean;
  }

  /** A line for people on stderr (prompts, notices), never mixed into stdout data: control characters removed, line breaks and tabs kept. */
  note(message: string): void {
    void this.put(sanitize(message, { multiline: true, tabs: true }) + '\n', this.io.stderr);
  }

  error(message: string, extra: { exit: number; status?: number; code?: number | string; reason?: string | null }): void {
    void this.put(this.json ? jsonText({ error: { message: sanitize(message), ...extra } }) + '\n' : `intern-tui: ${sanitize(message)}\n`, this.io.stderr);
  }

  /**
   * One line on stderr that says what is going on while nothing else does (the intern still
   * working), drawn again in place by the next call, and erased before anything else is written
   * (erased by `clearStatus` too). Only on a terminal: nothing when stderr is not one. Below an
   * unfinished line of the answer (stdout on the same terminal) it takes a line of its own, and
   * erasing it puts the cursor back at that line's end.
   */
  status(message: string): void {
    if (!this.io.stderr.isTTY) return;
    const width = this.io.stderr.columns ?? this.io.stdout.columns ?? 80;
    let lead = '\r';
    if (!this.statusShown) {
      const column = this.io.stdout.isTTY ? this.column : 0;
      // Exactly at the right edge the cursor waits to wrap, and no escape puts it back there.
      if (column > 0 && column % width === 0) return;
      this.statusShown = { below: column > 0, column: column % width };
      if (column > 0) lead = '\n';
    }
    this.io.stderr.write(`${lead}\x1b[K${this.paint(truncate(sanitize(message), Math.max(1, width - 1)), 'dim')}`);
  }

  /** Erases the status line, if one is shown. */
  clearStatus(): void {
    const shown = this.statusShown;
    if (!shown) return;
    this.statusShown = null;
    this.io.stderr.write(`\r\x1b[K${shown.below ? `\x1b[A\x1b[${shown.column + 1}G` : ''}`);
  }

  /** Every write: the status line erased first; stdout's last column and time kept. */
  private put(text: string, stream: NodeJS.WritableStream = this.io.stdout): Promise<void> {
    this.clearStatus();
    // On a terminal stdout and stderr move one cursor.
    if (this.tty && (stream === this.io.stdout || this.io.stderr.isTTY)) this.column = columnAfter(this.column, text);
    const written = writeOut(stream, text, this.signal);
    if (stream !== this.io.stdout) return written;
    this.lastOutputAt = performance.now();
    this.waiting++;
    return written.then(() => {
      this.waiting--;
      this.lastOutputAt = performance.now();
    });
  }

  /** Whether a write to stdout waits for its reader to take more. */
  get waitingForReader(): boolean {
    return this.waiting > 0;
  }
}

export const statusTone = (s: string): Tone | undefined =>
  /^(running|ready|active|enabled)$/.test(s) ? 'green' : /^(queued|provisioning|destroying|suspended|pending)$/.test(s) ? 'yellow' : /fail|error/.test(s) ? 'red' : undefined;
