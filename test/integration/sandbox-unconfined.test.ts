/**
 * Issue 43, point 3, on a machine that cannot confine the terminals (here: no `unshare` on PATH, so
 * this file has a process of its own; the probe is cached per process): the sandbox says so in one
 * line at start, and the terminals still work, unconfined.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { probeConfinement } from '../../src/sandbox/daemon/confine.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox, typeInTerminal, userClient, waitFor } from '../support/sandbox.js';

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
    await typeInTerminal(userClient(sb), sb.manifest.interns.running!, 'echo un""confined-$((6*7))\n', (x) => x.includes('unconfined-42'), { cols: 100, rows: 30, doneMs: 10_000, what: 'the shell' });
  });
});
