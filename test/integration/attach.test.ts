/** The attach transport against the sandbox's real daemon terminals. */
import { mkdtempSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOW, SUBPROTOCOL, decodeFrame, encodeControl, encodeInput } from '../../src/attach/protocol.js';
import { WebSocketTransport, type TransportHandlers } from '../../src/attach/transport.js';
import { createDaemonHub } from '../../src/sandbox/daemon/index.js';
import type { DaemonHub } from '../../src/sandbox/daemon/types.js';
import { waitFor } from '../support/sandbox.js';

let hub: DaemonHub | undefined;
const transports: WebSocketTransport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  await hub?.close();
  hub = undefined;
});

let scratch = '';
async function start(command?: string, replayBytes?: number) {
  scratch = mkdtempSync(join(tmpdir(), 'daemon-'));
  hub = createDaemonHub({ host: '127.0.0.1', command, scratchRoot: scratch, replayBytes });
  const { origin } = await hub.start({ id: 'i1', name: 'one' });
  return { origin, token: hub.issueToken('i1') };
}

/**
 * This machine's processes (as its /proc numbers them) working in `dir`: a terminal's program and
 * its children, found from outside whatever PID namespace they run in (confine.ts).
 */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) found.push(Number(pid));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return found;
}

function connect(access: { origin: string; token: string }, over: Partial<TransportHandlers> = {}, opts: { cols?: number; rows?: number; autoAck?: boolean } = {}) {
  const state = { text: '', bytes: 0, offsets: [] as number[], exit: null as null | { code: number | null; signal: number | null; reason?: string }, gaps: [] as number[], states: [] as string[] };
  const handlers: TransportHandlers = {
    output: (data, offset) => {
      state.offsets.push(offset);
      state.text += data.toString('latin1');
      state.bytes = offset + data.length;
      if (opts.autoAck !== false) t.ack(state.bytes);
    },
    state: (s) => state.states.push(s),
    gap: (missed) => state.gaps.push(missed),
    exit: (info) => (state.exit = info),
    ...over,
  };
  const t: WebSocketTransport = new WebSocketTransport({ access: async () => access, cols: opts.cols ?? 80, rows: opts.rows ?? 24, handlers, backoff: { baseMs: 20, maxMs: 100 } });
  transports.push(t);
  t.connect();
  return { t, state };
}

/** How far past the window the daemon may read: one read of a pty master (about 4 KiB on Linux), with room. */
const PAST_WINDOW_MAX = 16 << 10;

const until = (what: string, ok: () => boolean, timeoutMs = 10_000) => waitFor(async () => ok(), (v) => v, timeoutMs, what);

describe('daemon terminals', () => {
  it('closing waits for the terminal\'s program to end, with SIGKILL for one that ignores SIGHUP', async () => {
    // The shell itself behind the terminal (a command runs under sh -c).
    const access = await start();
    const { t, state } = connect(access);
    await until('open', () => t.state === 'open');
    t.send("trap '' HUP; echo is-''up\n");
    await until('the shell', () => state.text.includes('is-up'));
    const cwd = realpathSync(join(scratch, 'i1'));
    expect(processesIn(cwd).length).toBeGreaterThan(0);
    await hub!.close();
    hub = undefined;
    // Gone by the time close settles (an embedded sandbox's worker ends right after it).
    expect(processesIn(cwd)).toEqual([]);
  });

  it('echoes, resizes and reports the exit status', async () => {
    const access = await start('/bin/sh');
    const { t, state } = connect(access, {}, { cols: 91, rows: 31 });
    await until('open', () => t.state === 'open');
    t.send('echo marker-$((40+2))\n');
    await until('echo', () => state.text.includes('marker-42'));
    t.send('stty size\n');
    await until('size', () => state.text.includes('31 91'));
    t.resize(120, 40);
    t.send('stty size\n');
    await until('resized', () => state.text.includes('40 120'));
    t.send('exit 3\n');
    await until('exit', () => state.exit !== null);
    expect(state.exit).toMatchObject({ code: 3 });
  });

  it('when the program ends: the exit (no signal for a program that exited by itself), then the daemon closes with 1000', async () => {
    const access = await start('/bin/sh');
    const seen = await new Promise<{ exit: unknown; code: number }>((resolve) => {
      let exit: unknown;
      const ws = new WebSocket(`${access.origin.replace('http', 'ws')}/terminal`, [SUBPROTOCOL], { headers: { authorization: `Bearer ${access.token}` } });
      ws.on('open', () => {
        ws.send(encodeControl({ type: 'hello', resume_from: null, cols: 80, rows: 24 }));
        ws.send(encodeInput('exit 3\n'));
      });
      ws.on('message', (raw: Buffer) => {
        const frame = decodeFrame(raw);
        if (frame.channel === 'control' && frame.message.type === 'exit') exit = frame.message;
        else if (frame.channel === 'output') ws.send(encodeControl({ type: 'ack', offset: frame.offset + frame.data.length }));
      });
      ws.on('close', (code) => resolve({ exit, code }));
    });
    expect(seen).toEqual({ exit: { type: 'exit', code: 3, signal: null }, code: 1000 });
  });

  it('a daemon started again elsewhere (a service restarted) is asked for afresh, and its new, shorter stream is taken, not dropped as bytes already had', async () => {
    const first = await start('/bin/sh');
    const other = createDaemonHub({ host: '127.0.0.1', command: '/bin/sh', scratchRoot: mkdtempSync(join(tmpdir(), 'daemon-')) });
    // What the client kept (its last access) until it asks afresh, and what the service answers then.
    let kept: { origin: string; token: string } = first;
    let current = first;
    let restartedAt: number | null = null;
    let freshAsks = 0;
    const state = { text: '', bytes: 0 };
    const handlers: TransportHandlers = {
      output: (data, offset) => {
        state.text += data.toString('latin1');
        state.bytes = offset + data.length;
        t.ack(state.bytes);
      },
      state: () => undefined,
      gap: () => undefined,
      exit: () => undefined,
      restarted: (at) => (restartedAt = at),
    };
    const t: WebSocketTransport = new WebSocketTransport({
      access: async (fresh) => {
        if (!fresh) return kept;
        freshAsks++;
        return (kept = current);
      },
      cols: 80,
      rows: 24,
      handlers,
      backoff: { baseMs: 20, maxMs: 100 },
    });
    transports.push(t);
    t.connect();
    await until('open', () => t.state === 'open');
    // More output on the first terminal than the second will have written when it is reached.
    t.send(`printf '%0${5000}d\\n' 0\n`);
    await until('the first output', () => state.bytes > 5000);
    const had = state.bytes;
    // The first daemon goes without a word (its address answers nothing now); the service starts
    // the terminal again elsewhere.
    const { origin } = await other.start({ id: 'i1', name: 'one' });
    current = { origin, token: other.issueToken('i1') };
    kept = { origin: 'http://127.0.0.1:1', token: first.token };
    const asksBefore = freshAsks;
    t.socket!.terminate();
    try {
      await until('reconnected after asking afresh', () => t.state === 'open' && freshAsks > asksBefore && restartedAt !== null, 15_000);
      expect(restartedAt!).toBeLessThan(had);
      t.send('echo after-$((20+22))\n');
      await until('the new terminal\'s output', () => state.text.includes('after-42'), 15_000);
    } finally {
      t.close();
      await other.close();
    }
  });

  it('passes output through as bytes, UTF-8 or not, and keeps the terminal in UTF-8 line editing', async () => {
    const access = await start('/bin/sh');
    const { t, state } = connect(access);
    await until('open', () => t.state === 'open');
    t.send("printf 'bytes:\\377\\376\\303\\251:end\\n'\n");
    // Latin-1 view of the bytes: 0xff 0xfe, then é as its two UTF-8 bytes (nothing became U+FFFD).
    await until('bytes', () => state.text.includes('bytes:\xff\xfe\xc3\xa9:end'));
    // Backspace in a cooked-mode line (sh's own prompt) erases a whole character only with IUTF8.
    t.send('stty -a\n');
    await until('stty', () => /[ -]iutf8/.test(state.text));
    expect(state.text).toMatch(/(^|\s)iutf8/m);
    expect(state.text).not.toMatch(/-iutf8/);
  });

  it('gathers a flood\'s reads into messages of at most 64 KiB', async () => {
    const access = await start('/bin/sh');
    const sizes: number[] = [];
    const { t, state } = connect(access);
    await until('open', () => t.state === 'open');
    const flood = 4_000_000;
    t.send(`head -c ${flood} /dev/zero | tr '\\0' x; echo; echo flood-$((1+1))-done\n`);
    const seen = state.bytes;
    await until('the flood', () => state.text.includes('flood-2-done'), 30_000);
    for (let i = 1; i < state.offsets.length; i++) if (state.offsets[i - 1]! >= seen) sizes.push(state.offsets[i]! - state.offsets[i - 1]!);
    // The pseudo-terminal is read 4 KiB at a time; the daemon sends them gathered, but never more than 64 KiB at once.
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 << 10);
    expect(sizes.length).toBeLessThan(flood / (8 << 10));
  });

  it('refuses a wrong or missing token before the upgrade', async () => {
    const { origin } = await start('/bin/sh');
    for (const headers of [{ authorization: 'Bearer wrong-token' }, {}]) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${origin.replace('http', 'ws')}/terminal`, [SUBPROTOCOL], { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(401);
    }
    const plain = await request(`${origin}/terminal`);
    expect(plain.statusCode).toBe(426);
    await plain.body.dump();
  });

  it('refuses a malformed first message', async () => {
    const access = await start('/bin/sh');
    const closed = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${access.origin.replace('http', 'ws')}/terminal`, [SUBPROTOCOL], { headers: { authorization: `Bearer ${access.token}` } });
      ws.on('open', () => ws.send(encodeControl({ type: 'resize', cols: 10, rows: 10 })));
      ws.on('close', (code) => resolve(code));
    });
    expect(closed).toBe(1002);
  });

  it('bounds memory under a flood: the daemon stops sending while the client does not acknowledge', async () => {
    const access = await start(`${process.execPath} -e "const b=Buffer.alloc(65536,97);(function w(){while(process.stdout.write(b));process.stdout.once('drain',w)})()"`);
    const { t, state } = connect(access, {}, { autoAck: false });
    await until('first output', () => state.bytes > 0);
    // Without acknowledgements the daemon sends at most one window.
    await until('window filled', () => state.bytes >= 900_000, 15_000);
    const held = state.bytes;
    expect(held).toBeLessThanOrEqual(1 << 20);
    // Acknowledging lets more through.
    t.ack(state.bytes);
    await until('more after ack', () => state.bytes > held + 200_000, 15_000);
  });

  it('stops reading the terminal about one read past the window, drain and all (src/sandbox/daemon/drain.ts)', async () => {
    const access = await start(`${process.execPath} -e "const b=Buffer.alloc(65536,97);(function w(){while(process.stdout.write(b));process.stdout.once('drain',w)})()"`);
    const { state } = connect(access, {}, { autoAck: false });
    await until('paused', () => hub!.inspect('i1')!.paused, 15_000);
    await new Promise((r) => setTimeout(r, 200));
    // The daemon reads until the slowest client lags a window; the read that crossed it is the last
    // (0-6,144 bytes past it in eight runs). A drain that read on after the pause went 5,888-30,694
    // past it in the same eight runs: this catches it in most runs, not in every one.
    const read = hub!.inspect('i1')!.end;
    expect(read).toBeGreaterThanOrEqual(FLOW.windowBytes);
    expect(read - FLOW.windowBytes).toBeLessThan(PAST_WINDOW_MAX);
    expect(state.bytes).toBeLessThan(FLOW.windowBytes + PAST_WINDOW_MAX);
  });

  it('resumes after a dropped connection with nothing lost or duplicated', async () => {
    const access = await start('/bin/sh');
    const { t, state } = connect(access);
    await until('open', () => t.state === 'open');
    // Wait for the prompt, or a slow shell prints it in front of line-1.
    await until('prompt', () => state.bytes > 0);
    t.send('for i in $(seq 1 40); do echo line-$i; sleep 0.02; done; echo DONE-$((1+1))\n');
    await until('some lines', () => state.text.includes('line-5'));
    t.socket!.terminate();
    await until('reconnected', () => state.states.includes('reconnecting') && t.state === 'open');
    await until('done', () => state.text.includes('DONE-2'));
    for (let i = 1; i <= 40; i++) {
      expect(state.text.match(new RegExp(`^line-${i}\\r?$`, 'gm')), `line-${i}`).toHaveLength(1);
    }
    // Offsets are contiguous: each chunk starts where the previous one ended.
    expect(state.gaps).toEqual([]);
  });

  it('says how much was lost when the gap is larger than the replay buffer', async () => {
    const access = await start('/bin/sh', 1 << 20);
    const first = connect(access);
    await until('open', () => first.t.state === 'open');
    first.t.send('echo ready\n');
    await until('ready', () => first.state.text.includes('ready'));
    const resumeFrom = first.state.bytes;
    first.t.close();
    // While nobody is attached, print more than the buffer holds.
    const writer = connect(access);
    await until('writer open', () => writer.t.state === 'open');
    writer.t.send(`head -c 1500000 /dev/zero | tr '\\0' 'z'; echo; echo FLOOD$((1+1))ED\n`);
    await until('flooded', () => writer.state.text.includes('FLOOD2ED'), 15_000);
    writer.t.close();
    const missed = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${access.origin.replace('http', 'ws')}/terminal`, [SUBPROTOCOL], { headers: { authorization: `Bearer ${access.token}` } });
      ws.on('open', () => ws.send(encodeControl({ type: 'hello', resume_from: resumeFrom, cols: 80, rows: 24 })));
      ws.on('message', (raw: Buffer) => {
        if (raw[0] === 2) {
          const m = JSON.parse(raw.subarray(1).toString());
          if (m.type === 'welcome') {
            ws.close();
            resolve(m.missed);
          }
        }
      });
    });
    expect(missed).toBeGreaterThan(0);
  });

  it('stop ends the terminal with an exit message naming the reason', async () => {
    const access = await start('/bin/sh');
    const { t, state } = connect(access);
    // Open is not enough: the daemon must have taken the hello, or the exit goes to nobody.
    await until('open and welcomed', () => t.state === 'open' && hub!.inspect('i1')?.clients === 1);
    await hub!.stop('i1', 'The intern was suspended');
    await until('exit', () => state.exit !== null);
    expect(state.exit?.reason).toBe('The intern was suspended');
  });
});
