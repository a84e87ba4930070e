/** The one place that decides how an intern's terminal runs and what it cannot see (issue 43). */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FOREGROUND, HIDE_SCRIPT, STTY_EXEC, UNSHARE_OUTER, confinementNote, hiddenPaths, probeConfinement, stopProbe, terminalArgv, terminalEnv } from '../../../src/sandbox/daemon/confine.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'confine-'));
  dirs.push(d);
  return d;
};

const program = { file: '/bin/bash', args: ['-l'] };

describe('terminalArgv', () => {
  it('unconfined: the stty wrapper execs the program, as before', () => {
    expect(terminalArgv({ kind: 'none', reason: 'x' }, program, { dirs: ['/d'], files: ['/f'] })).toEqual({
      file: '/bin/sh',
      args: ['-c', 'stty iutf8 2>/dev/null; exec "$@"', 'intern-terminal', '/bin/bash', '-l'],
    });
  });

  it('confined: unshare (user, mount, PID, its own /proc, the child killed with it), the paths as arguments, then the program', () => {
    const argv = terminalArgv({ kind: 'unshare', pgrp: true }, program, { dirs: ['/data dir', "/it's"], files: ['/m.json'] });
    expect(argv.file).toBe('unshare');
    expect(argv.args).toEqual([
      '--user',
      '--map-root-user',
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      '/bin/sh',
      '-c',
      HIDE_SCRIPT,
      'intern-confine',
      '/data dir',
      "/it's",
      '/m.json',
      '--',
      ...FOREGROUND,
      '/bin/sh',
      '-c',
      STTY_EXEC,
      'intern-terminal',
      '/bin/bash',
      '-l',
    ]);
    // No path is ever part of a script.
    expect(HIDE_SCRIPT).not.toContain('/data');
    expect(UNSHARE_OUTER).toContain('--kill-child');
  });

  it('without perl the program starts from the stty wrapper directly', () => {
    const argv = terminalArgv({ kind: 'unshare', pgrp: false }, program, { dirs: [], files: [] });
    expect(argv.args.slice(argv.args.indexOf('--') + 1)).toEqual(['/bin/sh', '-c', STTY_EXEC, 'intern-terminal', '/bin/bash', '-l']);
  });

  it('the hiding script covers folders with a read-only tmpfs and files with /dev/null, fails closed, and locks the mounts in an inner user namespace', () => {
    expect(HIDE_SCRIPT).toContain('mount -t tmpfs -o ro,mode=000');
    expect(HIDE_SCRIPT).toContain('mount --bind -o ro /dev/null "$1"');
    expect(HIDE_SCRIPT).toContain('exit 126');
    expect(HIDE_SCRIPT).toMatch(/exec unshare --user --map-root-user --mount "\$@"$/);
  });
});

describe('hiddenPaths', () => {
  it('resolves links, leaves out missing paths and paths inside a covered folder, and tells folders from files', () => {
    const root = scratch();
    const data = join(root, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'secret.key'), 'k');
    writeFileSync(join(root, 'manifest.json'), '{}');
    symlinkSync(join(root, 'manifest.json'), join(root, 'link.json'));
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const hidden = hiddenPaths([data, join(data, 'secret.key'), join(root, 'link.json'), join(root, 'manifest.json'), join(root, 'missing'), data], ws);
    expect(hidden).toEqual({ dirs: [data], files: [join(root, 'manifest.json')] });
  });

  it('a data folder beside the workspaces in one parent is covered; a folder holding the working folder is refused', () => {
    const root = scratch();
    mkdirSync(join(root, 'data'));
    mkdirSync(join(root, 'ws', 'i1'), { recursive: true });
    expect(hiddenPaths([join(root, 'data')], join(root, 'ws', 'i1'))).toEqual({ dirs: [join(root, 'data')], files: [] });
    expect(() => hiddenPaths([root], join(root, 'ws', 'i1'))).toThrow(/inside/);
  });
});

describe('terminalEnv', () => {
  it("passes the sandbox's environment without its secrets, with the terminal's TERM", () => {
    const env = terminalEnv({ HOME: '/h', OPENROUTER_API_KEY: 'k', INTERN_SANDBOX_SECRET: 's', INTERN_SANDBOX_SECRET_FILE: '/f', TERM: 'dumb' });
    expect(env).toEqual({ HOME: '/h', TERM: 'xterm-256color', COLORTERM: 'truecolor' });
  });
});

describe('confinementNote', () => {
  it('one line when the terminals cannot be confined, naming why and what they can read; none when they are', () => {
    const note = confinementNote({ kind: 'none', reason: 'unshare (util-linux) is not installed' });
    expect(note).toMatch(/not confined \(unshare \(util-linux\) is not installed\).*data folder, manifest and \/proc\/PID\/environ/);
    expect(note).not.toContain('\n');
    expect(confinementNote({ kind: 'unshare', pgrp: true })).toBeUndefined();
  });
});

describe('stopProbe (the sandbox\'s close)', () => {
  const scratch = () => readdirSync(tmpdir()).filter((n) => n.startsWith('intern-confine-'));

  it('ends a probe under way at once, leaves no scratch folder, and the next probe asks again', async () => {
    const before = new Set(scratch());
    const first = probeConfinement();
    await stopProbe();
    expect(scratch().filter((n) => !before.has(n))).toEqual([]);
    // A stopped probe answered nothing: it is not kept.
    const again = probeConfinement();
    expect(again).not.toBe(first);
    await again;
    expect(probeConfinement()).toBe(again);
    // With no probe under way it has nothing to do.
    await stopProbe();
    expect(probeConfinement()).toBe(again);
  });
});
