/**
 * Flow control: the remote's output on its way into the model. Past the first
 * bytes of a stream (a flood, not a command's output), output is held and
 * handed over once the model is idle, so it can be skimmed across the messages
 * it came in (TerminalModel.hold); what is parsed, or held within bounds, is
 * acknowledged to the daemon (docs/attach-protocol.md, Flow control). It also
 * knows which offsets the model is parsing, so the session can tell output
 * that replays the past (the daemon's `live`) from output new now.
 */
import { collectYoung } from './collect.js';
import { FLOW } from './protocol.js';
import type { TerminalModel } from './terminal.js';

/** Output this soon after a key counts as its echo: never held, and drawn at once. */
export const ECHO_WINDOW_MS = 100;
/**
 * Output this soon after the last output streams, and once a stream is this long (a flood, not a
 * command's output), the rest of it is held: set aside and handed to the model (and so to the
 * terminal) once the model is idle and HOLD_MS after the first byte held, so that the model can
 * skim it across the messages it came in (see TerminalModel.hold). Held output is acknowledged
 * at once up to HOLD_MAX_BYTES, so the daemon's window does not stall the flood while it is held.
 */
const STREAM_GAP_MS = 10;
/**
 * Once output is held, only a longer pause ends the stream: a 2-core machine under a flood delays
 * messages by more than STREAM_GAP_MS, and each new stream's first STREAM_HOLD_BYTES are parsed.
 */
const FLOOD_GAP_MS = 50;
/**
 * A stream's first bytes go to the screen as they come (a command's output). Past these it is a
 * flood. In the TUI, whose lazy history keeps every line held, from 64 KiB: parsing 256 KiB of
 * each flood cost it 12-18% of its CPU in a cold flood, mostly compiling the parser's code while
 * it ran slow, and held output goes as soon as output pauses (QUIET_MS). In passthrough the lines
 * a flood skims never reach the user's terminal (nor the scrollback of one that keeps the
 * alternate screen's lines): there a command's output up to 256 KiB (some 3,000 lines) goes
 * through whole, as before.
 */
export const STREAM_HOLD_BYTES = 64 << 10;
export const PASSTHROUGH_HOLD_BYTES = 256 << 10;
const HOLD_MS = 50;
/**
 * Held output also goes once output has paused this long: the end of a flood reaches the screen
 * within a few milliseconds of its last byte, not up to HOLD_MS later. A pause in the middle of a
 * flood (a busy machine) costs one release more, and holding goes on with the next message.
 */
const QUIET_MS = 4;
const HOLD_MAX_BYTES = 4 << 20;

export interface OutputFlowOptions {
  /** How much of a stream goes to the model as it comes before the rest is held (Infinity: never held). */
  holdFrom: number;
  /** Everything before `offset` is consumed (the transport's ack). */
  ack: (offset: number) => void;
  /** When the last key went out (its echo is never held). */
  keyAt: () => number;
  /** After each parse: `mayBeEcho` is false for held output released. */
  parsed: (mayBeEcho: boolean) => void;
}

export class OutputFlow {
  private ackTimer: NodeJS.Timeout | undefined;
  private consumed = 0;
  private acked = 0;
  /** Model writes not parsed yet. */
  pending = 0;
  /** When output last arrived, and how much has streamed since output last paused. */
  private lastOutputAt = -Infinity;
  private streamed = 0;
  /** When the first byte held now arrived, where it starts, and the offset past the last. */
  private heldSince = 0;
  private heldStart = 0;
  private heldEnd = 0;
  private holdTimer: NodeJS.Timeout | undefined;
  /** Holding is off until output pauses: held output had something other than plain lines in it, and nothing could be skimmed. */
  private holdOff = false;
  /** Output before this offset is a replay (the daemon's `live`): its queries were answered when they were new. */
  replayEnd = 0;
  /** The first offsets of the output handed to the model and not yet parsed, in order. */
  private readonly parsing: number[] = [];

  constructor(
    private readonly model: TerminalModel,
    private readonly opts: OutputFlowOptions,
  ) {}

  /** Whether the output the model is parsing now is part of the replay an attach begins with. */
  get replaying(): boolean {
    return (this.parsing[0] ?? Infinity) < this.replayEnd;
  }

  /**
   * Remote output: into the model now, or past the first `holdFrom` bytes of a stream and unless
   * a key was just typed, held to be skimmed (see HOLD_MS). Output that arrives while the model is
   * still parsing streams by definition: it could not be shown sooner. The TUI holds only with the
   * model's lazy history (terminal.ts): without it, each release parsed its 10,000 lines of
   * scrollback again, and holding raised its peak memory by 15 to 40 MB (docs/architecture.md).
   */
  output(data: Buffer, offset: number): void {
    const now = performance.now();
    const gap = this.streamed > this.opts.holdFrom && !this.holdOff ? FLOOD_GAP_MS : STREAM_GAP_MS;
    if (now - this.lastOutputAt >= gap && this.pending === 0) {
      this.streamed = 0;
      this.holdOff = false;
    }
    this.lastOutputAt = now;
    this.streamed += data.length;
    const end = offset + data.length;
    if (this.streamed > this.opts.holdFrom && !this.holdOff && now - this.opts.keyAt() >= ECHO_WINDOW_MS) {
      if (this.model.heldBytes === 0) {
        this.heldSince = now;
        this.heldStart = offset;
      }
      this.model.hold(data);
      this.heldEnd = end;
      if (this.model.heldBytes <= HOLD_MAX_BYTES) this.consumed = Math.max(this.consumed, end);
      this.maybeAck();
      this.releaseWhenDue();
      return;
    }
    this.release();
    this.pending++;
    this.parsing.push(offset);
    this.model.write(data, () => {
      this.parsing.shift();
      this.pending--;
      this.consumed = Math.max(this.consumed, end);
      this.maybeAck();
      this.afterParse(true);
    });
  }

  /** Offsets start over with a new stream (the terminal was started again): what is consumed and acknowledged too. */
  restarted(start: number): void {
    this.consumed = start;
    this.acked = start;
  }

  /**
   * Releases held output once the model is idle, and HOLD_MS after the first byte held or QUIET_MS
   * after the last, whichever comes first (a parse's end calls again). One timer, moved on when it
   * finds that output came after it was set: not one a message.
   */
  private releaseWhenDue(): void {
    if (this.model.heldBytes === 0 || this.pending > 0) return;
    const wait = Math.min(this.heldSince + HOLD_MS, this.lastOutputAt + QUIET_MS) - performance.now();
    if (wait <= 0 || this.model.heldBytes >= HOLD_MAX_BYTES) return this.release();
    this.holdTimer ??= setTimeout(() => {
      this.holdTimer = undefined;
      this.releaseWhenDue();
    }, wait);
  }

  /** Hands held output to the model now. Held output that could not be skimmed whatever its length turns holding off until output pauses. */
  release(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    const end = this.heldEnd;
    this.parsing.push(this.heldStart);
    const released = this.model.release(({ skipped, plain }) => {
      this.parsing.shift();
      this.pending--;
      this.consumed = Math.max(this.consumed, end);
      this.maybeAck();
      if (skipped === 0 && !plain) this.holdOff = true;
      // The flood's dead buffers, given back now rather than when V8 gets round to it (collect.ts).
      collectYoung();
      this.afterParse(false);
    });
    if (released) this.pending++;
    else this.parsing.pop();
  }

  private afterParse(mayBeEcho: boolean): void {
    if (this.pending === 0) this.releaseWhenDue();
    this.opts.parsed(mayBeEcho);
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
      this.opts.ack(this.consumed);
    }
  }

  dispose(): void {
    clearTimeout(this.ackTimer);
    clearTimeout(this.holdTimer);
  }
}
