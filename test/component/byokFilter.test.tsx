/** The BYOK list's `/`: the one filter (fuzzy, live, marks, hidden fields) over the page the list holds. */
import { describe, expect, it } from 'vitest';
import { credential } from './fakeApi.js';
import { FakeApi } from './fakeApi.js';
import { renderApp } from './render.js';

/** 60 keys, two pages of 50: bulk-0 to bulk-59, openai and anthropic in turn. */
function twoPages(): FakeApi {
  const api = new FakeApi();
  for (let n = 0; n < 60; n++) api.byok.push(credential({ id: `p${n}`, provider: n % 2 ? 'openai' : 'anthropic', name: `bulk-${n}` }));
  return api;
}
/** The filter's own line (the footer's "/ filter" is not indented). */
const fieldShown = (f: string) => /^[› ] \/ filter/m.test(f);
const rowsOf = (f: string) => f.split('\n').filter((l) => /bulk-\d+/.test(l)).map((l) => /bulk-\d+/.exec(l)![0]);

describe('BYOK list filter (/)', () => {
  it('filters the page loaded as you type, fuzzily, without asking the service, and says it covers that page', async () => {
    const api = twoPages();
    const total = api.byok.length;
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor(`1-50 of ${total}`);
    const asked = api.callsOf('listByok').length;
    await app.press('/');
    // "bk47": b-u-l-k-4-7 in order, fuzzy; bulk-47 is on this page, bulk-57 (also "b..k..7") is not.
    await app.type('bk4');
    // Many on the way there: the title counts them in the plural.
    await app.waitFor((s) => /\b\d+ matches, filtering the 50 of this page/.test(s));
    await app.type('7');
    const f = await app.waitFor((s) => s.includes('filtering the 50 of this page') && rowsOf(s).length > 0 && !rowsOf(s).includes('bulk-5'));
    expect(rowsOf(f)[0]).toBe('bulk-47');
    expect(rowsOf(f)).not.toContain('bulk-57');
    expect(f).toMatch(/› \/ filter +bk47/);
    expect(api.callsOf('listByok').length).toBe(asked);
    // Live: each key narrows at once; esc while typing drops it all.
    await app.press('esc');
    await app.waitFor((s) => rowsOf(s).length >= 10 && !s.includes('filtering') && !fieldShown(s));
  });

  it('opens fresh on /, keeps the filter on enter, and esc on the list clears it', async () => {
    const api = twoPages();
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('1-50 of 62');
    await app.press('/');
    await app.type('Team');
    await app.press('enter');
    let f = await app.waitFor((s) => s.includes('1 match'));
    expect(f).toContain('Team Anthropic');
    await app.press('/');
    // A fresh field (the last text is not added to), still live.
    f = await app.waitFor((s) => /› \/ filter +this page/.test(s));
    await app.type('prod');
    f = await app.waitFor((s) => s.includes('Production OpenAI') && !s.includes('Team Anthropic'));
    await app.press('enter');
    await app.press('esc');
    await app.waitFor((s) => s.includes('Team Anthropic') && s.includes('Production OpenAI') && !fieldShown(s));
  });

  it('shows a hidden field that matched (allowed models) in the NAME column', async () => {
    const api = new FakeApi();
    api.byok.push(credential({ id: 'c3', provider: 'openai', name: 'Restricted', allowed_models: ['openai/gpt-4o-mini'] }));
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('Restricted');
    await app.press('/');
    await app.type('4omini');
    const f = await app.waitFor((s) => s.includes('models: openai/gpt-4o-mini'));
    expect(f).not.toContain('Team Anthropic');
    expect(f).toContain('1 match, filtering all 3');
  });
});
