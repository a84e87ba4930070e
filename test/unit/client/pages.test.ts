/**
 * Walking the intern list (src/client/pages.ts) and finding an intern by what a person types
 * (src/client/resolve.ts): pages that do not end are an error, not a loop of requests; an id is
 * asked for directly, as an intern's own key may read its intern but not list interns.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ResponseShapeError } from '../../../src/client/errors.js';
import { allVaultPages, byokPages, internPages } from '../../../src/client/pages.js';
import { LIMITS } from '../../../src/contract/limits.js';
import { matchByok, matchInterns, severalOf, shortIdLength } from '../../../src/client/resolve.js';
import type { InternList } from '../../../src/contract/intern.js';
import { FakeApi, IDS, credential } from '../../component/fakeApi.js';

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

  it('takes the start of an id (eight characters or more, as lists show ids) when no intern has the reference as its name', async () => {
    const api = new FakeApi();
    api.interns[0]!.id = '3f0c1a2b-0000-4000-8000-00000000000a';
    const start = '3f0c1a2b';
    expect((await matchInterns(api, start)).one?.name).toBe('runner');
    expect((await matchInterns(api, start.toUpperCase())).one?.name).toBe('runner');
    // Shorter, it is a name: a deleted intern's name ("3f0c1a") names no other intern by its id.
    expect((await matchInterns(api, '3f0c1a')).one).toBeNull();
    // The fake's other ids share their first 35 characters: a start they share names none.
    const shared = await matchInterns(api, IDS.builder.slice(0, 8));
    expect(shared.one).toBeNull();
    expect(severalOf(shared)).toHaveLength(4);
    // A name wins over the start of another intern's id.
    api.interns[1]!.name = start;
    expect((await matchInterns(api, start)).one?.id).toBe(IDS.builder);
  });

  it('says which name a reference that names no intern was probably meant to be', async () => {
    const api = new FakeApi();
    expect((await matchInterns(api, 'runer')).near).toBe('runner');
    expect((await matchInterns(api, 'Runner')).near).toBe('runner');
    expect((await matchInterns(api, 'runner')).near).toBeNull();
    expect((await matchInterns(api, 'zzzzzz')).near).toBeNull();
  });

  it('passes on any other refusal of the direct read', async () => {
    const api = new FakeApi();
    api.getIntern = () => Promise.reject(new ApiError(403, 403, 'forbidden', false, 'No', 'GET /interns/{internId}'));
    await expect(matchInterns(api, IDS.runner)).rejects.toThrow(/No/);
  });
});

describe('byokPages', () => {
  it('walks every page by offset until the total, and stops with an error on an empty page short of it', async () => {
    const api = new FakeApi();
    api.byok = Array.from({ length: 230 }, (_, i) => credential({ id: `k${i}`, provider: 'openai' }));
    const seen: string[] = [];
    for await (const data of byokPages(api, {})) seen.push(...data.map((b) => b.id));
    expect(seen).toHaveLength(230);
    expect(api.callsOf('listByok').map((c) => (c[0] as { offset: number }).offset)).toEqual([0, 100, 200]);
    const short = { listByok: async () => ({ data: [], total_count: 3 }) };
    const walk = async () => {
      for await (const _ of byokPages(short as never, {}));
    };
    await expect(walk()).rejects.toThrow(/GET \/byok answered with an unexpected body: an empty page at offset 0 of 3/);
  });
});

describe('matchByok', () => {
  const ID_A = '3f0c1a2b-0000-4000-8000-00000000000a';
  const ID_B = '3f0c9999-0000-4000-8000-00000000000b';
  const keys = () => {
    const api = new FakeApi();
    api.byok = [
      credential({ id: ID_A, provider: 'openai', name: 'ci' }),
      credential({ id: ID_B, provider: 'anthropic', name: 'team' }),
      credential({ id: 'c3', provider: 'groq', name: 'team' }),
    ];
    return api;
  };

  it('asks for an id directly, without listing', async () => {
    const api = keys();
    expect((await matchByok(api, ID_B)).one?.provider).toBe('anthropic');
    expect(api.callsOf('listByok')).toEqual([]);
  });

  it('takes a unique name, or a unique start of an id of eight characters or more, in any case', async () => {
    const api = keys();
    expect((await matchByok(api, 'ci')).one?.id).toBe(ID_A);
    expect((await matchByok(api, '3F0C1A2B')).one?.id).toBe(ID_A);
    expect((await matchByok(api, '3f0c9999')).one?.id).toBe(ID_B);
    expect((await matchByok(api, '3f0c1a2')).one).toBeNull();
  });

  it('names nothing when the reference fits several, or is a start shorter than eight characters', async () => {
    const api = keys();
    expect(severalOf(await matchByok(api, 'team')).map((b) => b.provider)).toEqual(['anthropic', 'groq']);
    api.byok[1]!.id = '3f0c1a2b-9999-4000-8000-00000000000b';
    expect(severalOf(await matchByok(api, '3f0c1a2b'))).toHaveLength(2);
    api.byok[1]!.id = ID_B;
    expect(await matchByok(api, '3f0')).toEqual({ one: null, byName: [], byPrefix: [], near: null, startOf: [] });
    expect(await matchByok(api, 'nope')).toEqual({ one: null, byName: [], byPrefix: [], near: null, startOf: [] });
    // The start of names, typed for one: which names start so (and no "did you mean").
    expect(await matchByok(api, 'te')).toMatchObject({ one: null, near: null, startOf: ['team'] });
    // A reference that names none says which name it was probably meant to be; one that fits several does not.
    expect((await matchByok(api, 'taem')).near).toBe('team');
    expect((await matchByok(api, 'team')).near).toBeNull();
  });

  it('a name wins over the start of another key\'s id', async () => {
    const api = keys();
    api.byok[2]!.name = '3f0c';
    expect((await matchByok(api, '3f0c')).one?.id).toBe('c3');
  });
});

describe('shortIdLength', () => {
  it('is eight characters unless two ids share more, then one past what they share', () => {
    expect(shortIdLength([])).toBe(8);
    expect(shortIdLength(['3f0c1a2b-1', '9a8b7c6d-2'])).toBe(8);
    expect(shortIdLength(['3f0c1a2b-1111', '3f0c1a2b-1234', 'ffff'])).toBe(11);
    // The same id twice: no longer than the id.
    expect(shortIdLength(['abc', 'abc'], 2)).toBe(3);
  });
});

describe('allVaultPages', () => {
  it('asks for the largest pages until has_more is false, and never past the service\'s offset cap', async () => {
    const { maxLimit, maxOffset } = LIMITS.vaultList;
    const asked: number[] = [];
    const three = await allVaultPages(async ({ offset, limit }) => (asked.push(offset), { data: [offset], has_more: offset < 2 * limit }));
    expect(three).toEqual([0, maxLimit, 2 * maxLimit]);
    asked.length = 0;
    await allVaultPages(async ({ offset }) => (asked.push(offset), { data: [offset], has_more: true }));
    expect(Math.max(...asked)).toBeLessThanOrEqual(maxOffset);
    expect(asked).toHaveLength(Math.floor(maxOffset / maxLimit) + 1);
    // An empty page ends the walk even if it says there is more.
    expect(await allVaultPages(async () => ({ data: [], has_more: true }))).toEqual([]);
  });
});
