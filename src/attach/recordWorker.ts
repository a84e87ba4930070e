/**
 * The recorder's worker thread (recorder.ts starts it; the bundle's file is dist/record-worker.cjs):
 * it turns the batches of events the session's thread hands it into asciicast lines (output's
 * bytes escaped as they are, castBytes.ts) and writes them to the recording, which the session's
 * thread opened. Lines are written at WRITE_BYTES, or WRITE_MS after the first; a write that
 * fails stops the recording, and the session's thread is told. It closes nothing: the session's
 * thread closes the file once this thread says it is done, or has ended.
 */
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { EVENT_END, encodeEvent, eventHead, type CastCode } from './asciicast.js';
import { ByteBuffer, JsonUtf8 } from './castBytes.js';

export interface RecordWorkerData {
  role: 'recorder';
  fd: number;
  /** Int32s shared with the session's thread: [DONE] the last batch taken, [STOPPED] 1 once a write failed. */
  shared: SharedArrayBuffer;
}
export const DONE = 0;
export const STOPPED = 1;

/** Events in order, as the session's thread received them, timed there. */
export interface RecordBatch {
  type: 'batch';
  seq: number;
  /** The output events' bytes, one after another (transferred, not copied). */
  bytes: ArrayBuffer;
  /** Each event's time (seconds since the recording began) and kind: a code, or `e`, the output's stream ending (a character cut at its end becomes U+FFFD). */
  times: number[];
  kinds: string;
  /** Each `o` event's length in `bytes`, in order. */
  lengths: number[];
  /** Each `i`, `r` and `m` event's data, in order. */
  texts: string[];
}
export type ToRecordWorker = RecordBatch | { type: 'close' };
export type FromRecordWorker = { type: 'error'; message: string; code?: string } | { type: 'closed' };

const WRITE_BYTES = 64 << 10;
const WRITE_MS = 200;

// Only as the recorder's worker: recorder.ts imports this file for its constants alone.
if (parentPort && (workerData as RecordWorkerData | undefined)?.role === 'recorder') run(parentPort, workerData as RecordWorkerData);

function run(port: NonNullable<typeof parentPort>, { fd, shared }: RecordWorkerData): void {
  const state = new Int32Array(shared);
  const out = new ByteBuffer(WRITE_BYTES * 2);
  const json = new JsonUtf8();
  let failed = false;
  let timer: NodeJS.Timeout | undefined;
  const QUOTE = '"';

  /** Output's line: its bytes as a JSON string; none while they are only the start of a character. */
  const output = (time: number, bytes: Uint8Array | null) => {
    const start = out.length;
    out.text(`${eventHead(time, 'o')}${QUOTE}`);
    const from = out.length;
    if (bytes) json.write(bytes, out);
    else json.end(out);
    if (out.length === from) out.length = start;
    else out.text(QUOTE + EVENT_END);
  };

  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!failed && out.length > 0) {
      try {
        for (let at = 0; at < out.length; ) at += writeSync(fd, out.bytes, at, out.length - at);
      } catch (e) {
        failed = true;
        Atomics.store(state, STOPPED, 1);
        Atomics.notify(state, DONE);
        const err = e as NodeJS.ErrnoException;
        port.postMessage({ type: 'error', message: err.message, code: err.code } satisfies FromRecordWorker);
      }
    }
    out.clear();
  };

  port.on('message', (m: ToRecordWorker) => {
    if (m.type === 'close') {
      write();
      port.postMessage({ type: 'closed' } satisfies FromRecordWorker);
      port.close();
      return;
    }
    if (!failed) {
      const bytes = new Uint8Array(m.bytes);
      let at = 0;
      let o = 0;
      let t = 0;
      for (let k = 0; k < m.kinds.length; k++) {
        const kind = m.kinds[k]!;
        const time = m.times[k]!;
        if (kind === 'o') {
          const length = m.lengths[o++]!;
          output(time, bytes.subarray(at, at + length));
          at += length;
        } else if (kind === 'e') output(time, null);
        else out.text(encodeEvent(time, kind as CastCode, m.texts[t++]!));
      }
      if (out.length >= WRITE_BYTES) write();
      else timer ??= setTimeout(write, WRITE_MS);
    }
    Atomics.store(state, DONE, m.seq);
    Atomics.notify(state, DONE);
  });
}
