/**
 * AES-256-GCM for raw BYOK keys at rest. The key comes from a secret file or file descriptor, from
 * INTERN_SANDBOX_SECRET (secretSource.ts: read once, then removed from the environment), or from
 * `<dataDir>/secret.key`.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, fstatSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_ENV, SecretSourceError, type SecretSource } from './secretSource.js';

export { SECRET_ENV_NOTE, SecretSourceError, takeSecretFromEnv, type SecretSource } from './secretSource.js';

/** Reads a source's text: a file's or a descriptor's whole content (the descriptor is closed), without its final line break. */
export function readSecret(source: SecretSource): string {
  let raw: string;
  if ('text' in source) raw = source.text;
  else if ('file' in source) {
    try {
      raw = readFileSync(source.file, 'utf8');
    } catch (e) {
      throw new SecretSourceError(`the secret file ${source.file} cannot be read: ${describeFsError(e)}`);
    }
  } else {
    const refused = unusableFd(source.fd);
    if (refused) throw new SecretSourceError(`the secret file descriptor ${source.fd} cannot be read: ${refused}`);
    try {
      raw = readFileSync(source.fd, 'utf8');
    } catch (e) {
      throw new SecretSourceError(`the secret file descriptor ${source.fd} cannot be read: ${describeFsError(e)}`);
    }
    // Read: closed, not left open for the programs the sandbox starts.
    closeSync(source.fd);
  }
  const text = raw.replace(/[\r\n]+$/, '');
  if (text === '') throw new SecretSourceError(`${'file' in source ? `the secret file ${source.file}` : 'fd' in source ? `the secret file descriptor ${source.fd}` : SECRET_ENV} is empty`);
  return text;
}

/**
 * Why descriptor `fd` cannot be the secret's: not open, not a file, pipe or socket (the runtime's
 * own event descriptors), or, on Linux, a pipe this process holds both ends of (the runtime's own:
 * reading it would wait for ever). A pipe or file handed down (`3<file`, `3< <(cmd)`) passes.
 */
function unusableFd(fd: number): string | undefined {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch (e) {
    return describeFsError(e);
  }
  if (!stat.isFile() && !stat.isFIFO() && !stat.isSocket()) return 'it is not a file or a pipe';
  const link = (n: string | number) => {
    try {
      return readlinkSync(`/proc/self/fd/${n}`);
    } catch {
      return undefined;
    }
  };
  const target = link(fd);
  if (target?.startsWith('pipe:') && readdirSync('/proc/self/fd').some((n) => Number(n) !== fd && link(n) === target)) return 'it is one of this process\'s own';
  return undefined;
}

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  EBADF: 'it is not open',
};
const describeFsError = (e: unknown): string => {
  const code = (e as { code?: unknown }).code;
  return (typeof code === 'string' && FS_ERRORS[code]) || (typeof code === 'string' ? code : 'unreadable');
};

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the sandbox secret must be 32 bytes');
  }

  /** The given source (its text hashed to 32 bytes), else `<dataDir>/secret.key` (created 0600), else random. */
  static load(dataDir: string | undefined, source?: SecretSource): SecretBox {
    if (source) return new SecretBox(createHash('sha256').update(readSecret(source)).digest());
    if (!dataDir) return new SecretBox(randomBytes(32));
    const file = join(dataDir, 'secret.key');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    return new SecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  }

  seal(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /**
   * A vault secret's fingerprint: HMAC-SHA-256 of the value under a key derived for its scope, so equal
   * values compare equal within one scope and nowhere else, and nothing about the value can be read back.
   */
  fingerprint(scope: string, value: string): string {
    const scopeKey = createHmac('sha256', this.key).update(`vault-fingerprint\0${scope}`).digest();
    return `sha256:${createHmac('sha256', scopeKey).update(value, 'utf8').digest('hex')}`;
  }

  /**
   * A short HMAC-SHA-256 tag of `text` under a key derived for `purpose`: what makes a value the
   * sandbox hands out (a list cursor) one only it can have made.
   */
  tag(purpose: string, text: string, bytes = 16): string {
    const purposeKey = createHmac('sha256', this.key).update(`tag\0${purpose}`).digest();
    return createHmac('sha256', purposeKey).update(text, 'utf8').digest().subarray(0, bytes).toString('base64url');
  }

  open(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export const sha256Hex = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
