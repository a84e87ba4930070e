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
      // The page waits for the outcome: the caller has the code, and answers once it is exchanged.
      const page = get(`${cb.url}?code=the-code&state=st`);
      expect(await cb.code).toBe('the-code');
      expect((await get(`${cb.url}?code=again&state=st`)).status).toBe(410);
      await cb.close(true);
      const ok = await page;
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('You are signed in');
      expect(ok.text).not.toContain('the-code');
    } finally {
      await cb.close();
    }
  });

  it('does not say "signed in" for a code the caller could not exchange', async () => {
    const cb = await listenForCallback();
    const page = get(`${cb.url}?code=bogus`);
    expect(await cb.code).toBe('bogus');
    await cb.close();
    const failed = await page;
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('Sign-in failed');
    expect(failed.text).not.toContain('signed in');
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
