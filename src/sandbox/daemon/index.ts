/**
 * The sandbox's daemon terminals: one loopback endpoint per running intern,
 * a WebSocket at `/terminal` speaking intern-terminal.v1, backed by a real
 * pseudo-terminal that outlives connections so clients can resume.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeDirs } from '../../files.js';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { IPty, spawn as ptySpawn } from '@lydell/node-pty';
import type { WebSocket, WebSocketServer } from 'ws';
import {
  DAEMON_TOKEN_TTL_MS,
  FLOW,
  ProtocolError,
  SUBPROTOCOL,
  TERMINAL_PATH,
  decodeFrame,
  encodeControl,
  encodeOutput,
} from '../../attach/protocol.js';
import { type Confinement, hiddenPaths, probeConfinement, terminalArgv, terminalEnv } from './confine.js';
import { drainPty, ptyFd } from './drain.js';
import { ReplayBuffer } from './replay.js';
import { DaemonTokens } from './tokens.js';
import type { DaemonHub, DaemonHubOptions } from './types.js';
import { importExternal } from '../../importExternal.js';

export type { DaemonHub, DaemonHubOptions, DaemonState } from './types.js';

interface Client {
  ws: WebSocket;
  /** Offset up to which this client has been sent output. */
  sent: number;
  acked: number;
  alive: boolean;
  /** The program's exit has been sent to this client. */
  toldExit: boolean;
}

type ExitInfo = { code: number | null; signal: number | null };

/** What the terminals need from node-pty and ws. */
interface TerminalModules {
  spawn: typeof ptySpawn;
  WebSocketServer: typeof WebSocketServer;
}
let modules: Promise<TerminalModules> | undefined;
/** How long a terminal's program has to end after SIGHUP before SIGKILL (and again before giving up). */
const KILL_GRACE_MS = 2000;
/**
 * node-pty and ws (with the zlib, tls and https it loads), loaded with the first endpoint: the
 * sandbox's start (the embedded one's, which the TUI's first list waits for) opens no terminal.
 */
function terminalModules(): Promise<TerminalModules> {
  return (modules ??= Promise.all([importExternal<{ default: { spawn: typeof ptySpawn } }>('@lydell/node-pty'), importExternal<{ WebSocketServer: typeof WebSocketServer }>('ws')]).then(([pty, ws]) => ({
    spawn: pty.default.spawn,
    WebSocketServer: ws.WebSocketServer,
  })));
}

/**
 * While output streams, it goes to the clients at most this often: the pseudo-terminal is read
 * about 4 KiB at a time, and a WebSocket message per read cost a send, a wake-up and a parse on
 * each side (a flood ran as 12,000 messages per 50 MB). Output after a quiet spell (an echo, a
 * prompt) goes at once; so does a gathering that reached `SEND_GATHER_BYTES`, which is also the
 * most a message carries (a replay, or output a window held back, goes in several). Since the
 * TUI holds and skims a flood, what it costs is per message: 64 KiB messages took 8-12% less CPU
 * on each side than 16 KiB ones at the same peak memory (128 KiB, no less again; bench/README.md).
 */
const SEND_GATHER_MS = 2;
const SEND_GATHER_BYTES = 64 << 10;

/**
 * One intern's pseudo-terminal and its clients. Flow control, end to end: output
 * that no client has acknowledged is never dropped. The daemon stops reading the
 * pseudo-terminal (the program then blocks on its writes, as over ssh) when the
 * slowest connected client lags a window behind, or, with nobody connected, when
 * the replay buffer is full of output nobody has acknowledged yet.
 */
class Terminal {
  private proc: IPty | undefined;
  readonly replay: ReplayBuffer;
  readonly clients = new Set<Client>();
  /** Readers of the output beside the clients (the local agent running a command); they never hold it back. */
  readonly taps = new Set<(data: Buffer) => void>();
  paused = false;
  /** Offset up to which some client has acknowledged (consumed) the output. */
  private consumed = 0;
  /** The program ended; sent to each client once it has been sent every byte before it. */
  private exited: ExitInfo | undefined;
  private cols = 80;
  private rows = 24;
  /** Output read but not yet offered to the clients (see SEND_GATHER_MS), and when it last was. */
  private gathered = 0;
  private lastSend = Number.NEGATIVE_INFINITY;
  private sendTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly spawn: TerminalModules['spawn'],
    private readonly cwd: string,
    private readonly command: string | undefined,
    replayBytes: number,
    /** How the program runs (confine.ts), and the paths it must not see, read at each start. */
    private readonly confinement: Confinement,
    private readonly privatePaths: () => readonly string[],
  ) {
    this.replay = new ReplayBuffer(replayBytes);
    this.replay.keepFrom = 0;
  }

  get running(): boolean {
    return this.proc !== undefined;
  }

  /** Whether a client resuming from `from` is owed what is left of a program that has ended. */
  endedFor(from: number | null): boolean {
    return this.exited !== undefined && from !== null;
  }

  ensureRunning(): void {
    if (this.proc) return;
    this.exited = undefined;
    const shell = process.env.SHELL || '/bin/bash';
    const [file, args] = this.command ? ['/bin/sh', ['-c', this.command]] : [shell, [] as string[]];
    // Bytes, not text (`encoding: null`): the output goes out as the program wrote it, without
    // decoding every read to a string and back (a quarter of the daemon's time in a flood) and
    // without turning bytes that are not UTF-8 into U+FFFD (confine.ts's STTY_EXEC sets IUTF8).
    // The program runs confined where the machine allows it (confine.ts), without the sandbox's
    // secrets in its environment.
    const argv = terminalArgv(this.confinement, { file, args }, hiddenPaths(this.privatePaths(), this.cwd));
    const proc = this.spawn(argv.file, argv.args, {
      name: 'xterm-256color',
      cols: this.cols,
      rows: this.rows,
      cwd: this.cwd,
      env: terminalEnv(),
      encoding: null,
    });
    this.proc = proc;
    this.paused = false;
    // With `encoding: null`, node-pty hands over Buffers (its types say string). After each chunk,
    // what the pty has ready now is read at once (drain.ts), unless that chunk paused it.
    const fd = ptyFd(proc);
    const more = (chunk: Buffer) => {
      this.output(chunk);
      return !this.paused && this.proc === proc;
    };
    proc.onData((d: string | Buffer) => {
      if (more(typeof d === 'string' ? Buffer.from(d, 'utf8') : d) && fd !== undefined) drainPty(fd, more);
    });
    proc.onExit(({ exitCode, signal }) => {
      if (this.proc !== proc) return;
      this.proc = undefined;
      this.paused = false;
      // node-pty reports signal 0 for a program that exited by itself: that is no signal.
      this.exited = { code: exitCode, signal: signal ? signal : null };
      // Each client hears of the exit after the last byte of output it is owed.
      this.send();
    });
  }

  private output(data: Buffer): void {
    this.replay.keepFrom = this.owedFrom();
    this.replay.append(data);
    for (const tap of this.taps) tap(data);
    this.gathered += data.length;
    const quiet = performance.now() - this.lastSend;
    if (this.gathered >= SEND_GATHER_BYTES || (quiet >= SEND_GATHER_MS && !this.sendTimer)) this.send();
    else this.sendTimer ??= setTimeout(() => this.send(), Math.max(0, SEND_GATHER_MS - quiet));
    this.flow();
  }

  /** Offers every client what it has not been sent yet. */
  private send(): void {
    clearTimeout(this.sendTimer);
    this.sendTimer = undefined;
    this.gathered = 0;
    this.lastSend = performance.now();
    for (const c of this.clients) this.pump(c);
  }

  /** The oldest offset still owed: what the slowest connected client has not acknowledged, else what nobody has. */
  private owedFrom(): number {
    let from = this.consumed;
    for (const c of this.clients) from = Math.min(from, c.acked);
    return from;
  }

  /**
   * The local agent has read the output so far (a `run:` command's): it no longer holds the program
   * back. Without this, output nobody attached to acknowledges fills the replay buffer and the
   * daemon stops reading the terminal for good, stalling every later command.
   */
  markRead(): void {
    this.consumed = Math.max(this.consumed, this.replay.end);
    this.replay.keepFrom = this.owedFrom();
    this.replay.trim();
    this.flow();
  }

  /** A client acknowledged everything before `offset`. */
  ack(c: Client, offset: number): void {
    c.acked = Math.max(c.acked, Math.min(offset, c.sent));
    this.consumed = Math.max(this.consumed, c.acked);
    this.replay.keepFrom = this.owedFrom();
    this.replay.trim();
    // What the window held back goes now, unless a gathering is about to send it anyway.
    if (!this.sendTimer) this.pump(c);
    this.flow();
  }

  /** Sends a client what it has not been sent yet, within its window; then the exit, once it has everything. */
  pump(c: Client): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    for (let room = FLOW.windowBytes - (c.sent - c.acked); room > 0 && c.sent < this.replay.end; room = FLOW.windowBytes - (c.sent - c.acked)) {
      const { start, parts, bytes } = this.replay.slice(c.sent, Math.min(room, SEND_GATHER_BYTES));
      c.sent = start; // only a client that joined behind the oldest byte kept skips ahead
      if (bytes === 0) break;
      c.ws.send(encodeOutput(c.sent, parts));
      c.sent += bytes;
    }
    if (this.exited && !c.toldExit && c.sent >= this.replay.end) {
      c.toldExit = true;
      c.ws.send(encodeControl({ type: 'exit', ...this.exited }));
      // Nothing more will come: closed as the protocol says (a client that comes back is told again).
      c.ws.close(1000, 'program exited');
    }
  }

  /**
   * Stops reading the pty while the slowest connected client lags more than the window (resumes
   * at half of it), or, with no client connected, while the replay buffer is full of output no
   * client has acknowledged (resumes once a client has caught up to half of it).
   */
  flow(): void {
    if (!this.proc) return;
    this.replay.keepFrom = this.owedFrom();
    let lag = 0;
    let limit: number;
    if (this.clients.size > 0) {
      for (const c of this.clients) lag = Math.max(lag, this.replay.end - c.acked);
      limit = FLOW.windowBytes;
    } else {
      lag = this.replay.owed;
      limit = this.replay.capacity;
    }
    if (!this.paused && lag >= limit) {
      this.paused = true;
      this.proc.pause();
    } else if (this.paused && lag <= limit / 2) {
      this.paused = false;
      this.proc.resume();
    }
  }

  write(data: Uint8Array): void {
    // node-pty writes a Buffer as it is (its types say string).
    this.proc?.write(Buffer.from(data) as unknown as string);
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    try {
      this.proc?.resize(cols, rows);
    } catch {
      /* the process may have just exited */
    }
  }

  broadcast(frame: Buffer): void {
    for (const c of this.clients) if (c.ws.readyState === c.ws.OPEN) c.ws.send(frame);
  }

  /**
   * Ends the program (SIGHUP, as a terminal closing does; SIGKILL after KILL_GRACE_MS) and settles
   * once node-pty has reported its exit. node-pty reports it from a thread of its own into this
   * one: a worker thread ended before that call (the embedded sandbox closing) aborted the whole
   * process ("terminate called after throwing an instance of 'Napi::Error'").
   */
  kill(reason: string): Promise<void> {
    clearTimeout(this.sendTimer);
    this.sendTimer = undefined;
    this.broadcast(encodeControl({ type: 'exit', code: null, signal: null, reason }));
    for (const c of this.clients) c.ws.close(1000, 'intern stopped');
    const proc = this.proc;
    this.proc = undefined;
    if (!proc) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      proc.onExit(done);
      timer = setTimeout(() => {
        try {
          proc.kill('SIGKILL');
        } catch {
          /* gone meanwhile */
        }
        // Not a word from node-pty even then: do not hold the close up for ever.
        timer = setTimeout(done, KILL_GRACE_MS);
      }, KILL_GRACE_MS);
      try {
        proc.kill();
      } catch {
        done(); // already gone
      }
    });
  }
}

interface Endpoint {
  server: Server;
  wss: WebSocketServer;
  origin: string;
  tokens: DaemonTokens;
  terminal: Terminal;
  pinger: NodeJS.Timeout;
}

export function createDaemonHub(options: DaemonHubOptions): DaemonHub {
  const endpoints = new Map<string, Endpoint>();
  const starting = new Map<string, Promise<Endpoint>>();
  const replayBytes = Math.max(options.replayBytes ?? FLOW.replayBytes, 1 << 20);

  async function open(intern: { id: string; name: string }): Promise<Endpoint> {
    const cwd = join(options.scratchRoot, intern.id);
    makeDirs(cwd);
    const [{ spawn, WebSocketServer }, confinement] = await Promise.all([terminalModules(), options.confinement ?? probeConfinement()]);
    const terminal = new Terminal(spawn, cwd, options.command, replayBytes, confinement, options.privatePaths ?? (() => []));
    const tokens = new DaemonTokens(options.tokenTtlMs ?? DAEMON_TOKEN_TTL_MS, options.now);
    const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20, handleProtocols: (p) => (p.has(SUBPROTOCOL) ? SUBPROTOCOL : false) });
    const server = createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain' }).end(`Connect with a WebSocket to ${TERMINAL_PATH}\n`);
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const refuse = (status: number, text: string) => {
        socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      };
      if ((req.url ?? '').split('?')[0] !== TERMINAL_PATH) return refuse(404, 'Not Found');
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      const presented = m?.[1];
      if (!tokens.verify(presented)) return refuse(401, 'Unauthorized');
      const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim());
      if (!protocols.includes(SUBPROTOCOL)) return refuse(400, 'Bad Request');
      wss.handleUpgrade(req, socket, head, (ws) => attach(terminal, ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, options.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const pinger = setInterval(() => {
      tokens.purge();
      for (const c of terminal.clients) {
        if (!c.alive) {
          c.ws.terminate();
          continue;
        }
        c.alive = false;
        c.ws.ping();
      }
    }, FLOW.pingIntervalMs);
    pinger.unref();
    return { server, wss, origin: `http://${host}:${port}`, tokens, terminal, pinger };
  }

  function attach(terminal: Terminal, ws: WebSocket): void {
    let client: Client | undefined;
    const hello = setTimeout(() => ws.close(1002, 'expected hello'), 10_000);
    ws.on('pong', () => {
      if (client) client.alive = true;
    });
    ws.on('message', (raw, isBinary) => {
      try {
        if (!isBinary) throw new ProtocolError('text frames are not part of the protocol');
        const frame = decodeFrame(raw as Buffer);
        if (!client) {
          if (frame.channel !== 'control' || frame.message.type !== 'hello') throw new ProtocolError('the first message must be hello');
          clearTimeout(hello);
          terminal.resize(frame.message.cols, frame.message.rows);
          // A client resuming after the program ended gets the rest of its output and its exit;
          // any other hello starts the program when it is not running.
          if (!terminal.endedFor(frame.message.resume_from)) terminal.ensureRunning();
          const { start, missed } = terminal.replay.resumeFrom(frame.message.resume_from);
          client = { ws, sent: start, acked: start, alive: true, toldExit: false };
          ws.send(encodeControl({ type: 'welcome', start, missed, live: terminal.replay.end }));
          terminal.clients.add(client);
          terminal.pump(client);
          terminal.flow();
          return;
        }
        if (frame.channel === 'input') terminal.write(frame.data);
        else if (frame.channel === 'control') {
          const m = frame.message;
          if (m.type === 'resize') terminal.resize(m.cols, m.rows);
          else if (m.type === 'ack') terminal.ack(client, m.offset);
        } else throw new ProtocolError('clients do not send output');
      } catch (e) {
        const message = e instanceof ProtocolError ? e.message : 'internal error';
        if (ws.readyState === ws.OPEN) ws.send(encodeControl({ type: 'error', message }));
        ws.close(1002, 'protocol error');
      }
    });
    ws.on('close', () => {
      clearTimeout(hello);
      if (client) terminal.clients.delete(client);
      terminal.flow();
    });
    ws.on('error', () => ws.terminate());
  }

  async function closeEndpoint(id: string, reason: string): Promise<void> {
    const ep = endpoints.get(id) ?? (await starting.get(id)?.catch(() => undefined));
    endpoints.delete(id);
    if (!ep) return;
    clearInterval(ep.pinger);
    ep.tokens.clear();
    const ended = ep.terminal.kill(reason);
    for (const c of ep.wss.clients) c.terminate();
    ep.wss.close();
    ep.server.closeAllConnections();
    await Promise.all([ended, new Promise<void>((r) => ep.server.close(() => r()))]);
  }

  async function startEndpoint(intern: { id: string; name: string }): Promise<{ origin: string }> {
    {
      const existing = endpoints.get(intern.id);
      if (existing) return { origin: existing.origin };
      let pending = starting.get(intern.id);
      if (!pending) {
        pending = open(intern);
        starting.set(intern.id, pending);
      }
      try {
        const ep = await pending;
        endpoints.set(intern.id, ep);
        return { origin: ep.origin };
      } finally {
        starting.delete(intern.id);
      }
    }
  }

  return {
    start: startEndpoint,
    originOf: (id) => endpoints.get(id)?.origin,
    issueToken(id) {
      const ep = endpoints.get(id);
      if (!ep) throw new Error('the daemon is not started');
      return ep.tokens.issue();
    },
    inspect(id) {
      const ep = endpoints.get(id);
      if (!ep) return undefined;
      const t = ep.terminal;
      return { paused: t.paused, end: t.replay.end, start: t.replay.start, running: t.running, clients: t.clients.size, tokens: ep.tokens.size };
    },
    async exec(intern, command, opts) {
      await startEndpoint(intern);
      const ep = endpoints.get(intern.id);
      if (!ep) throw new Error('the daemon is not started');
      return runInTerminal(ep.terminal, command, opts);
    },
    stop: (id, reason) => closeEndpoint(id, reason),
    async close() {
      await Promise.all([...endpoints.keys()].map((id) => closeEndpoint(id, 'The sandbox is shutting down')));
    },
  };
}

// CSI, OSC (ended by BEL or ST), and two-character escapes; then carriage returns.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

/**
 * Types a command into the terminal's shell, as a person would (so it shows in attach), followed by a
 * marker that reports its exit status; streams what it prints, without the echo of the typed line,
 * the marker or escape sequences, and answers the status. Cancelling or timing out sends ctrl+c.
 */
function runInTerminal(
  terminal: Terminal,
  command: string,
  opts: { onOutput: (text: string) => void; signal?: AbortSignal; timeoutMs: number },
): Promise<{ code: number | null; timedOut: boolean; cancelled: boolean }> {
  terminal.ensureRunning();
  // Markers printed around the command. The terminal echoes the typed line (once by the kernel and
  // again by the shell's line editor when it was busy), but in the echo each marker is followed by a
  // literal backslash and n, never by a real newline: only printf's output matches these.
  const id = Math.random().toString(36).slice(2, 10);
  const begin = new RegExp(`__intern_begin_${id}__\\n`);
  const done = new RegExp(`\\n?__intern_done_${id}__ (\\d+)\\n`);
  const marker = `__intern_done_${id}__ `;
  const holdBack = marker.length + 8;
  /** Where the tail of `text` that could begin the end marker line starts (text.length: none could). */
  const markerStart = (text: string): number => {
    for (let k = Math.max(0, text.length - holdBack); k < text.length; k++) {
      const tail = text.slice(k);
      const body = tail.startsWith('\n') ? tail.slice(1) : tail;
      if (marker.startsWith(body) || (body.startsWith(marker) && /^\d*$/.test(body.slice(marker.length)))) return k;
    }
    return text.length;
  };
  return new Promise((resolve) => {
    // Only what has not been passed on yet is kept, so a large output costs linear time.
    let pending = '';
    let started = false; // the begin marker has been seen: what follows is the command's output
    const decoder = new TextDecoder();
    const finish = (result: { code: number | null; timedOut: boolean; cancelled: boolean }) => {
      terminal.taps.delete(tap);
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', cancel);
      resolve(result);
    };
    const tap = (data: Buffer) => {
      pending = (pending + decoder.decode(data, { stream: true })).replace(ESCAPES, '');
      terminal.markRead();
      if (!started) {
        const b = begin.exec(pending);
        if (!b) {
          if (pending.length > 1 << 16) pending = pending.slice(-4096);
          return;
        }
        started = true;
        pending = pending.slice(b.index + b[0].length);
      }
      const m = done.exec(pending);
      if (m) {
        if (m.index > 0) opts.onOutput(pending.slice(0, m.index));
        return finish({ code: Number(m[1]), timedOut: false, cancelled: false });
      }
      // Hold back only what could be the start of the marker line (a line's last newline, say): a
      // fixed length held short lines back until some 30 more characters came, so `echo; sleep`
      // streamed nothing for seconds.
      const keep = markerStart(pending);
      if (keep > 0) {
        opts.onOutput(pending.slice(0, keep));
        pending = pending.slice(keep);
      }
    };
    const cancel = () => {
      terminal.write(Buffer.from('\x03'));
      finish({ code: null, timedOut: false, cancelled: true });
    };
    const timer = setTimeout(() => {
      terminal.write(Buffer.from('\x03'));
      finish({ code: null, timedOut: true, cancelled: false });
    }, opts.timeoutMs);
    if (opts.signal?.aborted) return cancel();
    opts.signal?.addEventListener('abort', cancel, { once: true });
    terminal.taps.add(tap);
    // The command goes through eval, single-quoted, so nothing in it (a `#` comment, a trailing `&`,
    // an unbalanced quote) can swallow or break the end marker that follows it on the line.
    const quoted = `'${command.replace(/'/g, `'\\''`)}'`;
    terminal.write(Buffer.from(`printf '__intern_begin_${id}__\\n'; eval ${quoted}; printf '\\n__intern_done_${id}__ %d\\n' $?\r`));
  });
}

