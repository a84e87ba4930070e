import { describe, expect, it } from 'vitest';
import { deferredApi } from '../../../src/client/deferred.js';
import type { InternApi } from '../../../src/client/types.js';

const configured = { api_key: true, management_key: false, oauth_token: true };

describe('deferredApi', () => {
  it('answers baseUrl and configured at once, and calls wait for the real client', async () => {
    let resolve!: (api: InternApi) => void;
    const api = deferredApi(new Promise((r) => (resolve = r)), { baseUrl: 'http://127.0.0.1', configured });
    expect(api.configured).toEqual(configured);
    expect(api.baseUrl).toBe('http://127.0.0.1');
    const call = api.getIntern('abc');
    let settled = false;
    void call.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    resolve({ getIntern: (id: string) => Promise.resolve({ id, name: 'n' }) } as unknown as InternApi);
    await expect(call).resolves.toEqual({ id: 'abc', name: 'n' });
  });

  it('a failed start rejects each call with its error', async () => {
    const api = deferredApi(Promise.reject(new Error('sandbox did not start')), { baseUrl: 'http://127.0.0.1', configured });
    await expect(api.listInterns()).rejects.toThrow('sandbox did not start');
  });
});
