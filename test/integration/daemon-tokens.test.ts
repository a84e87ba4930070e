/**
 * Defect 4 of issue 13: daemon tokens expire and are purged, and a token is
 * found by a keyed hash lookup, not by comparing against every token (with
 * 50,000 tokens, 40 bad attempts used to freeze the sandbox for seconds).
 */
import type * as crypto from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAEMON_TOKEN_TTL_MS, SUBPROTOCOL } from '../../src/attach/protocol.js';
import { createDaemonHub } from '../../src/sandbox/daemon/index.js';
import type { DaemonHub } from '../../src/sandbox/daemon/types.js';

// Count every hash and HMAC the daemon computes, to see whether a lookup depends on how many tokens exist.
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>();
  return {
    ...real,
    createHash: (...a: Parameters<typeof real.createHash>) => {
      hashes.count++;
      return real.createHash(...a);
    },
    createHmac: (...a: Parameters<typeof real.createHmac>) => {
      hashes.count++;
      return real.createHmac(...a);
    },
  };
});

let hub: DaemonHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

function upgradeStatus(origin: string, token: string | undefined): Promise<number> {
  return new Promise<number>((resolve) => {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/terminal`, [SUBPROTOCOL], { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', () => undefined);
  });
}

describe('daemon tokens (issue 13, defect 4)', () => {
  it('a bad token costs the same with 50,000 live tokens as with one: no scan', async () => {
    hub = createDaemonHub({ host: '127.0.0.1', command: 'exec sleep 600', scratchRoot: mkdtempSync(join(tmpdir(), 'daemon-tok-')) });
    const { origin } = await hub.start({ id: 'i1', name: 'one' });
    const good = hub.issueToken('i1');
    for (let i = 0; i < 50_000; i++) hub.issueToken('i1');

    hashes.count = 0;
    for (let i = 0; i < 40; i++) expect(await upgradeStatus(origin, `bad-token-${i}-${'x'.repeat(40)}`)).toBe(401);
    // A constant amount of hashing per attempt, whatever the number of tokens (a scan did 100,000 per attempt).
    expect(hashes.count).toBeLessThanOrEqual(40 * 4);

    hashes.count = 0;
    expect(await upgradeStatus(origin, good)).toBe(101);
    expect(hashes.count).toBeLessThanOrEqual(4);
  }, 60_000);

  it(`refuses an expired token (after ${DAEMON_TOKEN_TTL_MS / 60_000} minutes) and purges expired ones`, async () => {
    let now = 1_000_000;
    hub = createDaemonHub({ host: '127.0.0.1', command: 'exec sleep 600', scratchRoot: mkdtempSync(join(tmpdir(), 'daemon-tok-')), now: () => now });
    const { origin } = await hub.start({ id: 'i1', name: 'one' });
    const old = hub.issueToken('i1');
    for (let i = 0; i < 99; i++) hub.issueToken('i1');
    expect(hub.inspect('i1')!.tokens).toBe(100);
    now += DAEMON_TOKEN_TTL_MS - 1;
    const fresh = hub.issueToken('i1');
    expect(await upgradeStatus(origin, old)).toBe(101);
    now += 2;
    expect(await upgradeStatus(origin, old)).toBe(401);
    expect(await upgradeStatus(origin, fresh)).toBe(101);
    // Expired tokens are gone, not just refused.
    hub.issueToken('i1');
    expect(hub.inspect('i1')!.tokens).toBe(2);
    now += DAEMON_TOKEN_TTL_MS;
    expect(await upgradeStatus(origin, fresh)).toBe(401);
    expect(hub.inspect('i1')!.tokens).toBe(0);
  });
});
