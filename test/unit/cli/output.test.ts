/** Output's writing path: every write waits for a full stream's drain (writeOut), and the status line on a terminal's stderr. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/context.js';
import { Output, columnAfter, writeOut } from '../../../src/cli/output.js';

/** A stream whose reader takes nothing until `release()`: writes are held, as a stalled pipe holds them. */
class Stalled extends Writable {
  text = '';
  held: (() => void)[] = [];
  isTTY: boolean;
  columns = 40;
  constructor(tty = false) {
    super({ highWaterMark: 64, decodeStrings: false });
    this.isTTY = tty;
  }
  override _write(chunk: string | Buffer, _e: BufferEncoding, cb: () => void): void {
    this.held.push(() => {
      this.text += chunk.toString();
      cb();
    });
  }
  release(): void {
    for (const f of this.held.splice(0)) f();
  }
}

/** A stream that takes everything at once. */
class Sink extends Writable {
  text = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns = 40,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

const ioOf = (stdout: Writable, stderr: Writable): Io => ({ stdin: process.stdin, stdout, stderr, env: {} });

describe('writeOut and Output.say', () => {
  it('resolve only once a full stream drains, so a writer that awaits them holds no more than the stream does', async () => {
    const stdout = new Stalled();
    const out = new Output(ioOf(stdout, new Sink(false)), null);
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        await out.say('y'.repeat(100));
        written++;
      }
    })();
    // Let the writer run as far as it can: the stream's buffer takes one piece, then it waits.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(written).toBe(0);
    expect(out.waitingForReader).toBe(true);
    stop = true;
    stdout.release();
    await writer;
    expect(written).toBe(1);
    expect(out.waitingForReader).toBe(false);
  });

  it('resolves when the stream is closed or fails instead of draining (the ending watch reports why)', async () => {
    const closed = new Stalled();
    const waiting = writeOut(closed, 'x'.repeat(100));
    closed.destroy();
    await waiting;
    await writeOut(closed, 'after');
    const failed = new Stalled();
    failed.on('error', () => undefined);
    const pending = writeOut(failed, 'x'.repeat(100));
    failed.destroy(new Error('EPIPE'));
    await pending;
  });

  it('stops waiting when the command is cancelled (ctrl+c, SIGTERM), the reader never reading', async () => {
    const stdout = new Stalled();
    const cancel = new AbortController();
    const out = new Output(ioOf(stdout, new Sink(false)), null, false, cancel.signal);
    const waiting = out.say('x'.repeat(100));
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    cancel.abort();
    await waiting;
    await out.say('more');
  });
});

describe('Output.status', () => {
  it('draws one line in place on a terminal stderr, erased before the next output', async () => {
    const stdout = new Sink(false);
    const stderr = new Sink(true, 30);
    const out = new Output(ioOf(stdout, stderr), null);
    out.status('runner is still working: nothing new for 2s');
    out.status('runner is still working: nothing new for 3s');
    // Cut to the terminal's width less one cell, so that it never wraps.
    expect(stderr.text).toBe('\r\x1b[Krunner is still working: not…\r\x1b[Krunner is still working: not…');
    await out.say('answer\n');
    expect(stderr.text.endsWith('\r\x1b[K')).toBe(true);
    expect(stdout.text).toBe('answer\n');
    out.clearStatus();
    expect(stderr.text.endsWith('\r\x1b[K')).toBe(true);
  });

  it('shows nothing when stderr is not a terminal', () => {
    const stderr = new Sink(false);
    const out = new Output(ioOf(new Sink(true), stderr), null);
    out.status('still working');
    out.clearStatus();
    expect(stderr.text).toBe('');
  });

  it('under an unfinished line of the answer on the same terminal takes a line of its own, and puts the cursor back at that line end', async () => {
    const stdout = new Sink(true, 40);
    const stderr = new Sink(true, 40);
    const out = new Output(ioOf(stdout, stderr), null);
    await out.say('line one\nhalf a li');
    out.status('still working');
    // Dim, as stdout is a terminal that takes colour.
    expect(stderr.text).toBe('\n\x1b[K\x1b[2mstill working\x1b[22m');
    await out.say('ne\n');
    expect(stderr.text).toBe('\n\x1b[K\x1b[2mstill working\x1b[22m\r\x1b[K\x1b[A\x1b[10G');
    expect(stdout.text).toBe('line one\nhalf a line\n');
    // At the start of a line it draws on that line.
    out.status('still working');
    expect(stderr.text.endsWith('\r\x1b[K\x1b[2mstill working\x1b[22m')).toBe(true);
  });
});

describe('columnAfter', () => {
  it('counts display cells from the last line break, tabs to every eighth', () => {
    expect(columnAfter(5, 'abc')).toBe(8);
    expect(columnAfter(5, 'x\nab')).toBe(2);
    expect(columnAfter(0, 'ab\tc')).toBe(9);
    expect(columnAfter(0, '日本')).toBe(4);
    expect(columnAfter(3, '\n')).toBe(0);
  });
});
