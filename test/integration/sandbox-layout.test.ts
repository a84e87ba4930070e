/**
 * Defect 6 of issue 13: the intern's shell started two folders below the
 * sandbox's secret.key and database. The workspaces now live outside the data
 * folder, the data folder is 0700 and secret.key 0600.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox, typeInTerminal, userClient } from '../support/sandbox.js';

let sb: RunningSandbox | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const inside = (child: string, parent: string) => {
  const rel = relative(realpathSync(parent), realpathSync(child));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};
const mode = (p: string) => statSync(p).mode & 0o777;

/** The working directory of the running intern's terminal, as its shell reports it. */
async function internCwd(s: RunningSandbox): Promise<{ cwd: string; probe: string }> {
  // Markers are split (C%sD) so the shell's echo of the command line does not match them.
  const text = await typeInTerminal(
    userClient(s),
    s.manifest.interns.running!,
    'printf "C%sD=%s=\\n" W "$(pwd -P)"; for p in ../secret.key ../../secret.key ../../../secret.key ../sandbox.db ../../sandbox.db; do [ -e "$p" ] && printf "FO%sND=%s=\\n" U "$p"; done; printf "PR%sBE=done=\\n" O\n',
    (x) => /PROBE=done=/.test(x),
    { rows: 24, doneMs: 10_000, what: 'the shell answered' },
  );
  return { cwd: /CWD=(.*?)=/.exec(text)![1]!, probe: (text.match(/FOUND=.*?=/g) ?? []).join(' ') };
}

describe('sandbox layout (issue 13, defect 6)', () => {
  it('with --data-dir: the data folder is 0700, secret.key 0600, and the intern works outside it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'layout-data-'));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755); // a folder made by someone else, too open
    sb = await sandbox({ dataDir, daemonCommand: '/bin/sh', seed: 'empty' });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
    expect(mode(join(dataDir, 'sandbox.db'))).toBe(0o600);
    const { cwd, probe } = await internCwd(sb);
    expect(inside(cwd, dataDir), `${cwd} is inside ${dataDir}`).toBe(false);
    expect(probe).toBe('');
  });

  it('with a workspaces folder given: the intern works in it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'layout-data-'));
    const workspaces = mkdtempSync(join(tmpdir(), 'layout-ws-'));
    dirs.push(dataDir, workspaces);
    sb = await sandbox({ dataDir, workspacesDir: workspaces, daemonCommand: '/bin/sh', seed: 'empty' });
    const { cwd } = await internCwd(sb);
    expect(inside(cwd, workspaces)).toBe(true);
    expect(inside(cwd, dataDir)).toBe(false);
    expect(mode(cwd)).toBe(0o700);
  });

  it('refuses a workspaces folder inside the data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'layout-data-'));
    dirs.push(dataDir);
    mkdirSync(join(dataDir, 'ws'));
    await expect(sandbox({ dataDir, workspacesDir: join(dataDir, 'ws'), seed: 'empty' })).rejects.toThrow(/inside the data folder/);
  });

  it('an ephemeral sandbox removes its temporary workspaces on close', async () => {
    sb = await sandbox({ daemonCommand: '/bin/sh', seed: 'empty' });
    const { cwd } = await internCwd(sb);
    expect(existsSync(cwd)).toBe(true);
    await sb.close();
    sb = undefined;
    expect(existsSync(cwd)).toBe(false);
  });

  it('an ephemeral sandbox that cannot listen leaves no folder behind', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    const scratch = mkdtempSync(join(tmpdir(), 'layout-listen-'));
    dirs.push(scratch);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      await expect(sandbox({ port, seed: 'empty' })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      process.env.TMPDIR = saved;
      busy.close();
    }
    expect(readdirSync(scratch)).toEqual([]);
  });
});

