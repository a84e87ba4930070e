import { describe, expect, it, vi } from 'vitest';
import { FIRST_INTERN_PAGE, prefetchFirstScreen } from '../../../src/client/prefetch.js';
import type { InternApi } from '../../../src/client/types.js';

function fakeApi(apiKey = true) {
  let n = 0;
  const api = {
    baseUrl: 'http://127.0.0.1:1/api/v1',
    configured: { api_key: apiKey, management_key: true, oauth_token: false },
    listInterns: vi.fn(async (query?: object) => ({ data: [], has_more: false, next_cursor: undefined, call: ++n, query })),
    getKeyInfo: vi.fn(async () => ({ label: `key ${++n}` })),
    getIntern: vi.fn(async (id: string) => ({ id })),
  };
  const { api: wrapped, takeFirstPage } = prefetchFirstScreen(api as unknown as InternApi);
  return { api, wrapped, takeFirstPage };
}

describe('prefetchFirstScreen', () => {
  it('asks for the first page and the key at once, and hands each answer to the first matching call only', async () => {
    const { api, wrapped } = fakeApi();
    expect(api.listInterns).toHaveBeenCalledWith({ ...FIRST_INTERN_PAGE });
    expect(api.getKeyInfo).toHaveBeenCalledTimes(1);
    const first = await wrapped.listInterns({ limit: FIRST_INTERN_PAGE.limit, status: undefined });
    expect(api.listInterns).toHaveBeenCalledTimes(1);
    expect((first as unknown as { call: number }).call).toBe(1);
    await wrapped.listInterns({ limit: FIRST_INTERN_PAGE.limit });
    expect(api.listInterns).toHaveBeenCalledTimes(2);
    await wrapped.getKeyInfo();
    await wrapped.getKeyInfo();
    expect(api.getKeyInfo).toHaveBeenCalledTimes(2);
  });

  it('hands the arrived first page over once, for the first frame; then the list asks the service again', async () => {
    const { api, wrapped, takeFirstPage } = fakeApi();
    expect(takeFirstPage()).toBeUndefined(); // not arrived yet
    await new Promise((r) => setTimeout(r, 0));
    expect((takeFirstPage() as unknown as { call: number }).call).toBe(1);
    expect(takeFirstPage()).toBeUndefined();
    await wrapped.listInterns({ ...FIRST_INTERN_PAGE });
    expect(api.listInterns).toHaveBeenCalledTimes(2);
  });

  it('a first call asking something else goes to the service (and the early answer is dropped)', async () => {
    const { api, wrapped } = fakeApi();
    await wrapped.listInterns({ limit: 500 });
    expect(api.listInterns).toHaveBeenLastCalledWith({ limit: 500 }, undefined);
    await wrapped.listInterns({ ...FIRST_INTERN_PAGE });
    expect(api.listInterns).toHaveBeenCalledTimes(3);
  });

  it('a caller whose signal aborts is answered with the abort, as its own request would be', async () => {
    const { wrapped } = fakeApi();
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(wrapped.getKeyInfo({ signal: ac.signal })).rejects.toThrow('gone');
  });

  it('does not ask for the key without an API key, passes other calls through, and leaves no unhandled rejection', async () => {
    const { api, wrapped } = fakeApi(false);
    expect(api.getKeyInfo).not.toHaveBeenCalled();
    expect(await wrapped.getIntern('i1')).toEqual({ id: 'i1' });
    expect(wrapped.configured.api_key).toBe(false);
    const failing = { ...api, listInterns: vi.fn(() => Promise.reject(new Error('unreachable'))) };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const { takeFirstPage } = prefetchFirstScreen(failing as unknown as InternApi);
    await new Promise((r) => setTimeout(r, 10));
    expect(takeFirstPage()).toBeUndefined();
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('settled: waits for an answer that comes within the turns given, and not for one that does not', async () => {
    // An answer that comes on a later turn of the event loop (as one read from a socket does).
    let answer: ((page: object) => void) | undefined;
    const slow = { configured: { api_key: false }, listInterns: vi.fn(() => new Promise((r) => (answer = r))) };
    const early = prefetchFirstScreen(slow as unknown as InternApi);
    setImmediate(() => setImmediate(() => answer!({ data: [], has_more: false })));
    await early.settled(5);
    expect(early.takeFirstPage()).toEqual({ data: [], has_more: false });
    // A service that has not answered: settled gives up after its turns, and the page is not there.
    const never = prefetchFirstScreen({ ...slow, listInterns: vi.fn(() => new Promise(() => undefined)) } as unknown as InternApi);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    await never.settled(5);
    clearInterval(counting);
    expect(never.takeFirstPage()).toBeUndefined();
    expect(turns).toBeLessThan(5);
    // A failed answer settles it too, at once.
    const failed = prefetchFirstScreen({ ...slow, listInterns: vi.fn(() => Promise.reject(new Error('down'))) } as unknown as InternApi);
    await new Promise((r) => setImmediate(r));
    await failed.settled(1_000_000);
    expect(failed.takeFirstPage()).toBeUndefined();
  });
});
