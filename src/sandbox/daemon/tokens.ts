/**
 * A daemon endpoint's access tokens. Each token is kept only as an HMAC under a
 * key that lives in this process's memory, in a map: a presented token is found
 * by one HMAC and one map lookup, never by comparing it with every token (with
 * 50,000 tokens that scan froze the sandbox). Looking up the HMAC rather than
 * the token means the lookup's timing says nothing about any real token.
 *
 * Tokens expire `DAEMON_TOKEN_TTL_MS` after they were issued (a connection
 * already open stays open); expired ones are purged on every issue and lookup,
 * and by the endpoint's timer. All tokens have the same lifetime, so the map's
 * insertion order is expiry order and a purge only visits what it removes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { randomToken } from '../crypto.js';

/** Longer than any token this daemon issues; refused without hashing. */
const MAX_TOKEN_CHARS = 512;

export class DaemonTokens {
  private readonly key = randomBytes(32);
  /** HMAC of a token → when it expires (ms), in issue order. */
  private readonly live = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private digest(token: string): string {
    return createHmac('sha256', this.key).update(token, 'utf8').digest('base64url');
  }

  /** A fresh random token (32 bytes, URL-safe), valid for the lifetime. */
  issue(): string {
    this.purge();
    const token = randomToken(32);
    this.live.set(this.digest(token), this.now() + this.ttlMs);
    return token;
  }

  /** Whether `presented` is a live token of this endpoint: one HMAC, one lookup. */
  verify(presented: string | undefined): boolean {
    if (!presented || presented.length > MAX_TOKEN_CHARS) return false;
    this.purge();
    const expires = this.live.get(this.digest(presented));
    return expires !== undefined && expires > this.now();
  }

  /** Removes expired tokens (they are at the front of the map). */
  purge(): void {
    const now = this.now();
    for (const [k, expires] of this.live) {
      if (expires > now) break;
      this.live.delete(k);
    }
  }

  get size(): number {
    this.purge();
    return this.live.size;
  }

  clear(): void {
    this.live.clear();
  }
}
