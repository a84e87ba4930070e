/**
 * Command output. For people: a table aligned by display width (string-width), coloured only
 * when stdout is a TTY (or CLICOLOR_FORCE, FORCE_COLOR) and NO_COLOR is unset; tab-separated
 * without a header otherwise, for `cut` and `awk`, with values as the service sent them. For
 * programs: `--json` prints the service's objects as one JSON value, `--json a,b` keeps only
 * those fields, `--jq`/`--template` filter that value (filter.ts). Errors go to stderr (as JSON
 * under --json). A piped stdout carries data only: prose goes to stderr.
 * Every string from the server is sanitised before it reaches a terminal in table mode.
 */
import { jsonText, sanitize, truncate, widthOf } from '../text.js';
import { wrapText } from '../tui/wrap.js';
import { backgroundFromEnv, noColorFromEnv } from '../tui/theme.js';
import type { Io } from './context.js';
import { CliError, EXIT } from './exit.js';
import type { JsonFilter } from './filter.js';
import type * as ChildProcess from 'node:child_process';
import { importExternal } from '../importExternal.js';

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

/**
 * Colour forced where stdout is no terminal: `CLICOLOR_FORCE` or `FORCE_COLOR` set to anything but
 * empty or 0 (the conventions of BSD's ls and of chalk). NO_COLOR and --no-color win over both.
 */
export const forceColorFromEnv = (env: NodeJS.ProcessEnv): boolean => [env.CLICOLOR_FORCE, env.FORCE_COLOR].some((v) => v !== undefined && v !== '' && v !== '0');

/**
 * The pager for long output on a terminal: INTERN_TUI_PAGER, else PAGER, else `less -FRX` (quits
 * when the text fits, keeps colours, leaves it on the screen); none when set empty or to `cat`.
 */
export function pagerOf(env: NodeJS.ProcessEnv): string | null {
  const chosen = (env.INTERN_TUI_PAGER ?? env.PAGER)?.trim();
  if (chosen === undefined) return 'less -FRX';
  return chosen === '' || chosen === 'cat' ? null : chosen;
}

const lineCount = (text: string) => (text.match(/\n/g) ?? []).length;

export class Output {
  readonly tty: boolean;
  readonly color: boolean;
  /** The escapes each tone is drawn with: for a light background or a dark one (backgroundFromEnv). */
  private readonly sgr: Record<Tone, [string, string]>;
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
    else this.io.stdout.write(text);
  }

  /**
   * Runs the pager (through the shell, as git and gh run $PAGER) on the terminal with `text` on its
   * stdin. One that cannot be run (not installed: the shell's 127) leaves the text printed as it is.
   */
  private async page(pager: string, text: string): Promise<void> {
    const { spawn } = await importExternal<typeof ChildProcess>('node:child_process');
    const shown = await new Promise<boolean>((resolve) => {
      const child = spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...this.io.env } });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code !== 127 && code !== 126));
      // q before the end: the rest is not wanted.
      child.stdin.on('error', () => undefined);
      child.stdin.end(text);
    });
    if (!shown) this.io.stdout.write(text);
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
      this.io.stdout.write(this.filter ? this.filter(v) : jsonText(v) + '\n');
      return;
    }
    this.buffer = '';
    try {
      draw();
    } finally {
      const text = this.buffer ?? '';
      this.buffer = null;
      this.io.stdout.write((this.frameLines > 0 ? `\x1b[${this.frameLines}F\x1b[0J` : '') + text);
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
   * for every piece of text.
   */
  ndjson(value: unknown): void {
    const v = this.jsonFields && this.jsonFields.length ? pickFields(value, this.jsonFields) : value;
    if (this.jsonFields?.length && v && typeof v === 'object' && Object.keys(v).length === 0) return;
    this.io.stdout.write(this.filter ? this.filter(v) : jsonText(v) + '\n');
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
    this.write(lines.join('\n') + '\n');
  }

  /**
   * What a command that waited or looked says it found: under --json the value; else the message
   * for people, on stdout on a terminal and on stderr in a pipe, where stdout carries data only.
   */
  done(message: string, jsonValue: unknown): void {
    if (this.printJson(jsonValue)) return;
    (this.tty ? this.io.stdout : this.io.stderr).write(sanitize(message) + '\n');
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
    if (this.tty && !this.json && this.buffer === null) this.io.stderr.write(this.paint(sanitize(message), 'dim') + '\n');
  }

  /**
   * Whether a person can be asked (stdin and stderr are terminals). Commands reach the streams
   * only through Output (a lint rule), so that nothing the service sent is written unsanitised.
   */
  get canAsk(): boolean {
    return Boolean(this.io.stdin.isTTY && this.io.stderr.isTTY);
  }

  /** Text on stdout as it comes (an answer streaming, an id alone): control characters removed, line breaks and tabs kept. Answers what was written. */
  say(text: string): string {
    const clean = sanitize(text, { multiline: true, tabs: true });
    this.io.stdout.write(clean);
    return clean;
  }

  /**
   * A credential for another program (`auth token`), as it is: never onto a terminal (the command
   * refuses one first), and never through `say`, which would sanitise it.
   */
  secret(value: string): void {
    if (this.tty) throw new CliError(EXIT.usage, 'a secret is never written to a terminal');
    this.io.stdout.write(value);
  }

  /** A line for people on stderr (prompts, notices), never mixed into stdout data: control characters removed, line breaks and tabs kept. */
  note(message: string): void {
    this.io.stderr.write(sanitize(message, { multiline: true, tabs: true }) + '\n');
  }

  error(message: string, extra: { exit: number; status?: number; code?: number | string; reason?: string | null }): void {
    if (this.jsonErrors) {
      this.io.stderr.write(jsonText({ error: { message: sanitize(message), ...extra } }) + '\n');
    } else {
      this.io.stderr.write(`intern-tui: ${sanitize(message)}\n`);
    }
  }
}

export const statusTone = (s: string): Tone | undefined =>
  /^(running|ready|active|enabled)$/.test(s) ? 'green' : /^(queued|provisioning|destroying|suspended|pending)$/.test(s) ? 'yellow' : /fail|error/.test(s) ? 'red' : undefined;
