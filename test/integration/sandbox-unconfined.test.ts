/**
 * Issue 43, point 3, on a machine that cannot confine the terminals (here: no `unshare` on PATH, so
 * this file has a process of its own; the probe is cached per process): the sandbox says so in one
 * line at start, and the terminals still work, unconfined.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketTransport } from '../../src/attach/transport.js';
import { probeConfinement } from '../../src/sandbox/daemon/confine.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox, userClient, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox | undefined;
const savedPath = process.env.PATH;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  process.env.PATH = savedPath;
});

describe('a sandbox whose terminals cannot be confined', () => {
  it('says so in one line at start, and its terminals still run', async () => {
    process.env.PATH = '/nonexistent';
    const notes: string[] = [];
    sb = await sandbox({ seed: 'demo', daemonCommand: '/bin/sh', notice: (line) => notes.push(line) });
    // The sandbox's answer (cached for this process), and its note, given shortly after the start
    // (not during it: the probe's processes slowed the TUI's first frame).
    expect(await probeConfinement()).toEqual({ kind: 'none', reason: 'unshare (util-linux) is not installed' });
    await waitFor(async () => notes.length, (n) => n > 0, 10_000, 'the note');
    expect(notes).toEqual([
      "the interns' terminals are not confined (unshare (util-linux) is not installed): their programs can read whatever this user can, the sandbox's data folder, manifest and /proc/PID/environ included (docs/sandbox.md)",
    ]);
    const access = await userClient(sb).getDaemonAccess(sb.manifest.interns.running!);
    let text = '';
    const t = new WebSocketTransport({
      access: async () => access,
      cols: 100,
      rows: 30,
      handlers: { output: (d, o) => ((text += d.toString('utf8')), t.ack(o + d.length)), state: () => undefined, gap: () => undefined, exit: () => undefined },
    });
    t.connect();
    try {
      await waitFor(async () => t.state, (s) => s === 'open', 10_000, 'open');
      t.send('echo un""confined-$((6*7))\n');
      await waitFor(async () => text, (x) => x.includes('unconfined-42'), 10_000, 'the shell');
    } finally {
      t.close();
    }
  });
});
