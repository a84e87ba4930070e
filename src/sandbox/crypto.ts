/** AES-256-GCM for raw BYOK keys at rest; the key comes from INTERN_SANDBOX_SECRET or a 0600 file. */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the sandbox secret must be 32 bytes');
  }

  /** INTERN_SANDBOX_SECRET (any string, hashed to 32 bytes), else `<dataDir>/secret.key` (created 0600), else random. */
  static load(dataDir: string | undefined, env = process.env): SecretBox {
    const fromEnv = env.INTERN_SANDBOX_SECRET;
    if (fromEnv) return new SecretBox(createHash('sha256').update(fromEnv).digest());
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
