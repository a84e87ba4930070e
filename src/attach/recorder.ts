/**
 * The recorder: writes an attach session to an asciicast v2 file (asciicast.ts)
 * as it happens. No React. It never holds up the output path: events are
 * encoded into a buffer and written to disk asynchronously, a batch at a time;
 * if the disk falls behind and the buffer reaches its bound, the batch is
 * written synchronously instead (memory stays bounded, the session and its
 * flow control are never held, nothing is dropped).
 *
 * Output is recorded as it comes from the transport, before the model skims
 * anything: every byte of the daemon's stream once, by offset (a resume that
 * sends again what was recorded adds nothing; one that skips ahead, a marker).
 * asciicast stores strings: the bytes are decoded as UTF-8 by a streaming
 * decoder, so a character split across two messages is kept whole; a byte
 * that is not part of valid UTF-8 becomes U+FFFD (as asciinema's own recorder
 * does).
 */
import { closeSync, fchmodSync, openSync, write, writeSync } from 'node:fs';
import { encodeEvent, encodeHeader, sizeOf, type CastCode } from './asciicast.js';

/** The terminal type the output was written for: the daemon runs its programs as this, and the model is an xterm. */
export const RECORDED_TERM = 'xterm-256color';
/** Encoded events are written once this much is buffered, or FLUSH_MS after the first. */
const FLUSH_BYTES = 64 << 10;
const FLUSH_MS = 200;
/** Past this much buffered while a write is still under way, the next batch is written at once, synchronously. */
const MAX_BUFFERED = 4 << 20;

export interface RecorderOptions {
  path: string;
  cols: number;
  rows: number;
  /** Already sanitised (an intern's name). */
  title: string;
  /** Record typed input too (`i` events): it can hold passwords. */
  input?: boolean;
  /** Milliseconds; tests set it. */
  now?: () => number;
  /** Unix time in seconds for the header; tests set it. */
  timestamp?: number;
}

export class Recorder {
  readonly path: string;
  private fd: number;
  private readonly started: number;
  private readonly now: () => number;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly withInput: boolean;
  /** Encoded lines not yet written, their length in UTF-16 units (a bound, not exact bytes). */
  private buffer: string[] = [];
  private buffered = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Where the next batch goes in the file; writes in flight (each to its own position). */
  private position = 0;
  private inFlight = 0;
  private closed = false;
  private readonly drained: (() => void)[] = [];
  /** The stream offset just past the last output byte recorded; null before the first. */
  private end: number | null = null;
  /** A write failed: said once (by `error`), and recording stops. */
  error: Error | undefined;
  /** Batches written synchronously because the disk fell behind (for the bench and tests). */
  syncWrites = 0;

  /** Creates the file (0600, refusing one that exists) and writes the header. Throws what open throws. */
  constructor(opts: RecorderOptions) {
    this.path = opts.path;
    this.now = opts.now ?? (() => performance.now());
    this.started = this.now();
    this.withInput = opts.input === true;
    this.fd = openSync(opts.path, 'wx', 0o600);
    fchmodSync(this.fd, 0o600);
    this.push(
      encodeHeader({
        version: 2,
        width: opts.cols,
        height: opts.rows,
        timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
        title: opts.title,
        env: { TERM: RECORDED_TERM },
      }),
    );
  }

  /** The daemon's output at `offset`: recorded once, whatever a resume sends again. */
  output(data: Uint8Array, offset: number): void {
    if (this.closed) return;
    let bytes = data;
    if (this.end !== null && offset < this.end) {
      const skip = this.end - offset;
      if (skip >= bytes.length) return;
      bytes = bytes.subarray(skip);
      offset = this.end;
    } else if (this.end !== null && offset > this.end) this.marker(`gap: ${offset - this.end} bytes not recorded`);
    this.end = offset + bytes.length;
    const text = this.decoder.decode(bytes, { stream: true });
    if (text) this.event('o', text);
  }

  /** The terminal was started again: its offsets start over at `start`. */
  restarted(start: number): void {
    this.flushDecoder();
    this.end = start;
    this.marker('restarted');
  }

  /** Typed input, recorded only when asked for (it can hold passwords). */
  input(data: string): void {
    if (this.withInput && !this.closed) this.event('i', data);
  }

  resize(cols: number, rows: number): void {
    if (!this.closed) this.event('r', sizeOf(cols, rows));
  }

  marker(label: string): void {
    if (!this.closed) this.event('m', label);
  }

  /** Writes what is buffered and closes the file; resolves once it is all on disk. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.flushDecoder();
    this.closed = true;
    this.flush();
    return new Promise((resolve) => {
      const done = () => {
        if (this.fd !== -1) closeSync(this.fd);
        this.fd = -1;
        resolve();
      };
      if (this.inFlight === 0) done();
      else this.drained.push(done);
    });
  }

  /** Whatever bytes a character split at the end was waiting for will not come: they are written (as U+FFFD). */
  private flushDecoder(): void {
    const rest = this.decoder.decode();
    if (rest) this.event('o', rest);
  }

  private event(code: CastCode, data: string): void {
    this.push(encodeEvent((this.now() - this.started) / 1000, code, data));
  }

  private push(line: string): void {
    if (this.error) return;
    this.buffer.push(line);
    this.buffered += line.length;
    // One batch at a time goes to the disk; while it is under way the next one gathers, up to MAX_BUFFERED.
    if (this.buffered >= MAX_BUFFERED) this.flush();
    else if (this.buffered >= FLUSH_BYTES && this.inFlight === 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Hands what is buffered to the disk: asynchronously, or synchronously when a write is still under way and the buffer is full. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0 || this.error || this.fd === -1) return;
    const sync = this.inFlight > 0 && this.buffered >= MAX_BUFFERED;
    const data = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.buffered = 0;
    const at = this.position;
    this.position += data.length;
    if (sync) {
      this.syncWrites++;
      try {
        writeSync(this.fd, data, 0, data.length, at);
      } catch (e) {
        this.error ??= e as Error;
      }
      return;
    }
    this.inFlight++;
    this.writeAt(data, 0, at);
  }

  /** Writes `data` from `from` at file position `at`, going on after a short write. */
  private writeAt(data: Buffer, from: number, at: number): void {
    write(this.fd, data, from, data.length - from, at, (err, written) => {
      if (!err && from + written < data.length) return this.writeAt(data, from + written, at + written);
      if (err) this.error ??= err;
      this.inFlight--;
      if (this.buffered >= FLUSH_BYTES) this.flush();
      if (this.inFlight === 0) for (const done of this.drained.splice(0)) done();
    });
  }
}
