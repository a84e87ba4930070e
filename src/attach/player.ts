/**
 * The player: plays a recording (asciicast.ts) into a terminal model and
 * paints it, as attach paints a live terminal, so the recording's control
 * sequences reach only the emulator, never the user's terminal. A status line
 * on the top row says where it is. No React, and no keys of its own: the
 * caller maps keys to pause, seek and quit (the CLI's `replay`, the TUI's
 * replay screen).
 *
 * Time: the recording's own, with pauses longer than `idleLimit` cut to it,
 * divided by `speed`. Seeking forward parses the events in between at once;
 * seeking back starts a fresh model and parses from the start (at 10 MB/s and
 * more, a long recording's seek costs a few hundred milliseconds at worst).
 */
import { clock, parseSize, type CastEvent, type CastHeader } from './asciicast.js';
import { FrameRenderer } from './painter.js';
import { TerminalModel } from './terminal.js';
import { pad, sanitize, truncate } from '../text.js';

export interface PlayerOptions {
  header: CastHeader;
  events: CastEvent[];
  /** The real terminal's size: the recording is drawn below the status line, cut to fit. */
  cols: number;
  rows: number;
  write: (s: string) => void;
  speed?: number;
  /** Seconds: longer pauses are played as this long. */
  idleLimit?: number;
  /** Shown in the status line (sanitised here). */
  title: string;
  /** The keys to show in the status line (the caller's words). */
  hint: string;
  /** Played to its end (the player stays on the last frame, paused). */
  onEnd?: () => void;
}

/** Frames at most this often while playing. */
const FRAME_MS = 1000 / 30;

/** Each event's time with pauses longer than `idleLimit` cut to it. */
export function timeline(events: readonly CastEvent[], idleLimit = Infinity): number[] {
  const out: number[] = [];
  let last = 0;
  let at = 0;
  for (const e of events) {
    at += Math.min(Math.max(0, e.time - last), idleLimit);
    last = e.time;
    out.push(at);
  }
  return out;
}

export class Player {
  private model: TerminalModel;
  private readonly renderer: FrameRenderer;
  private readonly times: number[];
  private readonly speed: number;
  /** The next event to play, and where in the (cut) time the player is. */
  private next = 0;
  private position = 0;
  /** Wall-clock time (ms) the position was last set at, while playing. */
  private since = 0;
  paused = false;
  private timer: NodeJS.Timeout | undefined;
  private frameTimer: NodeJS.Timeout | undefined;
  private cols: number;
  private rows: number;
  private disposed = false;
  private ended = false;

  constructor(private readonly opts: PlayerOptions) {
    this.speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
    this.times = timeline(opts.events, opts.idleLimit && opts.idleLimit > 0 ? opts.idleLimit : Infinity);
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.model = this.freshModel();
    this.renderer = new FrameRenderer(opts.write, 2);
  }

  /** The recording's length, cut as played. */
  get length(): number {
    return this.times.at(-1) ?? 0;
  }

  /** Where the player is, in seconds of the (cut) recording. */
  get at(): number {
    return this.paused || this.ended ? this.position : Math.min(this.length, this.position + ((performance.now() - this.since) / 1000) * this.speed);
  }

  private freshModel(): TerminalModel {
    return new TerminalModel({ cols: this.opts.header.width, rows: this.opts.header.height, scrollback: 0 });
  }

  start(): void {
    // Autowrap off while playing: a recording wider than this terminal is cut at its edge, not wrapped.
    this.opts.write('\x1b[?7l\x1b[2J');
    this.since = performance.now();
    this.schedule();
    this.draw();
  }

  togglePause(): void {
    if (this.ended) return this.seek(-this.length);
    this.position = this.at;
    this.paused = !this.paused;
    this.since = performance.now();
    if (this.paused) clearTimeout(this.timer);
    else this.schedule();
    this.draw();
  }

  /** Moves by `seconds` (negative: back) and goes on as it was (playing or paused). */
  seek(seconds: number): void {
    const target = Math.min(this.length, Math.max(0, this.at + seconds));
    clearTimeout(this.timer);
    // Back: the emulator cannot go back, so it starts afresh and plays up to the target.
    if (seconds < 0) {
      this.model.dispose();
      this.model = this.freshModel();
      this.renderer.invalidate();
      this.opts.write('\x1b[2J');
      this.next = 0;
    }
    this.ended = false;
    this.position = target;
    this.since = performance.now();
    this.playUpTo(target);
    if (!this.paused) this.schedule();
    this.draw();
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.opts.write('\x1b[2J');
    this.renderer.invalidate();
    this.draw();
  }

  /** Hands the model every event up to `time`. */
  private playUpTo(time: number): void {
    const events = this.opts.events;
    while (this.next < events.length && this.times[this.next]! <= time) {
      const e = events[this.next++]!;
      if (e.code === 'o') this.model.write(e.data, () => this.drawSoon());
      else if (e.code === 'r') {
        const size = parseSize(e.data);
        if (size) this.model.resize(size.cols, size.rows);
      }
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.disposed || this.paused) return;
    if (this.next >= this.opts.events.length) {
      this.ended = true;
      this.position = this.length;
      this.draw();
      this.opts.onEnd?.();
      return;
    }
    const wait = Math.max(0, ((this.times[this.next]! - this.at) * 1000) / this.speed);
    this.timer = setTimeout(() => {
      this.playUpTo(this.at);
      this.schedule();
    }, wait);
  }

  private drawSoon(): void {
    this.frameTimer ??= setTimeout(() => {
      this.frameTimer = undefined;
      this.draw();
    }, FRAME_MS);
  }

  private draw(): void {
    if (this.disposed) return;
    const state = this.ended ? 'ended (space plays again)' : this.paused ? 'paused' : this.speed !== 1 ? `playing ×${this.speed}` : 'playing';
    const text = ` ${sanitize(this.opts.title)} │ ${clock(this.at)} / ${clock(this.length)} │ ${state} │ ${this.opts.hint} `;
    this.opts.write(`\x1b[?25l\x1b[1;1H\x1b[0;7m${pad(truncate(text, this.cols), this.cols)}\x1b[0m`);
    this.renderer.frame(this.model, undefined, Math.max(0, this.rows - 1));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    clearTimeout(this.frameTimer);
    this.model.dispose();
    this.opts.write('\x1b[0m\x1b[?7h\x1b[?25h');
  }
}
