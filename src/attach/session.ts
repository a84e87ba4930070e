/**
 * An attach session: transport + terminal model + keys + frames, without React.
 * It draws into the real terminal: a one-line status bar on top, the remote
 * terminal below it, painted from the emulator's buffer (only rows that changed).
 * Frames are throttled to 60 a second and the last one follows within a frame
 * interval after output goes quiet, except a typed key's echo, drawn as soon
 * as it is parsed. In passthrough (the `attach` subcommand) the bytes go to
 * the terminal as the emulator is given them, which is all of them but what
 * skimming leaves out of a flood (lines that scroll off before anyone could
 * see them): the terminal shows what the emulator holds, and the emulator
 * serves repaints on resize.
 */
import { ECHO_WINDOW_MS, OutputFlow, PASSTHROUGH_HOLD_BYTES, STREAM_HOLD_BYTES } from './flow.js';
import { CopyMode, type CopyAction } from './copyMode.js';
import { DETACH } from './detach.js';
import { attachedMouse, decodeInput, encodeKey, scrollOf, type KeyEvent } from './keys.js';
import { isScreenSwitch, withoutScreenSwitches } from './screens.js';
import { FrameRenderer } from './painter.js';
import type { Recorder } from './recorder.js';
import { TerminalModel } from './terminal.js';
import type { ConnectionState, TerminalTransport, TransportHandlers } from './transport.js';
import { statusLine } from './statusBar.js';
import { sanitize } from '../text.js';

export const FRAME_INTERVAL_MS = 1000 / 60;
/** The alternate screen, which passthrough keeps the terminal on (see screens.ts). */
const ALTERNATE_SCREEN_BACK = '\x1b[?1047h';
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
   * Full screen (the `attach` subcommand): no status bar, the remote's bytes go to the real
   * terminal as the emulator is given them (a flood skimmed), and the emulator repaints it after a
   * resize. `writeRaw` carries those bytes; `onExit` replaces "press any key" when the remote exits
   * (`byService`: the service ended the terminal, the intern stopping or the service shutting down,
   * rather than its program exiting). The terminal is on the alternate screen (the caller switched
   * it) and is kept there. While the connection is lost, the status bar's text is drawn over the
   * top row (as mosh draws its notice), and the screen is repainted from the emulator once back.
   */
  passthrough?: { writeRaw: (data: Uint8Array | string) => void; onExit: (how: string, byService: boolean) => void };
  makeTransport: (handlers: TransportHandlers, size: { cols: number; rows: number }) => TerminalTransport;
  onDetach: () => void;
  /**
   * Records the session (recorder.ts): the daemon's output as received, resizes, typed input if
   * the recorder takes it, and markers at attach, resume, exit and detach. The caller closes it.
   */
  recorder?: Pick<Recorder, 'output' | 'input' | 'resize' | 'marker' | 'restarted'>;
  /**
   * History mode's copy mode (copyMode.ts; not in passthrough): `action` is the keymap's word for
   * a key there, `copy` puts text on the clipboard (OSC 52), `hint` names the keys in the status bar.
   */
  history?: { action: (event: KeyEvent) => CopyAction | undefined; copy: (text: string) => void; hint: string };
  /** Drawn by the caller (the split view's pane, from `model` and `status()`): told when a frame is due; `write` gets no frames. */
  onFrame?: () => void;
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
  private lastFrame = 0;
  /** The output on its way into the model: holding, acknowledging (flow.ts). */
  private readonly flow: OutputFlow;
  private statusLine = '';
  /** Passthrough: a connection notice is over the remote's top row, to be repainted away. */
  private noticeShown = false;
  private disposed = false;
  /** The start of a bracketed paste whose end has not arrived yet. */
  private pasting = '';
  frames = 0;
  /** When the last key went out: the output after it (its echo) is drawn at once, not on the frame clock. */
  private keyAt = -Infinity;
  /** Passthrough: output is kept off the screen until a repaint. */
  private awaitingRepaint = false;
  /** Passthrough: the remote switched screens (see screens.ts): the terminal is repainted from the model. */
  private screenSwitched = false;
  /** History mode's copy mode, while it is on. */
  private copy: CopyMode | null = null;
  /** A key is going through the emulator (its onData is the user's, not an answer to a query). */
  private typing = false;

  constructor(private readonly opts: AttachSessionOptions) {
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.model = new TerminalModel({
      cols: opts.cols,
      rows: this.remoteRows(),
      scrollback: opts.passthrough ? 0 : opts.scrollback,
      onFeed: opts.passthrough ? (d) => this.toTerminal(d) : undefined,
      lazyHistory: !opts.passthrough,
    });
    this.flow = new OutputFlow(this.model, {
      holdFrom: opts.passthrough ? PASSTHROUGH_HOLD_BYTES : this.model.lazyHistory ? STREAM_HOLD_BYTES : Infinity,
      ack: (offset) => this.transport?.ack(offset),
      keyAt: () => this.keyAt,
      parsed: (mayBeEcho) => this.parsed(mayBeEcho),
    });
    this.renderer = new FrameRenderer(opts.write, opts.passthrough ? 1 : 2);
    if (opts.passthrough) {
      // The emulator sees every screen switch, including one cut across two chunks (screens.ts).
      const switched = (params: (number | number[])[]) => {
        if (params.some(isScreenSwitch)) this.screenSwitched = true;
        return false;
      };
      this.model.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, switched);
      this.model.term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, switched);
    }
    // Answers the emulator generates (cursor position reports, device attributes) go back to the
    // remote; in passthrough the user's own terminal answers, so the model stays quiet. Not for a
    // query in the replay an attach begins with: it was answered when it was new, and answered
    // again it reached whatever runs now as typed text ("2RR0;276;0c" at a shell prompt after vi).
    if (!opts.passthrough) {
      this.model.term.onData((d) => {
        if (!this.typing && this.flow.replaying) return;
        this.transport?.send(d);
      });
    }
  }

  /** Rows the remote gets: all of them in passthrough, else one fewer (the status bar). */
  private remoteRows(): number {
    return this.opts.passthrough ? Math.max(1, this.rows) : Math.max(1, this.rows - 1);
  }

  /** After a parse: the repaint a resize awaits (passthrough), else a frame; a key's echo is drawn at once. */
  private parsed(mayBeEcho: boolean): void {
    if (this.opts.passthrough) {
      if ((this.awaitingRepaint || this.screenSwitched) && this.flow.pending === 0) this.repaint();
      return;
    }
    if (mayBeEcho && performance.now() - this.keyAt < ECHO_WINDOW_MS) {
      this.keyAt = -Infinity;
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
      this.draw();
    } else this.schedule();
  }

  /** Passthrough: what the model is given goes to the terminal, but for screen switches, unless a repaint will show it. */
  private toTerminal(data: Uint8Array | string): void {
    // The replay an attach begins with is drawn from the emulator, not passed through: the user's
    // terminal would answer its queries again, into whatever runs now.
    if (this.flow.replaying) this.awaitingRepaint = true;
    if (this.awaitingRepaint || this.disposed) return;
    if (this.screenSwitched) this.repaint();
    this.opts.passthrough!.writeRaw(typeof data === 'string' ? data : withoutScreenSwitches(data).data);
  }

  /**
   * Passthrough: the terminal shows the model (after a resize or a screen switch), then output
   * flows again. A switch cut across two chunks reached the terminal: back to the alternate screen
   * (1047, which leaves the cursor saved on entry alone; a no-op when it is there).
   */
  private repaint(): void {
    this.awaitingRepaint = false;
    if (this.disposed) return;
    const back = this.screenSwitched ? ALTERNATE_SCREEN_BACK : '';
    this.screenSwitched = false;
    this.opts.write(`${back}\x1b[0m\x1b[2J`);
    this.renderer.invalidate();
    this.renderer.frame(this.model);
  }

  /** Passthrough: repaints the screen from the emulator now, or once it has parsed what it was given. */
  private repaintWhenParsed(): void {
    if (this.flow.pending === 0) this.repaint();
    else this.awaitingRepaint = true;
  }

  /**
   * Passthrough has no status bar: while the connection is lost, the bar's text goes over the top
   * row (the cursor put back where the emulator has it), and once it is open again the screen is
   * repainted from the emulator, which the notice never touched.
   */
  private connectionNotice(): void {
    if (this.disposed || this.exited !== null) return;
    if (this.state === 'reconnecting') {
      this.noticeShown = true;
      // Back to the emulator's cursor afterwards, not by DECSC/DECRC: that would take the
      // terminal's one saved-cursor slot from the remote program (its own ESC 8 would then land on
      // the notice's).
      const c = this.model.cursor;
      this.opts.write(`\x1b[1;1H\x1b[0;7m${this.status()}\x1b[0m\x1b[${c.y + 1};${c.x + 1}H`);
    } else if (this.state === 'open' && this.noticeShown) {
      this.noticeShown = false;
      this.repaintWhenParsed();
    }
  }

  start(): void {
    this.opts.write(`\x1b[2J\x1b[H${OUTER_PASTE_ON}`);
    this.transport = this.opts.makeTransport(
      {
        output: (data, offset) => {
          this.opts.recorder?.output(data, offset);
          this.flow.output(data, offset);
        },
        state: (s, detail) => {
          if (s === 'open' && this.state === 'reconnecting') this.opts.recorder?.marker('resume');
          this.state = s;
          // A detail can hold the daemon's or the service's words (an error message).
          this.detail = sanitize(detail);
          if (this.opts.passthrough) this.connectionNotice();
          else this.schedule();
        },
        replayed: (live) => {
          this.flow.replayEnd = live;
        },
        restarted: (start) => {
          this.flow.restarted(start);
          this.opts.recorder?.restarted(start);
          this.model.write(`\r\n\x1b[0;33m[intern-tui: the intern's terminal was started again: what follows is a new session]\x1b[0m\r\n`);
          this.schedule();
        },
        gap: (missed) => {
          this.model.write(`\r\n\x1b[0;33m[intern-tui: ${missed} bytes of output were lost while disconnected: more than the daemon keeps]\x1b[0m\r\n`);
          this.schedule();
        },
        exit: (info) => {
          // The reason is the daemon's words, drawn in the status bar: no escape sequence of its own.
          const how = info.reason !== undefined ? sanitize(info.reason) || 'ended by the service' : (info.signal ? `killed by signal ${info.signal}` : `exited with code ${info.code ?? '?'}`);
          this.exited = how;
          this.opts.recorder?.marker(`exit: ${how}`);
          if (this.opts.passthrough) this.opts.passthrough.onExit(how, info.reason !== undefined);
          else this.schedule();
        },
      },
      { cols: this.cols, rows: this.remoteRows() },
    );
    this.opts.recorder?.marker('attach');
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
    // What is held is parsed first: a key's echo, a scroll, shows the screen as it is now.
    this.flow.release();
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
      const mouse = event.kind === 'mouse' && !this.opts.passthrough ? attachedMouse(event.report, this.model, this.model.scrolledBack === 0 && !this.copy) : undefined;
      const scroll = typeof mouse === 'number' ? mouse : this.opts.passthrough ? 0 : scrollOf(event) * Math.max(1, this.rows - 2);
      if (mouse === null) continue;
      if (scroll !== 0) {
        this.model.scroll(scroll);
        this.historyScrolled();
        this.schedule();
        continue;
      }
      if (this.copy && this.copyKey(event)) continue;
      if (this.model.scrolledBack > 0 || this.copy) {
        this.copy = null;
        this.model.scrollToBottom();
        this.schedule();
      }
      const bytes = typeof mouse === 'string' ? mouse : encodeKey(event, this.model.modes);
      if (bytes) {
        this.keyAt = performance.now();
        this.opts.recorder?.input(bytes);
        // Through the emulator (its onData sends it on), so the echo is parsed as soon as it arrives.
        if (this.opts.passthrough) this.transport?.send(bytes);
        else {
          this.typing = true;
          try {
            this.model.input(bytes);
          } finally {
            this.typing = false;
          }
        }
      }
    }
  }

  /** History mode: copy mode starts with it and ends at the live screen; its cursor stays in view. */
  private historyScrolled(): void {
    if (!this.opts.history) return;
    if (this.model.scrolledBack === 0) {
      this.copy = null;
      return;
    }
    this.copy ??= new CopyMode(this.model.term);
    const top = this.model.term.buffer.active.viewportY;
    const c = this.copy.cursor;
    c.line = Math.max(top, Math.min(top + this.model.rows - 1, c.line));
  }

  /** A key in copy mode: true when copy mode took it (else it ends, and the key is the remote's). */
  private copyKey(event: KeyEvent): boolean {
    const copy = this.copy!;
    const result = copy.key(event, this.opts.history?.action(event));
    if (result === 'ignored') return false;
    if (result === 'done') {
      this.model.term.scrollToLine(copy.viewTop());
    } else {
      if (typeof result === 'object') this.opts.history?.copy(result.copy);
      this.copy = null;
      this.model.scrollToBottom();
    }
    this.schedule();
    return true;
  }

  resize(cols: number, rows: number): void {
    this.flow.release();
    this.cols = cols;
    this.rows = rows;
    this.model.resize(cols, this.remoteRows());
    this.transport?.resize(cols, this.remoteRows());
    this.opts.recorder?.resize(cols, this.remoteRows());
    if (this.opts.passthrough) {
      // Hold output until the model has parsed all it was given, then repaint from it.
      this.repaintWhenParsed();
      return;
    }
    this.opts.write('\x1b[2J');
    this.statusLine = '';
    this.renderer.invalidate();
    this.draw();
  }

  /** The transport, for tests. */
  get transportForTests(): TerminalTransport | undefined {
    return this.transport;
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
    if (this.opts.onFrame) return this.opts.onFrame();
    const status = this.status();
    if (status !== this.statusLine) {
      this.statusLine = status;
      this.opts.write(`\x1b[?25l\x1b[1;1H\x1b[0;7m${status}\x1b[0m\x1b[K`);
    }
    const copy = this.copy;
    if (!copy) return void this.renderer.frame(this.model);
    const top = this.model.term.buffer.active.viewportY;
    this.renderer.frame(this.model, { marks: (y) => copy.marks(y, top), cursor: { x: copy.cursor.col, y: copy.cursor.line - top } });
  }

  /** The status bar's text (sanitized). */
  status(): string {
    const { title } = this.opts;
    return statusLine({ title, cols: this.cols, state: this.state, detail: this.detail, exited: this.exited, scrolledBack: this.model.scrolledBack, copy: this.copy, copyHint: this.opts.history?.hint });
  }

  dispose(): void {
    if (!this.disposed) {
      this.opts.write(OUTER_PASTE_OFF);
      this.opts.recorder?.marker('detach');
    }
    this.disposed = true;
    clearTimeout(this.frameTimer);
    this.flow.dispose();
    this.transport?.close();
    this.model.dispose();
  }
}
