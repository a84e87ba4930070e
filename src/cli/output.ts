/**
 * Command output. For people: a table aligned by display width (string-width), coloured only
 * when stdout is a TTY (or CLICOLOR_FORCE, FORCE_COLOR) and NO_COLOR is unset; tab-separated
 * without a header otherwise, for `cut` and `awk`, with values as the service sent them. For
 * programs: `--json` prints the service's objects as one JSON value, `--json a,b` keeps only
 * those fields, `--jq`/`--template` filter that value (filter.ts). Errors go to stderr (as JSON
 * under --json). A piped stdout carries data only: prose goes to stderr.
 * Every string from the server is sanitised before it reaches a terminal in table mode.
 * Every write goes through `writeOut`, which waits for a full stream's `drain`: a command that
 * streams (chat) awaits it between pieces, so memory stays bounded whatever the reader's pace.
 */
import { jsonText, sanitize, truncate } from '../text.js';
import { backgroundFromEnv, noColorFromEnv } from '../tui/theme.js';
import type { Io } from './io.js';
import { CliError, EXIT } from './exit.js';
import type { JsonFilter } from './filter.js';
import { pickFields } from './output/json.js';
import { lineCount, pagerOf, runPager } from './output/pager.js';
import { forceColorFromEnv, LIGHT_SGR, SGR, type Tone } from './output/style.js';
import { detailText, tableText, type Column, type DetailRow, type Surface } from './output/table.js';
import { columnAfter, writeOut } from './output/write.js';

// Its parts, each in output/, are imported from here too.
export { checkJsonFields, pickFields } from './output/json.js';
export { pagerOf } from './output/pager.js';
export { forceColorFromEnv, statusTone, type Tone } from './output/style.js';
export { fitColumns, type Cell, type Column, type DetailRow } from './output/table.js';
export { columnAfter, writeOut } from './output/write.js';

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
  /**
   * `--jq` or `--template`, compiled (filter.ts): what JSON output would print goes through it.
   * Set by run.ts before the command runs.
   */
  filter: JsonFilter | null = null;

  constructor(
    private readonly io: Io,
    /** null without --json (nor --jq, --template); [] for --json alone. */
    readonly jsonFields: string[] | null,
    /** --no-color: as NO_COLOR does. */
    noColorFlag = false,
    /** The command's cancel signal: a write waiting for the reader stops waiting on it. */
    private readonly signal?: AbortSignal,
    /** Errors as JSON on stderr: --json was given (not only --jq or --template, whose reader wants text). */
    private readonly jsonErrors = jsonFields !== null,
    /** --no-pager. */
    noPager = false,
  ) {
    this.tty = Boolean(io.stdout.isTTY);
    this.pager = this.tty && !noPager ? pagerOf(io.env) : null;
    this.color = (this.tty || forceColorFromEnv(io.env)) && !(noColorFlag || noColorFromEnv(io.env));
    this.sgr = backgroundFromEnv(io.env) === 'light' ? LIGHT_SGR : SGR;
  }

  get json(): boolean {
    return this.jsonFields !== null;
  }

  /** What a frame of --watch has printed so far (frame), else null: written straight to stdout. */
  private buffer: string | null = null;
  /** How many lines the last frame took on the terminal, to draw the next over it. */
  private frameLines = 0;

  /** The pager long output on a terminal goes through (pagerOf), or null. */
  private readonly pager: string | null;
  /** A pager running, until it is closed. */
  private paging: Promise<void> | null = null;

  /**
   * Data for stdout: a table, an object, JSON. A list (`pageable`) longer than the terminal goes
   * through the pager; one object does not: what a change prints stays on the screen below its prompt.
   */
  private write(text: string, pageable = false): void {
    if (this.buffer !== null) this.buffer += text;
    else if (pageable && this.pager !== null && this.paging === null && lineCount(text) >= (this.io.stdout.rows ?? Infinity)) this.paging = this.page(this.pager, text);
    else void this.put(text);
  }

  /** Runs the pager on the terminal with `text` (runPager); one that cannot be run leaves the text printed as it is. */
  private async page(pager: string, text: string): Promise<void> {
    if (!(await runPager(pager, text, this.io.env))) void this.put(text);
  }

  /** Once the command is done: waits for its pager to be closed (run.ts). */
  settled(): Promise<void> {
    return this.paging ?? Promise.resolve();
  }

  /**
   * One state of what `--watch` watches. On a terminal it is drawn over the last one (the cursor
   * moved up the lines that took, and what is below cleared), so the view stays in place; piped,
   * it is one JSON document on a line of its own (fields picked, --jq applied), for a reader that
   * takes one document per change.
   */
  frame(value: unknown, draw: () => void): void {
    if (!this.tty) {
      const v = this.jsonFields?.length ? pickFields(value, this.jsonFields) : value;
      void this.put(this.filter ? this.filter(v) : jsonText(v) + '\n');
      return;
    }
    this.buffer = '';
    try {
      draw();
    } finally {
      const text = this.buffer ?? '';
      this.buffer = null;
      void this.put((this.frameLines > 0 ? `\x1b[${this.frameLines}F\x1b[0J` : '') + text);
      this.frameLines = (text.match(/\n/g) ?? []).length;
    }
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
    this.write(this.filter ? this.filter(v) : jsonText(v, 2) + '\n', Array.isArray(value));
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
    await this.put(this.filter ? this.filter(v) : jsonText(v) + '\n');
  }

  /** A list: JSON (the objects as sent) or a table; on a terminal, a remark when values were cut to fit it. */
  list<T>(rows: T[], columns: Column<T>[], empty = 'nothing to show'): void {
    if (this.printJson(rows)) return;
    const { text: printed, cut } = this.layout(rows, columns, empty);
    this.write(printed, true);
    if (cut) this.aside(`cut to fit ${this.io.stdout.columns} columns: --json or a pipe prints whole values`);
  }

  table<T>(rows: T[], columns: Column<T>[], empty = 'nothing to show'): string {
    return this.layout(rows, columns, empty).text;
  }

  /** Where this output's text goes, for tables and detail views (table.ts). */
  private get surface(): Surface {
    return { tty: this.tty, columns: this.io.stdout.columns, paint: (s, tone) => this.paint(s, tone) };
  }

  /** The table as printed, and whether it cut values to fit the terminal. */
  private layout<T>(rows: T[], columns: Column<T>[], empty: string): { text: string; cut: boolean } {
    return tableText(rows, columns, empty, this.surface);
  }

  /** One object: JSON, or `label  value` lines. */
  object<T>(value: T, rows: DetailRow<T>[]): void {
    if (this.printJson(value)) return;
    this.write(detailText(value, rows, this.surface));
  }

  /**
   * What a command that waited or looked says it found: under --json the value; else the message
   * for people, on stdout on a terminal and on stderr in a pipe, where stdout carries data only.
   */
  done(message: string, jsonValue: unknown): void {
    if (this.printJson(jsonValue)) return;
    void this.put(sanitize(message) + '\n', this.tty ? this.io.stdout : this.io.stderr);
  }

  /**
   * A resource a command changed (created, provisioned, suspended, deleted): printed as `get`
   * prints it, on stdout and nothing else there (JSON under --json, whose FIELDS are get's); what
   * was done is a line on stderr for people, and none under --json.
   */
  changed<T>(message: string, value: T, rows: DetailRow<T>[]): void {
    if (!this.json) this.note(message);
    this.object(value, rows);
  }


  /** A remark for a person reading a table on a terminal (stderr); none under --json or in a pipe, where no one reads it. */
  aside(message: string): void {
    // Not inside a --watch frame: a line on the terminal would push the frame drawn over down.
    if (this.tty && !this.json && this.buffer === null) void this.put(this.paint(sanitize(message), 'dim') + '\n', this.io.stderr);
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

  /**
   * A credential for another program (`auth token`), as it is: never onto a terminal (the command
   * refuses one first), and never through `say`, which would sanitise it.
   */
  secret(value: string): void {
    if (this.tty) throw new CliError(EXIT.usage, 'a secret is never written to a terminal');
    void this.put(value);
  }

  /** A line for people on stderr (prompts, notices), never mixed into stdout data: control characters removed, line breaks and tabs kept. */
  note(message: string): void {
    void this.put(sanitize(message, { multiline: true, tabs: true }) + '\n', this.io.stderr);
  }

  error(message: string, extra: { exit: number; status?: number; code?: number | string; reason?: string | null }): void {
    void this.put(this.jsonErrors ? jsonText({ error: { message: sanitize(message), ...extra } }) + '\n' : `intern-tui: ${sanitize(message)}\n`, this.io.stderr);
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
