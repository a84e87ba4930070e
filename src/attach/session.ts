/**
 * An attach session: transport + terminal model + keys + frames, without React.
 * It draws into the real terminal: a one-line status bar on top, the remote
 * terminal below it, painted from the emulator's buffer (only rows that changed).
 * Frames are throttled to 60 a second and the last one follows within a frame
 * interval after output goes quiet, except a typed key's echo, drawn as soon
 * as it is parsed. In passthrough (the `attach` subcommand) the bytes go
 * straight to the terminal and the emulator only serves repaints on resize.
 */
import { FLOW } from './protocol.js';
import { DETACH, decodeInput, encodeKey, scrollOf } from './keys.js';
import { FrameRenderer, TerminalModel } from './terminal.js';
import type { ConnectionState, TerminalTransport, TransportHandlers } from './transport.js';

export const FRAME_INTERVAL_MS = 1000 / 60;
/** Output this soon after a key counts as its echo and is drawn at once. */
const ECHO_WINDOW_MS = 100;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** A paste longer than this goes to the remote as it comes, without waiting for its end. */
const MAX_HELD_PASTE = 4 << 20;
/** Outer terminal: report pastes in brackets while attached, and stop on leaving. */
const OUTER_PASTE_ON = '\x1b[?2004h';
const OUTER_PASTE_OFF = '\x1b[?2004l';

export interface AttachSessionOptions {
  /** Shown in the status bar: already sanitized. */
  title: string;
  cols: number;
  /** The whole screen's rows; the remote gets one fewer (the status bar). */
  rows: number;
  scrollback: number;
  write: (s: string) => void;
  /**
   * Full screen, as tmux does (the `attach` subcommand): no status bar, the remote's bytes go
   * straight to the real terminal, and the emulator is kept in step only to repaint after a resize.
   * `writeRaw` carries those bytes; `onExit` replaces "press any key" when the remote exits.
   */
  passthrough?: { writeRaw: (data: Uint8Array) => void; onExit: (how: string) => void };
  makeTransport: (handlers: TransportHandlers, size: { cols: number; rows: number }) => TerminalTransport;
  onDetach: () => void;
}

export class AttachSession {
  readonly model: TerminalModel;
  private readonly renderer: FrameRenderer;
  private transport: TerminalTransport | undefined;
  private state: ConnectionState = 'connecting';
  private detail = '';
  private exited: string | null = null;
  private cols: number;
  private rows: number;
  private frameTimer: NodeJS.Timeout | undefined;
  private ackTimer: NodeJS.Timeout | undefined;
  private lastFrame = 0;
  private consumed = 0;
  private acked = 0;
  private statusLine = '';
  private disposed = false;
  /** The start of a bracketed paste whose end has not arrived yet. */
  private pasting = '';
  frames = 0;
  /** When the last key went out: the output after it (its echo) is drawn at once, not on the frame clock. */
  private keyAt = -Infinity;
  /** Passthrough: model writes not parsed yet, and whether output is held back for a repaint. */
  private pending = 0;
  private holding = false;

  constructor(private readonly opts: AttachSessionOptions) {
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.model = new TerminalModel({ cols: opts.cols, rows: this.remoteRows(), scrollback: opts.passthrough ? 0 : opts.scrollback });
    this.renderer = new FrameRenderer(opts.write, opts.passthrough ? 1 : 2);
    // Answers the emulator generates (cursor position reports, device attributes) go back to the
    // remote; in passthrough the user's own terminal answers, so the model stays quiet.
    if (!opts.passthrough) this.model.term.onData((d) => this.transport?.send(d));
  }

  /** Rows the remote gets: all of them in passthrough, else one fewer (the status bar). */
  private remoteRows(): number {
    return this.opts.passthrough ? Math.max(1, this.rows) : Math.max(1, this.rows - 1);
  }

  /** Passthrough output: to the terminal at once (unless held for a repaint), and into the model. */
  private passOutput(data: Buffer, offset: number): void {
    // While held, the bytes reach the screen through the repaint (the model has them).
    if (!this.holding) this.opts.passthrough!.writeRaw(data);
    this.pending++;
    this.model.write(data, () => {
      this.pending--;
      this.consumed = offset + data.length;
      this.maybeAck();
      if (this.holding && this.pending === 0) this.repaint();
    });
  }

  /** Passthrough: the terminal shows the model (after a resize), then output flows again. */
  private repaint(): void {
    this.holding = false;
    if (this.disposed) return;
    this.opts.write('\x1b[0m\x1b[2J');
    this.renderer.invalidate();
    this.renderer.frame(this.model);
  }

  start(): void {
    this.opts.write(`\x1b[2J\x1b[H${OUTER_PASTE_ON}`);
    this.transport = this.opts.makeTransport(
      {
        output: (data, offset) => {
          if (this.opts.passthrough) return this.passOutput(data, offset);
          this.model.write(data, () => {
            this.consumed = offset + data.length;
            this.maybeAck();
            // A key's echo is drawn as soon as it is parsed, without waiting for the frame clock.
            if (performance.now() - this.keyAt < ECHO_WINDOW_MS) {
              this.keyAt = -Infinity;
              clearTimeout(this.frameTimer);
              this.frameTimer = undefined;
              this.draw();
            } else this.schedule();
          });
        },
        state: (s, detail) => {
          this.state = s;
          this.detail = detail ?? '';
          this.schedule();
        },
        gap: (missed) => {
          this.model.write(`\r\n\x1b[0;33m[intern-tui: ${missed} bytes of output were lost while disconnected: more than the daemon keeps]\x1b[0m\r\n`);
          this.schedule();
        },
        exit: (info) => {
          const how = info.reason ?? (info.signal ? `killed by signal ${info.signal}` : `exited with code ${info.code ?? '?'}`);
          this.exited = how;
          if (this.opts.passthrough) this.opts.passthrough.onExit(how);
          else this.schedule();
        },
      },
      { cols: this.cols, rows: this.remoteRows() },
    );
    this.transport.connect();
    if (!this.opts.passthrough) this.draw();
  }

  /** Raw input from the outer terminal. The detach key works at any moment. */
  input(chunk: string): void {
    if (this.disposed) return;
    if (chunk.includes(DETACH) || this.exited !== null) {
      this.opts.onDetach();
      return;
    }
    // A long paste arrives over several reads: hold it until its closing bracket, so it is
    // re-bracketed (or not) for the remote's mode as one piece.
    let data = this.pasting + chunk;
    this.pasting = '';
    const open = data.lastIndexOf(PASTE_START);
    if (open !== -1 && data.indexOf(PASTE_END, open) === -1 && data.length - open <= MAX_HELD_PASTE) {
      this.pasting = data.slice(open);
      data = data.slice(0, open);
    }
    for (const event of decodeInput(data)) {
      const scroll = this.opts.passthrough ? 0 : scrollOf(event);
      if (scroll !== 0) {
        this.model.scroll(scroll * Math.max(1, this.rows - 2));
        this.schedule();
        continue;
      }
      if (this.model.scrolledBack > 0) {
        this.model.scrollToBottom();
        this.schedule();
      }
      const bytes = encodeKey(event, this.model.modes);
      if (bytes) {
        this.keyAt = performance.now();
        // Through the emulator (its onData sends it on), so the echo is parsed as soon as it arrives.
        if (this.opts.passthrough) this.transport?.send(bytes);
        else this.model.input(bytes);
      }
    }
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.model.resize(cols, this.remoteRows());
    this.transport?.resize(cols, this.remoteRows());
    if (this.opts.passthrough) {
      // Hold output until the model has parsed all it was given, then repaint from it.
      if (this.pending === 0) this.repaint();
      else this.holding = true;
      return;
    }
    this.opts.write('\x1b[2J');
    this.statusLine = '';
    this.renderer.invalidate();
    this.draw();
  }

  get connection(): ConnectionState {
    return this.state;
  }

  /** The transport, for tests. */
  get transportForTests(): TerminalTransport | undefined {
    return this.transport;
  }

  private maybeAck(): void {
    if (this.consumed - this.acked >= FLOW.ackEveryBytes) return this.sendAck();
    if (!this.ackTimer) this.ackTimer = setTimeout(() => this.sendAck(), 30);
  }
  private sendAck(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.consumed > this.acked) {
      this.acked = this.consumed;
      this.transport?.ack(this.consumed);
    }
  }

  private schedule(): void {
    if (this.frameTimer || this.disposed) return;
    const wait = Math.max(0, this.lastFrame + FRAME_INTERVAL_MS - performance.now());
    this.frameTimer = setTimeout(() => {
      this.frameTimer = undefined;
      this.draw();
    }, wait);
  }

  private draw(): void {
    if (this.disposed || this.opts.passthrough) return;
    this.lastFrame = performance.now();
    this.frames++;
    const status = this.status();
    if (status !== this.statusLine) {
      this.statusLine = status;
      this.opts.write(`\x1b[?25l\x1b[1;1H\x1b[0;7m${status}\x1b[0m\x1b[K`);
    }
    this.renderer.frame(this.model);
  }

  private status(): string {
    const state =
      this.exited !== null
        ? `${this.exited} · press any key to return`
        : this.state === 'open'
          ? 'connected'
          : this.state === 'reconnecting'
            ? `reconnecting… (${this.detail})`
            : this.state;
    const scrolled = this.model.scrolledBack > 0 ? ` │ history: ${this.model.scrolledBack} lines up (shift+pgdn)` : '';
    const text = ` ${this.opts.title} │ ${state}${scrolled} │ ctrl+] detach `;
    const chars = [...text];
    return chars.length > this.cols ? chars.slice(0, this.cols).join('') : text + ' '.repeat(this.cols - chars.length);
  }

  dispose(): void {
    if (!this.disposed) this.opts.write(OUTER_PASTE_OFF);
    this.disposed = true;
    clearTimeout(this.frameTimer);
    clearTimeout(this.ackTimer);
    this.transport?.close();
    this.model.dispose();
  }
}
