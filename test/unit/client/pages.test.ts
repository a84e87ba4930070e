/**
 * Walking the intern list (src/client/pages.ts) and finding an intern by what a person types
 * (src/client/resolve.ts): pages that do not end are an error, not a loop of requests; an id is
 * asked for directly, as an intern's own key may read its intern but not list interns.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ResponseShapeError } from '../../../src/client/errors.js';
import { internPages } from '../../../src/client/pages.js';
import { matchInterns } from '../../../src/client/resolve.js';
import type { InternList } from '../../../src/contract/intern.js';
import { FakeApi, IDS } from '../../component/fakeApi.js';

async function drain(api: { listInterns: () => Promise<InternList> }): Promise<number> {
  let pages = 0;
  for await (const _ of internPages(api as never, { limit: 10 })) pages++;
  return pages;
}

describe('internPages', () => {
  it('walks every page by its cursor', async () => {
    const api = new FakeApi();
    const seen: string[] = [];
    for await (const data of internPages(api, { limit: 2 })) seen.push(...data.map((i) => i.name));
    expect(seen).toEqual(api.interns.map((i) => i.name));
    expect(api.callsOf('listInterns').map((c) => (c[0] as { starting_after?: string }).starting_after)).toEqual([undefined, IDS.builder, IDS.peer]);
  });

  it('stops with an error when a cursor comes back, or an empty page says there is more', async () => {
    const intern = new FakeApi().interns[0]!;
    let calls = 0;
    const looping = { listInterns: async () => (calls++, { data: [intern], has_more: true, next_cursor: 'same' }) };
    await expect(drain(looping)).rejects.toThrow(ResponseShapeError);
    await expect(drain(looping)).rejects.toThrow(/GET \/interns answered with an unexpected body: its pages do not end/);
    expect(calls).toBe(4); // two pages a walk: the second brings the cursor back
    let n = 0;
    const empty = { listInterns: async () => ({ data: [], has_more: true, next_cursor: `c${n++}` }) };
    await expect(drain(empty)).rejects.toThrow(/an empty page said there were more/);
  });
});

describe('matchInterns', () => {
  it('asks for an id directly, so a key that may not list interns still finds its own', async () => {
    const api = new FakeApi();
    api.listInterns = () => Promise.reject(new ApiError(404, 404, null, false, 'Not found', 'GET /interns'));
    const found = await matchInterns(api, IDS.runner);
    expect(found.byId?.name).toBe('runner');
    expect(api.callsOf('getIntern')).toEqual([[IDS.runner]]);
  });

  it('falls back to names when no intern has the id, and does not ask for a name directly', async () => {
    const api = new FakeApi();
    api.interns[1]!.name = 'bbbbbbbb-0000-4000-8000-00000000000f';
    expect((await matchInterns(api, 'bbbbbbbb-0000-4000-8000-00000000000f')).byName.map((i) => i.id)).toEqual([IDS.builder]);
    await matchInterns(api, 'runner');
    expect(api.callsOf('getIntern')).toEqual([['bbbbbbbb-0000-4000-8000-00000000000f']]);
  });

  it('passes on any other refusal of the direct read', async () => {
    const api = new FakeApi();
    api.getIntern = () => Promise.reject(new ApiError(403, 403, 'forbidden', false, 'No', 'GET /interns/{internId}'));
    await expect(matchInterns(api, IDS.runner)).rejects.toThrow(/No/);
  });
});
