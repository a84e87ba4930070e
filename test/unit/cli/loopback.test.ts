/** The loopback listener of a browser sign-in: one code, state checked, errors end the wait, nothing else accepted. */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { listenForCallback } from '../../../src/cli/auth/loopback.js';

const get = async (url: string) => {
  const res = await request(url.replace('localhost', '127.0.0.1'));
  return { status: res.statusCode, text: await res.body.text() };
};

describe('listenForCallback', () => {
  it('answers a localhost callback URL on an ephemeral port and resolves with the code, once', async () => {
    const cb = await listenForCallback({ state: 'st' });
    try {
      expect(cb.url).toMatch(/^http:\/\/localhost:\d+\/callback$/);
      expect((await get(`${cb.url.replace('/callback', '/other')}?code=x`)).status).toBe(404);
      expect((await get(`${cb.url}?code=x&state=wrong`)).status).toBe(400);
      const ok = await get(`${cb.url}?code=the-code&state=st`);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('You are signed in');
      expect(ok.text).not.toContain('the-code');
      expect(await cb.code).toBe('the-code');
      expect((await get(`${cb.url}?code=again&state=st`)).status).toBe(410);
    } finally {
      await cb.close();
    }
  });

  it('an error callback ends the wait with that error, its text cleaned', async () => {
    const cb = await listenForCallback();
    try {
      await get(`${cb.url}?error=access_denied%1b%5b31m`);
      await expect(cb.code).rejects.toThrow(/answered with an error: access_denied\?/);
    } finally {
      await cb.close();
    }
  });

  it('ends on the signal and on the timeout', async () => {
    const ac = new AbortController();
    const a = await listenForCallback({ signal: ac.signal });
    ac.abort();
    await expect(a.code).rejects.toThrow('interrupted');
    await a.close();
    const b = await listenForCallback({ timeoutMs: 10 });
    await expect(b.code).rejects.toThrow(/no answer from the browser/);
    await b.close();
  });
});
