/**
 * The `intern-terminal.v1` wire protocol (docs/attach-protocol.md): binary
 * WebSocket frames whose first byte is the channel.
 *
 *   0x00 INPUT   client → daemon   terminal input bytes
 *   0x01 OUTPUT  daemon → client   8-byte big-endian offset of the first byte, then output bytes
 *   0x02 CONTROL both ways         UTF-8 JSON control message
 *
 * Output offsets count bytes of the terminal's output stream since the daemon
 * started it; they are the sequence numbers that make resume exact.
 */
export const SUBPROTOCOL = 'intern-terminal.v1';
export const TERMINAL_PATH = '/terminal';

export const CHANNEL = { input: 0x00, output: 0x01, control: 0x02 } as const;

export type ClientControl =
  /** First message: where to resume (null: from the start of what the daemon still holds), and the size. */
  | { type: 'hello'; resume_from: number | null; cols: number; rows: number }
  | { type: 'resize'; cols: number; rows: number }
  /** Everything before `offset` has been consumed; the daemon may send more. */
  | { type: 'ack'; offset: number };

export type DaemonControl =
  /**
   * Answer to hello: replay starts at `start`; `missed` bytes were lost when the gap outgrew the
   * replay buffer; output before `live` (optional) was written before this hello: a replay, whose
   * terminal queries are not to be answered again.
   */
  | { type: 'welcome'; start: number; missed: number; live?: number }
  | { type: 'exit'; code: number | null; signal: number | null; reason?: string }
  | { type: 'error'; message: string };

export type Frame =
  | { channel: 'input'; data: Uint8Array }
  | { channel: 'output'; offset: number; data: Uint8Array }
  | { channel: 'control'; message: ClientControl | DaemonControl };

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

export function encodeInput(data: Uint8Array | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const out = Buffer.allocUnsafe(1 + bytes.length);
  out[0] = CHANNEL.input;
  out.set(bytes, 1);
  return out;
}

/** An output frame: `data` (or its parts, in order, copied once into the frame) from `offset` on. */
export function encodeOutput(offset: number, data: Uint8Array | readonly Uint8Array[]): Buffer {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ProtocolError(`bad output offset ${offset}`);
  const parts = data instanceof Uint8Array ? [data] : data;
  let length = 0;
  for (const p of parts) length += p.length;
  const out = Buffer.allocUnsafe(9 + length);
  out[0] = CHANNEL.output;
  out.writeUInt32BE(Math.floor(offset / 2 ** 32), 1);
  out.writeUInt32BE(offset >>> 0, 5);
  let at = 9;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function encodeControl(message: ClientControl | DaemonControl): Buffer {
  const json = Buffer.from(JSON.stringify(message), 'utf8');
  const out = Buffer.allocUnsafe(1 + json.length);
  out[0] = CHANNEL.control;
  out.set(json, 1);
  return out;
}

const isSize = (n: unknown, max = 1000): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;
const isOffset = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** Decodes one frame; throws ProtocolError on anything malformed. */
export function decodeFrame(frame: Uint8Array): Frame {
  if (frame.length === 0) throw new ProtocolError('empty frame');
  const buf = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  switch (buf[0]) {
    case CHANNEL.input:
      return { channel: 'input', data: buf.subarray(1) };
    case CHANNEL.output: {
      if (buf.length < 9) throw new ProtocolError('output frame shorter than its offset');
      const offset = buf.readBigUInt64BE(1);
      if (offset > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtocolError('output offset out of range');
      return { channel: 'output', offset: Number(offset), data: buf.subarray(9) };
    }
    case CHANNEL.control:
      return { channel: 'control', message: decodeControl(buf.subarray(1)) };
    default:
      throw new ProtocolError(`unknown channel ${buf[0]}`);
  }
}

function decodeControl(bytes: Buffer): ClientControl | DaemonControl {
  let m: unknown;
  try {
    m = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ProtocolError('control message is not UTF-8 JSON');
  }
  if (typeof m !== 'object' || m === null) throw new ProtocolError('control message is not an object');
  const r = m as Record<string, unknown>;
  switch (r.type) {
    case 'hello':
      if ((r.resume_from === null || isOffset(r.resume_from)) && isSize(r.cols) && isSize(r.rows)) {
        return { type: 'hello', resume_from: r.resume_from as number | null, cols: r.cols, rows: r.rows };
      }
      break;
    case 'resize':
      if (isSize(r.cols) && isSize(r.rows)) return { type: 'resize', cols: r.cols, rows: r.rows };
      break;
    case 'ack':
      if (isOffset(r.offset)) return { type: 'ack', offset: r.offset };
      break;
    case 'welcome':
      if (isOffset(r.start) && isOffset(r.missed) && (r.live === undefined || isOffset(r.live))) {
        return { type: 'welcome', start: r.start, missed: r.missed, ...(r.live === undefined ? {} : { live: r.live as number }) };
      }
      break;
    case 'exit': {
      const okNum = (v: unknown) => v === null || Number.isInteger(v);
      if (okNum(r.code) && okNum(r.signal) && (r.reason === undefined || typeof r.reason === 'string')) {
        const exit: DaemonControl = { type: 'exit', code: r.code as number | null, signal: r.signal as number | null };
        if (typeof r.reason === 'string') exit.reason = r.reason;
        return exit;
      }
      break;
    }
    case 'error':
      if (typeof r.message === 'string') return { type: 'error', message: r.message };
      break;
  }
  throw new ProtocolError(`malformed control message${typeof r.type === 'string' ? ` of type ${r.type.slice(0, 20)}` : ''}`);
}

/** Tunables both sides agree on; documented in docs/attach-protocol.md. */
export const FLOW = {
  /** The daemon stops reading the pty when this much output is unacknowledged. */
  windowBytes: 1 << 20,
  /** The client acknowledges at least this often. */
  ackEveryBytes: 256 << 10,
  /** Replay ring buffer kept by the daemon. */
  replayBytes: 2 << 20,
  pingIntervalMs: 10_000,
  deadPeerMs: 25_000,
} as const;

/**
 * A daemon token opens connections for this long after it was issued (a connection already
 * open stays open); after that the daemon answers 401 and the client asks for fresh access.
 */
export const DAEMON_TOKEN_TTL_MS = 10 * 60_000;
