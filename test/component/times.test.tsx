/** T: exact times or how long ago, in the lists and the details, and the footer says which. */
import { afterEach, describe, expect, it } from 'vitest';
import { exactTime } from '../../src/tui/format.js';
import { setExactTimes } from '../../src/tui/times.js';
import { FakeApi, IDS } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';

afterEach(() => setExactTimes(false));

describe('exact times on demand (T)', () => {
  it('switches the intern list and the details between how long ago and the exact time', async () => {
    const api = new FakeApi();
    const runner = api.interns.find((i) => i.id === IDS.runner)!;
    const app = renderApp({ api });
    // Wide enough for the footer to reach the keys that work everywhere.
    app.resize({ columns: 300, rows: 30 });
    let f = await app.waitFor('runner');
    expect(f).toMatch(/runner.*2d ago/);
    expect(footerOf(f)).toContain('T times: ago');
    await app.press('T');
    f = await app.waitFor(exactTime(runner.updated_at));
    expect(footerOf(f)).toContain('T times: exact');
    // The details, exact too while it is on.
    await app.press('enter');
    f = await app.waitFor(`created`);
    await app.waitFor(exactTime(runner.created_at));
    await app.press('T');
    f = await app.waitFor((s) => /created\s+3d ago/.test(s) && /updated\s+2d ago/.test(s));
    expect(f).not.toContain(runner.created_at);
  });

  it('switches the BYOK list and its details', async () => {
    const api = new FakeApi();
    const c1 = api.byok[0]!;
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('5d ago');
    await app.press('T');
    await app.waitFor(exactTime(c1.created_at));
    await app.press('enter');
    await app.waitFor((s) => s.includes('credential') && s.includes(exactTime(c1.created_at)));
    await app.press('T');
    const f = await app.waitFor((s) => /created\s+5d ago/.test(s));
    expect(f).not.toContain(exactTime(c1.created_at));
  });
});
