// The daemon's drain (src/sandbox/daemon/drain.ts) on real pseudo-terminals: it reads on past the
// stream's chunk, in order, never blocks on an empty pty, stops when told, and stays quiet once the
// program is gone.
import pty, { type IPty } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { drainPty, DRAIN_READS, ptyFd } from '../../src/sandbox/daemon/drain.js';

const live: IPty[] = [];
afterEach(() => {
  for (const p of live.splice(0)) {
    try {
      p.kill();
    } catch {
      /* gone already */
    }
  }
});

/** A program in a pty of its own, raw (no CR added to line feeds), its output as Buffers. */
function spawn(script: string): IPty {
  const p = pty.spawn('/bin/sh', ['-c', `stty raw -echo; ${script}`], { cols: 80, rows: 24, encoding: null });
  live.push(p);
  return p;
}

const fdOf = (p: IPty) => {
  const fd = ptyFd(p);
  if (fd === undefined) throw new Error('node-pty gave no descriptor');
  return fd;
};

/** 1 MiB that says where each byte belongs: "0000000\n0000008\n…", every line its own offset. */
const MIB = 1 << 20;
const expected = () => {
  let s = '';
  for (let at = 0; at < MIB; at += 8) s += `${String(at).padStart(7, '0')}\n`;
  return s;
};
const PRINT_MIB = `${process.execPath} -e "let s='';for(let a=0;a<${MIB};a+=8)s+=String(a).padStart(7,'0')+'\\\\n';process.stdout.write(s)"`;

describe('drainPty', () => {
  it('reads what the pty has ready past the stream chunk, every byte once and in order', async () => {
    const p = spawn(PRINT_MIB);
    const fd = fdOf(p);
    const chunks: Buffer[] = [];
    let drained = 0;
    let streamed = 0;
    // Until every byte is in (node-pty may report the exit before the last of the output).
    await new Promise<void>((resolve) => {
      p.onData((d: string | Buffer) => {
        const b = d as Buffer;
        streamed += b.length;
        chunks.push(b);
        drained += drainPty(fd, (c) => {
          chunks.push(c);
          return true;
        });
        if (streamed + drained >= MIB) resolve();
      });
    });
    const text = Buffer.concat(chunks).toString('latin1');
    expect(text.length).toBe(MIB);
    expect(text === expected()).toBe(true);
    // Without the drain every byte would have come through the stream.
    expect(drained).toBeGreaterThan(0);
    expect(streamed + drained).toBe(MIB);
  });

  it('answers at once, with nothing, when the pty has nothing to give', async () => {
    const p = spawn('echo ready; sleep 10');
    await new Promise<void>((resolve) => p.onData(() => resolve()));
    const fd = fdOf(p);
    // A blocking read would wait for output that never comes, and the test would time out.
    const started = performance.now();
    const got: Buffer[] = [];
    expect(drainPty(fd, (c) => (got.push(c), true))).toBe(0);
    expect(got).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('stops at the first chunk `take` refuses more after', async () => {
    const p = spawn(PRINT_MIB);
    const fd = fdOf(p);
    // After each stream chunk a drain whose `take` refuses at once, until one finds something.
    const first = await new Promise<{ taken: number; read: number }>((resolve) => {
      const off = p.onData(() => {
        let taken = 0;
        const read = drainPty(fd, () => (taken++, false));
        if (taken > 0) {
          off.dispose();
          resolve({ taken, read });
        }
      });
      p.onExit(() => resolve({ taken: 0, read: 0 }));
    });
    // Exactly the one chunk it was refused after, not the DRAIN_READS it could have read.
    expect(DRAIN_READS).toBeGreaterThan(1);
    expect(first.taken).toBe(1);
    expect(first.read).toBeGreaterThan(0);
    expect(first.read).toBeLessThanOrEqual(64 << 10);
  });

  it('is quiet, not thrown, once the program has ended and its pty is closed', async () => {
    const p = spawn('true');
    const fd = fdOf(p);
    await new Promise<void>((resolve) => p.onExit(() => resolve()));
    expect(drainPty(fd, () => true)).toBe(0);
  });
});

describe('ptyFd', () => {
  it("finds node-pty's descriptor, and nothing where there is none", () => {
    const p = spawn('sleep 10');
    expect(ptyFd(p)).toEqual(expect.any(Number));
    expect(ptyFd({})).toBeUndefined();
    expect(ptyFd({ fd: -1 })).toBeUndefined();
    expect(ptyFd({ fd: '3' })).toBeUndefined();
  });
});
