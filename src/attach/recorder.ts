/**
 * The recorder: writes an attach session to an asciicast v2 file (asciicast.ts) as it happens,
 * without holding up the session. The session's thread does the least it can: output is cut to
 * what is new (by offset), timed as it is received, and copied into a batch; a batch goes to a
 * worker thread (recordWorker.ts) once it holds BATCH_BYTES of output, or FLUSH_MS after its
 * first event, its bytes transferred, not copied. The worker escapes the bytes (castBytes.ts) and
 * writes the file. Before, the session's thread decoded, escaped and encoded every byte again, and
 * a flood through `attach NAME --record` ran at ×0.75 of its rate without (bench/README.md).
 *
 * Output is recorded as it comes from the transport, before the model skims anything: every byte
 * of the daemon's stream once, by offset (a resume that sends again what was recorded adds
 * nothing; one that skips ahead, a marker). asciicast stores strings: the bytes are read as UTF-8
 * as a streaming TextDecoder would, so a character split across two messages is kept whole and a
 * byte that is not part of valid UTF-8 becomes U+FFFD (as asciinema's own recorder does).
 *
 * Memory stays bounded and nothing is dropped: past MAX_QUEUED handed over and not yet taken (a
 * disk or a worker that fell behind), the session's thread waits for the worker, as a synchronous
 * write would. A write that fails stops the recording (`error`).
 */
import { closeSync, existsSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { encodeHeader, sizeOf, type CastCode } from './asciicast.js';
import { DONE, STOPPED, type FromRecordWorker, type RecordBatch, type RecordWorkerData, type ToRecordWorker } from './recordWorker.js';
import { trackClose } from './closing.js';

/** The terminal type the output was written for: the daemon runs its programs as this, and the model is an xterm. */
export const RECORDED_TERM = 'xterm-256color';
/** A batch goes to the worker at this much output, or FLUSH_MS after its first event. */
const BATCH_BYTES = 64 << 10;
const FLUSH_MS = 50;
/** Past this much output handed to the worker and not taken yet, the session's thread waits for it, down to half. */
const MAX_QUEUED = 8 << 20;
/** A worker that takes nothing for this long while the session waits has stopped: the recording stops. */
const STALL_MS = 10_000;

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
  private readonly worker: Worker;
  /** Shared with the worker: the last batch it took, and whether it stopped (recordWorker.ts). */
  private readonly shared: Int32Array;
  private readonly started: number;
  private readonly now: () => number;
  private readonly withInput: boolean;
  /** The batch being gathered: output's bytes, and each event's time, kind, length (output) or text. */
  private bytes: Uint8Array | null = null;
  private used = 0;
  private times: number[] = [];
  private kinds = '';
  private lengths: number[] = [];
  private texts: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  /** Batches handed over and not known to be taken, and their bytes of output. */
  private readonly queued: { seq: number; bytes: number }[] = [];
  private queuedBytes = 0;
  private closed = false;
  private done: Promise<void> | undefined;
  private exited = false;
  /** The stream offset just past the last output byte recorded; null before the first. */
  private end: number | null = null;
  /** A write failed, or the worker did: said once (by `error`), and recording stops. */
  error: Error | undefined;
  /** Times the session's thread waited for the worker to catch up (for the bench and tests). */
  waits = 0;

  /** Creates the file (0600, refusing one that exists), writes the header and starts the worker. Throws what open throws. */
  constructor(opts: RecorderOptions) {
    this.path = opts.path;
    this.now = opts.now ?? (() => performance.now());
    this.started = this.now();
    this.withInput = opts.input === true;
    this.fd = openSync(opts.path, 'wx', 0o600);
    try {
      fchmodSync(this.fd, 0o600);
      const header = { version: 2 as const, width: opts.cols, height: opts.rows, timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000), title: opts.title, env: { TERM: RECORDED_TERM } };
      writeSync(this.fd, encodeHeader(header));
      this.shared = new Int32Array(new SharedArrayBuffer(8));
      this.worker = startWorker({ role: 'recorder', fd: this.fd, shared: this.shared.buffer as SharedArrayBuffer });
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
    this.worker.on('message', (m: FromRecordWorker) => {
      if (m.type === 'error') this.error ??= Object.assign(new Error(m.message), { code: m.code });
    });
    this.worker.on('error', (e) => {
      this.error ??= e;
    });
    this.worker.once('exit', () => (this.exited = true));
  }

  /** The daemon's output at `offset`: recorded once, whatever a resume sends again. */
  output(data: Uint8Array, offset: number): void {
    if (this.closed || this.error) return;
    let bytes = data;
    if (this.end !== null && offset < this.end) {
      const skip = this.end - offset;
      if (skip >= bytes.length) return;
      bytes = bytes.subarray(skip);
      offset = this.end;
    } else if (this.end !== null && offset > this.end) this.marker(`gap: ${offset - this.end} bytes not recorded`);
    this.end = offset + bytes.length;
    if (bytes.length === 0) return;
    if (this.bytes && this.used + bytes.length > this.bytes.length) this.flush();
    this.bytes ??= new Uint8Array(Math.max(BATCH_BYTES, bytes.length));
    this.bytes.set(bytes, this.used);
    this.used += bytes.length;
    this.lengths.push(bytes.length);
    this.event('o');
    if (this.used >= BATCH_BYTES) this.flush();
  }

  /** The terminal was started again: its offsets start over at `start`. */
  restarted(start: number): void {
    if (this.closed) return;
    this.event('e');
    this.end = start;
    this.marker('restarted');
  }

  /** Typed input, recorded only when asked for (it can hold passwords). */
  input(data: string): void {
    if (this.withInput) this.text('i', data);
  }

  resize(cols: number, rows: number): void {
    this.text('r', sizeOf(cols, rows));
  }

  marker(label: string): void {
    this.text('m', label);
  }

  /** Hands the worker what is gathered, and closes the file once it is all written. */
  close(): Promise<void> {
    if (this.done) return this.done;
    // Whatever bytes a character cut at the end was waiting for will not come: written as U+FFFD.
    this.event('e');
    this.closed = true;
    this.flush();
    this.worker.postMessage({ type: 'close' } satisfies ToRecordWorker);
    const done = new Promise<void>((resolve) => {
      const finish = () => {
        if (this.fd !== -1) closeSync(this.fd);
        this.fd = -1;
        resolve();
      };
      // 'closed' comes after any error the worker had to say; 'exit' alone, if it failed.
      if (this.exited) return finish();
      this.worker.on('message', (m: FromRecordWorker) => m.type === 'closed' && finish());
      this.worker.once('exit', finish);
    });
    this.done = done;
    // The TUI waits for it before the process ends (closing.ts).
    trackClose(done);
    return done;
  }

  private text(code: Exclude<CastCode, 'o'>, data: string): void {
    if (this.closed || this.error) return;
    this.texts.push(data);
    this.event(code);
  }

  /** An event of the batch, timed now (the recording's timing is the session's, not the worker's). */
  private event(kind: string): void {
    this.times.push((this.now() - this.started) / 1000);
    this.kinds += kind;
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Hands the batch to the worker: its bytes transferred when it is mostly full, else copied and the buffer kept. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.kinds.length === 0 || this.error) return;
    let data: ArrayBuffer;
    if (this.bytes && this.used * 2 >= this.bytes.length) {
      data = this.bytes.buffer as ArrayBuffer;
      this.bytes = null;
    } else data = this.bytes ? (this.bytes.slice(0, this.used).buffer as ArrayBuffer) : new ArrayBuffer(0);
    const batch: RecordBatch = { type: 'batch', seq: ++this.seq, bytes: data, times: this.times, kinds: this.kinds, lengths: this.lengths, texts: this.texts };
    this.worker.postMessage(batch satisfies ToRecordWorker, [data]);
    this.queued.push({ seq: this.seq, bytes: this.used });
    this.queuedBytes += this.used;
    this.used = 0;
    this.times = [];
    this.kinds = '';
    this.lengths = [];
    this.texts = [];
    this.keepUp();
  }

  /** Past MAX_QUEUED handed over and not taken, waits for the worker to take half of it (or to stop). */
  private keepUp(): void {
    this.forgetTaken();
    if (this.queuedBytes <= MAX_QUEUED) return;
    this.waits++;
    while (this.queuedBytes > MAX_QUEUED / 2 && Atomics.load(this.shared, STOPPED) === 0) {
      if (Atomics.wait(this.shared, DONE, Atomics.load(this.shared, DONE), STALL_MS) === 'timed-out') {
        this.error ??= new Error(`the recording's writer took nothing for ${STALL_MS / 1000} seconds`);
        return;
      }
      this.forgetTaken();
    }
  }

  private forgetTaken(): void {
    const taken = Atomics.load(this.shared, DONE);
    while (this.queued.length > 0 && this.queued[0]!.seq <= taken) this.queuedBytes -= this.queued.shift()!.bytes;
  }
}

/**
 * The worker: in the bundle dist/record-worker.cjs (beside this code in dist/tui.cjs, or one folder
 * up from dist/chunks/); from source (the tests), recordWorker.ts through tsx's loader.
 */
function startWorker(data: RecordWorkerData): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const file = new URL('./recordWorker.ts', here).href;
    return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`, { eval: true, workerData: data });
  }
  const beside = new URL('./record-worker.cjs', here);
  return new Worker(existsSync(fileURLToPath(beside)) ? beside : new URL('../record-worker.cjs', here), { workerData: data });
}
