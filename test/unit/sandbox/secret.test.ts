/** The sandbox's secret: from a file, a descriptor or (noted) the environment, never passed on (issue 43). */
import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_ENV_NOTE, SecretBox, SecretSourceError, readSecret, takeSecretFromEnv } from '../../../src/sandbox/crypto.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'secret-'));
  dirs.push(d);
  return d;
};

describe('takeSecretFromEnv', () => {
  it('reads INTERN_SANDBOX_SECRET once, removes it so no child inherits it, and notes that /proc shows it', () => {
    const env: NodeJS.ProcessEnv = { INTERN_SANDBOX_SECRET: 'hunter2', PATH: process.env.PATH };
    expect(takeSecretFromEnv(env)).toEqual({ source: { text: 'hunter2' }, note: SECRET_ENV_NOTE });
    expect(env).toEqual({ PATH: process.env.PATH });
    expect(SECRET_ENV_NOTE).toMatch(/\/proc.*--secret-file/);
    expect(SECRET_ENV_NOTE).not.toContain('\n');
    // Read once: a second look finds nothing.
    expect(takeSecretFromEnv(env)).toEqual({ source: undefined, note: undefined });
  });

  it('from process.env: a program started afterwards does not carry it', () => {
    process.env.INTERN_SANDBOX_SECRET = 'canary-in-env-7f3a';
    try {
      takeSecretFromEnv();
      expect(spawnSync('env', { encoding: 'utf8' }).stdout).not.toContain('canary-in-env-7f3a');
    } finally {
      delete process.env.INTERN_SANDBOX_SECRET;
    }
  });

  it('INTERN_SANDBOX_SECRET_FILE names a file, and wins over the variable (still noted, and removed)', () => {
    const env: NodeJS.ProcessEnv = { INTERN_SANDBOX_SECRET: 'x', INTERN_SANDBOX_SECRET_FILE: '/run/secret' };
    expect(takeSecretFromEnv(env)).toEqual({ source: { file: '/run/secret' }, note: SECRET_ENV_NOTE });
    expect(env).toEqual({});
  });
});

describe('readSecret', () => {
  it("reads a file's text without its final line break, the same key as the variable with that text", () => {
    const file = join(scratch(), 's');
    writeFileSync(file, 'correct horse\n', { mode: 0o600 });
    expect(readSecret({ file })).toBe('correct horse');
    expect(SecretBox.load(undefined, { file }).tag('t', 'x')).toBe(SecretBox.load(undefined, { text: 'correct horse' }).tag('t', 'x'));
  });

  it('reads a descriptor to its end and closes it', () => {
    const file = join(scratch(), 's');
    writeFileSync(file, 'from-fd\r\n');
    const fd = openSync(file, 'r');
    expect(readSecret({ fd })).toBe('from-fd');
    expect(() => closeSync(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });

  it("refuses this process's own descriptors (its event loop's, its own pipes) and leaves them open", () => {
    const fds = readdirSync('/proc/self/fd').map((n) => ({ fd: Number(n), link: (() => { try { return readlinkSync(`/proc/self/fd/${n}`); } catch { return ''; } })() }));
    const anon = fds.find((f) => f.link.startsWith('anon_inode:'));
    const pipe = fds.find((f) => f.link.startsWith('pipe:') && fds.some((g) => g.fd !== f.fd && g.link === f.link));
    expect(anon && pipe).toBeTruthy();
    expect(() => readSecret({ fd: anon!.fd })).toThrow(/^the secret file descriptor \d+ cannot be read: it is not a file or a pipe$/);
    expect(() => readSecret({ fd: pipe!.fd })).toThrow(/^the secret file descriptor \d+ cannot be read: it is one of this process's own$/);
    for (const f of [anon!, pipe!]) expect(() => fstatSync(f.fd)).not.toThrow();
  });

  it('a missing, unreadable or empty secret is a clear one-line error', () => {
    const dir = scratch();
    const cases: [Parameters<typeof readSecret>[0], RegExp][] = [
      [{ file: join(dir, 'missing') }, /^the secret file .*missing cannot be read: it does not exist$/],
      [{ file: dir }, /^the secret file .* cannot be read: it is a folder$/],
      [{ fd: 987 }, /^the secret file descriptor 987 cannot be read: it is not open$/],
    ];
    writeFileSync(join(dir, 'empty'), '\n');
    cases.push([{ file: join(dir, 'empty') }, /^the secret file .*empty is empty$/]);
    for (const [source, message] of cases) {
      let error: unknown;
      try {
        readSecret(source);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SecretSourceError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('SecretBox.load', () => {
  it('without a source: <dataDir>/secret.key, made 0600 once and kept', () => {
    const dir = scratch();
    const a = SecretBox.load(dir).tag('t', 'x');
    expect(SecretBox.load(dir).tag('t', 'x')).toBe(a);
  });
});
