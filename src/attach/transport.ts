/**
 * The terminal transport. Screens see only `TerminalTransport`; the WebSocket
 * implementation speaks intern-terminal.v1, reconnects with backoff and resumes
 * from the last byte it has, so nothing is lost or duplicated.
 */
import WebSocket from 'ws';
import { primeAllocator } from './allocator.js';
import type { DaemonAccess } from '../contract/intern.js';
import { FLOW, SUBPROTOCOL, TERMINAL_PATH, decodeFrame, encodeControl, encodeInput, ProtocolError } from './protocol.js';

/** Input held while the first connection opens, at most. */
const EARLY_INPUT_MAX = 64 * 1024;

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface TransportHandlers {
  /** Output bytes in stream order, each byte exactly once. */
  output(data: Buffer, offset: number): void;
  state(state: ConnectionState, detail?: string): void;
  /** The daemon could not replay `missed` bytes: they outgrew its buffer. */
  gap(missed: number): void;
  /** Output before `live` is a replay of what was written before this connection (when the daemon says). */
  replayed?(live: number): void;
  /**
   * The daemon's stream is shorter than what this client has (it answered a resume with a start
   * before it): a new terminal (the service restarted it); its output follows from `start`.
   */
  restarted?(start: number): void;
  exit(info: { code: number | null; signal: number | null; reason?: string }): void;
}

export interface TerminalTransport {
  connect(): void;
  send(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** Everything before `offset` is consumed. */
  ack(offset: number): void;
  close(): void;
  readonly state: ConnectionState;
}

export interface WebSocketTransportOptions {
  /** Daemon access; `fresh` asks for a new token (the last one was refused). */
  access: (fresh: boolean) => Promise<DaemonAccess>;
  cols: number;
  rows: number;
  handlers: TransportHandlers;
  backoff?: { baseMs: number; maxMs: number };
  pingIntervalMs?: number;
  deadPeerMs?: number;
}

export class WebSocketTransport implements TerminalTransport {
  private ws: WebSocket | undefined;
  private received: number | null = null;
  private cols: number;
  private rows: number;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private lastPong = Date.now();
  private closedByUs = false;
  private exited = false;
  private needFreshAccess = false;
  state: ConnectionState = 'connecting';
  /** Input typed before the first connection opened (a user typing as the command starts). */
  private early: (string | Uint8Array)[] = [];
  private earlyBytes = 0;

  constructor(private readonly opts: WebSocketTransportOptions) {
    this.cols = opts.cols;
    this.rows = opts.rows;
  }

  connect(): void {
    primeAllocator();
    void this.open();
  }

  private setState(s: ConnectionState, detail?: string) {
    this.state = s;
    this.opts.handlers.state(s, detail);
  }

  private async open(): Promise<void> {
    if (this.closedByUs) return;
    let access: DaemonAccess;
    try {
      access = await this.opts.access(this.needFreshAccess);
      this.needFreshAccess = false;
    } catch (e) {
      return this.retry(`daemon access failed: ${(e as Error).message}`);
    }
    if (this.closedByUs) return;
    const url = new URL(TERMINAL_PATH, access.origin.replace(/^http/, 'ws'));
    // The token goes in a header, never in the URL. No permessage-deflate (ws offers it by default):
    // a service that took it would put every keystroke and its echo through zlib, which ws runs on
    // libuv's thread pool, adding two thread hops to each; terminals (ssh, tmux, mosh) send
    // keystrokes uncompressed.
    const ws = new WebSocket(url, [SUBPROTOCOL], { headers: { authorization: `Bearer ${access.token}` }, handshakeTimeout: 10_000, perMessageDeflate: false });
    this.ws = ws;
    ws.binaryType = 'nodebuffer';
    let opened = false;
    ws.on('open', () => {
      opened = true;
      this.attempt = 0;
      this.lastPong = Date.now();
      ws.send(encodeControl({ type: 'hello', resume_from: this.received, cols: this.cols, rows: this.rows }));
      this.setState('open');
      this.startPing(ws);
      // Keys typed while the first connection was being made go now, in order.
      for (const d of this.early.splice(0)) ws.send(encodeInput(d));
      this.earlyBytes = 0;
    });
    ws.on('pong', () => {
      this.lastPong = Date.now();
    });
    ws.on('unexpected-response', (_req, res) => {
      if (res.statusCode === 401) this.needFreshAccess = true;
      ws.terminate();
    });
    ws.on('message', (raw: Buffer, isBinary) => {
      if (!isBinary) return;
      try {
        this.onFrame(raw);
      } catch (e) {
        if (e instanceof ProtocolError) ws.terminate();
        else throw e;
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.stopPing();
      if (this.ws === ws) this.ws = undefined;
      if (this.closedByUs || this.exited) return this.setState('closed');
      // Not even opened: the daemon may have moved (the service restarted it elsewhere), so the
      // next attempt asks for access afresh rather than knocking at the old address for ever.
      if (!opened) this.needFreshAccess = true;
      this.retry(opened ? 'connection lost' : 'cannot connect to the daemon');
    });
  }

  private onFrame(raw: Buffer): void {
    const frame = decodeFrame(raw);
    if (frame.channel === 'output') {
      let { data, offset } = frame;
      if (this.received !== null && offset < this.received) {
        // Already have the start of it: keep only what is new.
        const skip = this.received - offset;
        if (skip >= data.length) return;
        data = data.subarray(skip);
        offset = this.received;
      }
      this.received = offset + data.length;
      // A view of the message, not a copy: a flood is a hundred or more of them a second.
      this.opts.handlers.output(Buffer.from(data.buffer, data.byteOffset, data.byteLength), offset);
      return;
    }
    if (frame.channel !== 'control') throw new ProtocolError('the daemon sent input');
    const m = frame.message;
    if (m.type === 'welcome') {
      if (m.missed > 0) this.opts.handlers.gap(m.missed);
      // A resume is answered from where the client is, or later: an earlier start is another
      // stream (its bytes would be taken for ones already had, and dropped).
      if (this.received !== null && m.start < this.received) {
        this.received = m.start;
        this.opts.handlers.restarted?.(m.start);
      }
      if (m.live !== undefined) this.opts.handlers.replayed?.(m.live);
      if (this.received === null || m.start > this.received) this.received = m.start;
    } else if (m.type === 'exit') {
      this.exited = true;
      this.opts.handlers.exit({ code: m.code, signal: m.signal, reason: m.reason });
      this.ws?.close(1000);
    } else if (m.type === 'error') {
      this.opts.handlers.state(this.state, `daemon error: ${m.message}`);
    }
  }

  private retry(detail: string): void {
    if (this.closedByUs || this.exited) return;
    const { baseMs, maxMs } = this.opts.backoff ?? { baseMs: 250, maxMs: 5000 };
    const delay = Math.min(maxMs, baseMs * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt++;
    this.setState('reconnecting', detail);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.open(), delay);
  }

  private startPing(ws: WebSocket): void {
    this.stopPing();
    const interval = this.opts.pingIntervalMs ?? FLOW.pingIntervalMs;
    const dead = this.opts.deadPeerMs ?? FLOW.deadPeerMs;
    this.pinger = setInterval(() => {
      if (Date.now() - this.lastPong > dead) return ws.terminate();
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }, interval);
    this.pinger.unref();
  }
  private stopPing(): void {
    clearInterval(this.pinger);
  }

  send(data: string | Uint8Array): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeInput(data));
    else if (this.state === 'connecting' && this.earlyBytes + data.length <= EARLY_INPUT_MAX) {
      this.early.push(data);
      this.earlyBytes += data.length;
    }
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeControl({ type: 'resize', cols, rows }));
  }

  ack(offset: number): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeControl({ type: 'ack', offset }));
  }

  /** The socket, for tests that cut the connection. */
  get socket(): WebSocket | undefined {
    return this.ws;
  }

  close(): void {
    this.closedByUs = true;
    clearTimeout(this.timer);
    this.stopPing();
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.removeAllListeners('close');
      ws.on('close', () => undefined);
      ws.terminate();
    }
    this.setState('closed');
  }
}
