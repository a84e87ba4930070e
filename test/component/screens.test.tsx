/** Every screen through the whole app on a fake API: what a person sees, and what reaches the service. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ApiError } from '../../src/client/errors.js';
import { FakeApi, IDS, WS_SIDE, intern } from './fakeApi.js';
import { footerOf, renderApp } from './render.js';
import { NetworkError } from '../../src/client/errors.js';
import { pasteChunk } from '../../src/tui/keyParse.js';
import { AGE_TICK_MS } from '../../src/tui/hooks/useTick.js';

/** Runs `body` on a fake setTimeout clock that still moves with real time (polling and backoff advanced by hand), and puts the real one back. */
async function onFakeClock(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

/** Daemon access answers as the service does until the intern runs, then 503: a test sees the attach begin without a terminal of its own. */
function refuseAccessOnceRunning(api: FakeApi): void {
  const access = api.getDaemonAccess.bind(api);
  api.getDaemonAccess = async (id: string) => {
    await access(id);
    throw new ApiError(503, 503, null, true, 'Service unavailable', 'GET /interns/{internId}/daemon');
  };
}

afterEach(() => cleanup());

describe('intern list', () => {
  it('shows every column, the yours marker and "workspace default" for no model', async () => {
    const app = renderApp();
    const f = await app.waitFor('sleeper');
    expect(f).toMatch(/★ runner +● running +anthropic\/claude-sonn/);
    expect(f).toMatch(/★ broken +✖ failed +workspace default/);
    expect(f).toMatch(/^ {2,}peer-bot/m); // not created by this caller: no star
    expect(f).toContain('2d ago');
    // The title says what the star means.
    expect(f).toMatch(/^Interns .* · ★ yours$/m);
  });

  it('draws a first page the CLI already fetched in its first frame, without asking again', async () => {
    const api = new FakeApi();
    const page = { data: [intern({ id: IDS.runner, name: 'early-bird', status: 'running' })], has_more: false, next_cursor: null };
    let taken = 0;
    const app = renderApp({ api, options: { takeFirstPage: () => (taken++ === 0 ? (page as never) : undefined) } });
    const f = await app.waitFor('early-bird');
    expect(f).not.toContain('Loading');
    expect(f).not.toContain('sleeper');
    expect(api.callsOf('listInterns')).toEqual([]);
    expect(taken).toBe(1);
  });

  it('filters with / and by status with f, and opens the selected intern', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('/');
    await app.type('slee');
    await app.press('enter');
    const f = await app.waitFor((s) => !s.includes('runner'));
    expect(f).toMatch(/› ?★ sleeper/);
    await app.press('/');
    for (let i = 0; i < 4; i++) await app.press('backspace');
    await app.press('enter');
    await app.waitFor('runner');
    // f cycles through the statuses, running first, then failed; the list asks the service for the chosen one.
    const statusOf = (s: string) => /status: (\S+)/.exec(s)?.[1];
    expect(statusOf(app.frame())).toBe('all');
    await app.press('f');
    await app.waitFor('status: running');
    await app.press('f');
    await app.waitFor('status: failed');
    await app.press('F');
    await app.waitFor('status: running');
    for (let i = 0; i < 20 && statusOf(app.frame()) !== 'running'; i++) {
      const before = statusOf(app.frame());
      await app.press('f');
      await app.waitFor((s) => statusOf(s) !== before);
    }
    const f2 = await app.waitFor((s) => s.includes('status: running') && s.includes('peer-bot'));
    expect(f2).not.toContain('sleeper');
    expect(f2).toContain('runner');
    expect(app.api.callsOf('listInterns').some(([q]) => JSON.stringify(q).includes('running'))).toBe(true);
    // F goes back the other way: from "running" to the filter before it, and f returns.
    await app.press('F');
    const back = statusOf(await app.waitFor((s) => statusOf(s) !== 'running'));
    await app.press('f');
    await app.waitFor('status: running');
    await app.press('F');
    await app.waitFor(`status: ${back}`);
  });

  it('the cursor stays on its intern when a reload puts another above it, and when a filter is cleared', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor(/^›.*runner /m);
    await app.press('j', 'j');
    const selected = /^›[★ ] ([\w-]+) /m.exec(await app.waitFor(/^›[★ ] (?!runner )/m))![1]!;
    api.interns.unshift(intern({ id: 'cccccccc-0000-4000-8000-000000000009', name: 'newcomer' }));
    await app.press('r');
    let f = await app.waitFor((s) => s.includes('newcomer') && !s.includes('refreshing'));
    expect(/^›[★ ] ([\w-]+) /m.exec(f)![1]).toBe(selected);
    // Filtered down to peer-bot and back: still on peer-bot, not on the row it had in the filter.
    await app.press('/');
    await app.type('peer');
    await app.press('enter');
    await app.waitFor(/^›[★ ] peer-bot /m);
    await app.press('esc');
    f = await app.waitFor((s) => s.includes('newcomer') && s.includes('sleeper'));
    expect(f).toMatch(/^›[★ ] peer-bot /m);
  });

  it("a flash stays with the screen it was said on: the list's 'copied' does not follow enter to the details", async () => {
    const app = renderApp();
    await app.waitFor(/^›.*runner /m);
    await app.press('y');
    await app.waitFor('copied the id of runner');
    await app.press('enter');
    const f = await app.waitFor('Keeps CI green.');
    expect(f).not.toContain('copied the id');
  });

  it('f drops the rows of the old status at once: enter pressed before the new page comes opens nothing of the old filter', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor(/^›.*runner /m);
    const list = api.listInterns.bind(api);
    api.listInterns = async (query) => {
      await new Promise((r) => setTimeout(r, 200));
      return list(query);
    };
    await app.press('f', 'enter');
    const f = await app.waitFor((s) => /status: (?!all)\S+/.test(s) && !s.includes('Loading'));
    // Still the list: enter met no row of the old status.
    expect(f).toMatch(/^Interns/m);
    expect(f).not.toContain(IDS.runner);
  });

  it('while the filter is typed the footer lists its keys; esc on the filtered list clears it', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('/');
    let f = await app.waitFor((s) => footerOf(s).startsWith('enter run / apply / confirm  esc close / cancel'));
    expect(footerOf(f)).not.toContain('j/k move');
    await app.type('zzz');
    await app.press('enter');
    // Nothing to move over or open: the footer offers neither.
    f = await app.waitFor((s) => s.includes('Nothing matches "zzz"') && footerOf(s).startsWith('/ filter'));
    expect(footerOf(f)).not.toMatch(/j\/k move|enter open/);
    await app.press('esc');
    f = await app.waitFor((s) => s.includes('sleeper') && s.includes('runner') && footerOf(s).startsWith('j/k move'));
    expect(f).not.toContain('zzz');
  });

  it('comes back from an intern as it was left: the filter, the status filter and the cursor', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('/');
    await app.type('er');
    await app.press('enter');
    await app.waitFor((s) => !s.includes('broken'));
    await app.press('j', 'j', 'j');
    const before = await app.waitFor(/› ?★ sleeper/);
    expect(before).toMatch(/› ?★ sleeper/);
    await app.press('enter');
    await app.waitFor(IDS.sleeper);
    await app.press('esc');
    const back = await app.waitFor((s) => s.includes('/ filter') && /› ?★ sleeper/.test(s));
    // The label and the text apart: the label once filled its whole width ('/ filterer').
    expect(back).toMatch(/\/ filter +er/);
    expect(back).not.toContain('broken');
  });

  it('an error line is shown once, and a successful refresh clears it', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    const list = api.listInterns.bind(api);
    api.listInterns = () => Promise.reject(new ApiError(500, 500, 'internal', true, 'Injected fault', 'GET /interns'));
    await app.press('r');
    const failed = await app.waitFor('Injected fault');
    expect(failed.split('Injected fault').length).toBe(2);
    api.listInterns = list;
    await app.press('r');
    await app.waitFor((s) => !s.includes('Injected fault') && s.includes('sleeper'));
  });

  it('opens the selected intern with enter', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('j', 'enter');
    await app.waitFor(IDS.builder);
  });
});

describe('the intern list while the service is down', () => {
  it('back from details, shows the rows it had with the error under them; with no rows, offers no intern keys', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('enter');
    await app.waitFor('Keeps CI green.');
    api.listInterns = async () => {
      throw new NetworkError('GET /interns', 'ECONNREFUSED', false, '127.0.0.1:9');
    };
    await app.press('q');
    const f = await app.waitFor((s) => s.includes('sleeper') && s.includes('ECONNREFUSED'));
    expect(f).toMatch(/Interns {2}\d+ ·/);
    expect(f).not.toMatch(/Interns {2}0 ·/);
    cleanup();
    const empty = renderApp({ api });
    const g = await empty.waitFor('ECONNREFUSED');
    // A failed first load is not "0 interns".
    expect(g).toMatch(/^Interns {2}status: all \(f\)/m);
    expect(footerOf(g)).not.toContain('e edit');
    expect(footerOf(g)).not.toContain('t chat');
  });
});

describe('keys typed ahead', () => {
  it('back from the details, the list shows the rows it had at once: `q j enter` typed together opens the next intern', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor(/^›.*runner /m);
    await app.press('enter');
    await app.waitFor(IDS.runner);
    // The list's reload is slow now: the keys arrive before its answer.
    const list = api.listInterns.bind(api);
    api.listInterns = async (...args) => {
      await new Promise((r) => setTimeout(r, 300));
      return list(...args);
    };
    await app.press('q', 'j', 'enter');
    // The row under runner, the list's first.
    const f = await app.waitFor(IDS.builder);
    expect(f).not.toContain(IDS.runner);
  });
});

describe('intern list paging', () => {
  it('loads the next page with the cursor as the selection nears the end', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 70; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api });
    await app.waitFor('more below: scroll to load');
    const first = api.callsOf('listInterns')[0]![0] as { limit: number };
    expect(first.limit).toBeLessThan(75);
    // One G: every page is loaded and the cursor goes with them to the very last row.
    await app.press('G');
    const f = await app.waitFor(/^›.*bulk-70 /m);
    expect(f).toMatch(/Interns {2}75 ·/);
    expect(f).not.toContain('more below');
  });

  it('past one page of the service, a refresh while something moves keeps the rows loaded after it and walks no page again', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      // The demo's interns come first, some of them moving (queued, provisioning): the list polls.
      for (let n = 1; n <= 1200; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
      const total = api.interns.length;
      const app = renderApp({ api });
      await app.waitFor('more below: scroll to load');
      await app.press('G');
      await app.waitFor(/^›.*bulk-1200 /m);
      const walked = () => api.callsOf('listInterns').filter(([q]) => (q as { starting_after?: string } | undefined)?.starting_after).length;
      const pages = walked();
      const polls = () => api.callsOf('listInterns').filter(([q]) => !(q as { starting_after?: string } | undefined)?.starting_after).length;
      const before = polls();
      api.interns[0]!.updated_at = new Date().toISOString();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(polls()).toBeGreaterThan(before);
      const f = await app.waitFor(/^›.*bulk-1200 /m);
      expect(f).toMatch(new RegExp(`Interns {2}${total} ·`));
      expect(f).not.toContain('looking through the rest');
      expect(walked()).toBe(pages);
      // A new intern at the top (newest first) pushes a row past the first page: it is kept.
      api.interns.unshift(intern({ id: 'cccccccc-0000-4000-8000-000000000001', name: 'newcomer', status: 'queued' }));
      await vi.advanceTimersByTimeAsync(20_000);
      const g = await app.waitFor((s) => new RegExp(`Interns {2}${total + 1} ·`).test(s));
      expect(g).toMatch(/^›.*bulk-1200 /m);
    });
  });

  it('G pressed while the list reloads loads every page after the reload, none missing', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 300; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const total = api.interns.length;
    const app = renderApp({ api });
    await app.waitFor('more below: scroll to load');
    // Two pages loaded, then a slow reload with G pressed under it.
    for (let i = 0; i < 3; i++) await app.press('\x1b[6~');
    await app.waitFor((s) => /Interns {2}(1\d\d|[5-9]\d)\+ ·/.test(s));
    // The reload answers before a next page asked for under it, which follows the old rows' cursor.
    const list = api.listInterns.bind(api);
    api.listInterns = async (query) => {
      await new Promise((r) => setTimeout(r, query?.starting_after ? 300 : 100));
      return list(query);
    };
    await app.press('r');
    await app.press('G');
    const f = await app.waitFor(/^›.*bulk-300 /m);
    expect(f).toMatch(new RegExp(`Interns {2}${total} ·`));
  });

  it('f with pages loaded pages the new status from its own start, never from the old status\'s cursor', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 60; n++) api.interns.unshift(intern({ id: `ffffffff-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-f-${n}`, status: 'failed' }));
    for (let n = 1; n <= 60; n++) api.interns.unshift(intern({ id: `eeeeeeee-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-s-${n}`, status: 'stopped' }));
    // Cursors are places in the whole list, newest first, as the sandbox's are: one taken from
    // another status's page still pages, from the wrong place.
    api.listInterns = async (query) => {
      api.calls.push({ method: 'listInterns', args: [query] });
      const all = api.interns;
      const from = query?.starting_after ? all.findIndex((i) => i.id === query.starting_after) + 1 : 0;
      const matching = all.slice(from).filter((i) => !query?.status?.length || query.status.includes(i.status));
      const data = matching.slice(0, query?.limit ?? 50);
      const has_more = matching.length > data.length;
      return has_more ? { data, has_more, next_cursor: data.at(-1)!.id } : { data, has_more };
    };
    const app = renderApp({ api });
    await app.waitFor(/^›/m);
    // all → running → failed, then on past destroy_failed to stopped.
    for (let i = 0; i < 2; i++) await app.press('f');
    await app.waitFor((s) => s.includes('status: failed') && s.includes('bulk-f-'));
    await app.press('f', 'f');
    await app.waitFor((s) => s.includes('status: stopped') && s.includes('bulk-s-'));
    // No page of the new status followed the old status's cursor.
    const failedIds = new Set(api.interns.filter((i) => i.status === 'failed').map((i) => i.id));
    expect(api.callsOf('listInterns').filter(([q]) => (q as { starting_after?: string; status?: string[] }).status?.includes('stopped') && failedIds.has((q as { starting_after?: string }).starting_after ?? ''))).toEqual([]);
    await app.press('G');
    const stopped = api.interns.filter((i) => i.status === 'stopped').length;
    const f = await app.waitFor(new RegExp(`Interns {2}${stopped} · status: stopped`));
    expect(f).not.toContain('bulk-f-');
  });

  it('back from the details of an intern past the first page, the cursor is on it again once its page is loaded', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 200; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api });
    await app.waitFor('more below: scroll to load');
    for (let i = 0; i < 6; i++) await app.press('\x1b[6~');
    const at = /^›[★ ] (bulk-\d+) /m.exec(await app.waitFor(/^›[★ ] bulk-(\d{3}|[6-9]\d) /m))![1]!;
    await app.press('enter');
    await app.waitFor('id ');
    await app.press('q');
    await app.waitFor(new RegExp(`^›[★ ] ${at} `, 'm'));
  });

  it('a filter looks through every page, not the loaded one alone', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 120; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api });
    await app.waitFor('more below: scroll to load');
    expect(app.frame()).not.toContain('bulk-118');
    await app.press('/');
    await app.type('bulk-118');
    const f = await app.waitFor((s) => /^[› ][★ ] bulk-118 /m.test(s));
    expect(f).toMatch(/Interns {2}1 of \d+/);
    expect(api.callsOf('listInterns').some(([q]) => (q as { starting_after?: string } | undefined)?.starting_after)).toBe(true);
    await app.waitFor((s) => !s.includes('looking through the rest'));
  });

  it('fills the pane with rows: a line not shown (the filter, "more below", an error) leaves no blank row', async () => {
    const api = new FakeApi();
    for (let n = 1; n <= 70; n++) api.interns.push(intern({ id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `bulk-${n}` }));
    const app = renderApp({ api });
    await app.waitFor('more below');
    app.resize({ rows: 16 });
    // 16 rows: the header, its rule, the title, the table's header, 9 rows, "more below", the footer (Ink keeps the last line).
    let lines = (await app.waitFor((s) => s.split('\n').length === 15)).split('\n');
    expect(lines.at(-2)).toBe('  more below: scroll to load');
    expect(lines.slice(4, -2).every((l) => /^[› ][★ ] \S/.test(l))).toBe(true);
    await app.press('/');
    await app.type('bulk');
    lines = (await app.waitFor((s) => s.includes('/ filter') && s.includes('bulk-1 '))).split('\n');
    expect(lines).toHaveLength(15);
    expect(lines.slice(5, -2).every((l) => /^[› ][★ ] bulk-\d+/.test(l))).toBe(true);
  });
});

describe('details on a short terminal', () => {
  it("a credential's facts scroll with j/k and G, say how many lines are left out, and its delete question stays on screen", async () => {
    const app = renderApp({ initial: { name: 'byokDetails', id: 'c1' } });
    app.resize({ columns: 60, rows: 15 });
    let f = await app.waitFor((s) => /↓ \d+ more lines \(j\/k scroll\)/.test(s) && footerOf(s).includes('j/k move'));
    expect(f).not.toContain('allowed key hashes');
    await app.press('G');
    f = await app.waitFor((s) => s.includes('allowed key hashes') && /↑ \d+ more lines/.test(s));
    expect(f).toContain('The raw key is write-only');
    await app.press('k');
    await app.waitFor(/↑ \d+ ↓ 1 more lines/);
    await app.press('D');
    f = await app.waitFor('Its key material is wiped');
    expect(f).toMatch(/\(y\/n\)/);
    // The question takes every key: j is no scroll while it is asked.
    const at = /↑ (\d+)/.exec(f)?.[1];
    await app.press('j');
    await app.press('n');
    f = await app.waitFor((s) => !s.includes('Its key material is wiped'));
    expect(/↑ (\d+)/.exec(f)?.[1]).toBe(at);
    // Tall enough for everything: no line about more, and no scroll keys in the footer.
    app.resize({ columns: 100, rows: 40 });
    f = await app.waitFor((s) => s.includes('allowed key hashes') && s.includes('id  ') && !footerOf(s).includes('j/k move'));
    expect(f).not.toContain('more lines');
  });

  it("a failed intern's long failure gives up rows to the typed-name delete question, which stays whole on screen", async () => {
    const api = new FakeApi();
    Object.assign(api.interns.find((i) => i.id === IDS.sleeper)!, { status: 'failed', last_failure_message: `the machine image ${'registry.example.internal/interns/base-image:2025.01.01-sha256-0123456789abcdef '.repeat(4)}could not be pulled` });
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    app.resize({ columns: 60, rows: 20 });
    let f = await app.waitFor('✖ the machine');
    // The header cuts it with "…"; the body has it whole (scrolled to).
    expect(f.split('\n').filter((l) => /\S…\s*$/.test(l)).length).toBeGreaterThan(0);
    await app.press('G');
    f = await app.waitFor('not be pulled');
    // Wrapped by words, no row of it starts with the space it broke at.
    expect(f.split('\n').filter((l) => /^ {16} \S/.test(l))).toEqual([]);
    await app.press('g');
    app.resize({ columns: 40, rows: 12 });
    await app.waitFor((s) => (s.split('\n')[1] ?? '').length === 40);
    await app.press('D');
    // Asked above the name, without the icon: the box whole, its note and a wrong name's error too.
    f = await app.waitFor('Type its name');
    expect(f).toContain('This cannot be undone');
    expect(f).toMatch(/^╰─+╯$/m);
    await app.type('sleepe');
    await app.press('enter');
    f = await app.waitFor('that is not "sleeper": nothing');
    expect(f).toMatch(/^╰─+╯$/m);
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
  });

  it('settles at every height: the body is measured at its own height even when its pane leaves it a row or two', async () => {
    const api = new FakeApi();
    Object.assign(api.interns.find((i) => i.id === IDS.sleeper)!, {
      status: 'failed',
      description: 'A description long enough to wrap over several rows of a narrow terminal, '.repeat(3),
      instructions: Array.from({ length: 130 }, (_, i) => `rule ${i + 1}`).join('\n'),
      last_failure_message: `Provisioning failed at step 3 of 4 (Installing tools): ${'the package mirror answered 503 '.repeat(6)}END-OF-FAILURE`,
    });
    for (const [columns, rows] of [[80, 10], [60, 15], [45, 15], [40, 11], [100, 10]] as const) {
      const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
      app.resize({ columns, rows });
      await app.waitFor((s) => /↓ \d+ more lines/.test(s) && (s.split('\n')[1] ?? '').length === columns);
      // Still alive and scrolling (a render loop ends the app with React's "Maximum update depth").
      await app.press('G');
      let f = await app.waitFor((s) => /↑ \d+ more lines/.test(s) || /Maximum update depth/.test(s));
      expect(f, `${columns}x${rows}`).not.toMatch(/Maximum update depth/);
      await app.press('D');
      await app.waitFor('Type its name');
      await app.press('esc');
      await app.press('g');
      f = await app.waitFor((s) => (!s.includes('Type its name') && /↓ \d+ more lines/.test(s)) || /Maximum update depth/.test(s));
      expect(f, `${columns}x${rows} after the question`).not.toMatch(/Maximum update depth/);
      app.unmount();
    }
  });

  it('the connections and the feature check scroll on a short terminal', async () => {
    const app = renderApp({ initial: { name: 'connections', id: IDS.runner } });
    app.resize({ columns: 40, rows: 12 });
    let f = await app.waitFor(/↓ \d+ more lines/);
    expect(f).not.toContain('Features come from');
    await app.press('G');
    f = await app.waitFor('Features come from');
    expect(f).toContain('Connections of runner');
  });

  it("an intern's fields scroll when the pane is too short for them, instead of being cut unseen", async () => {
    const app = renderApp({ initial: { name: 'intern', id: IDS.runner } });
    app.resize({ columns: 60, rows: 15 });
    let f = await app.waitFor(/↓ \d+ more lines \(j\/k scroll\)/);
    expect(f).not.toContain('description');
    await app.press('G');
    f = await app.waitFor('description');
    expect(f).toMatch(/↑ \d+ more lines/);
    // The palette opened over it is drawn whole: the body is not clipped over it (Ink clips to the innermost box).
    await app.press(':');
    await app.type('open runner');
    f = await app.waitFor(/│ › : open runner +│/);
  });
});

describe('intern details', () => {
  it('shows every field with full ids', async () => {
    const app = renderApp({ initial: { name: 'intern', id: IDS.runner } });
    const f = await app.waitFor(IDS.runner);
    for (const text of ['anthropic/claude-sonnet-4', 'runner.interns.test', 'Keeps CI green.', 'Watch main.', 'File issues.', '11111111-2222-4333-8444-555555555555']) expect(f).toContain(text);
  });

  it('a failed action names its own key to try again, not r (which only reloads)', async () => {
    const api = new FakeApi();
    api.provisionIntern = () => Promise.reject(new ApiError(503, 503, null, true, 'Upstream unavailable', 'POST /interns/{internId}/provision'));
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    await app.waitFor(IDS.sleeper);
    await app.press('p');
    const f = await app.waitFor('p: try again');
    expect(f).not.toContain('r: try again');
    // The key is named once, on the retry line, not again in the hint.
    expect(f).not.toContain('Press');
  });

  it('the instructions are drawn whole in the details, which scroll to them; past a hundred lines the label says how many more', async () => {
    const api = new FakeApi();
    api.interns[0]!.instructions = Array.from({ length: 30 }, (_, i) => `rule ${i + 1}`).join('\n') + '\n';
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    app.resize({ columns: 100, rows: 40 });
    let f = await app.waitFor((s) => s.includes('rule 18') && /↓ \d+ more lines/.test(s));
    expect(f).toContain('instructions:');
    expect(f).not.toContain('rule 30');
    await app.press('G');
    f = await app.waitFor('rule 30');
    // The box's bottom rule is drawn above the line about more: nothing is cut off the pane.
    expect(f).toMatch(/└─+┘\n.*↑ \d+ more lines/);
    app.unmount();
    // (A final line break starts no line of its own: 150 lines, not 151.)
    api.interns[0]!.instructions = Array.from({ length: 150 }, (_, i) => `rule ${i + 1}`).join('\n') + '\n';
    const long = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    long.resize({ columns: 100, rows: 40 });
    await long.waitFor('instructions (150 lines, the first 100 below; e shows them all):');
    await long.press('G');
    f = await long.waitFor('rule 100');
    expect(f).not.toContain('rule 101');
  });

  it('on 24 rows the delete prompt is asked above the name, and the facts scroll under it', async () => {
    const app = renderApp({ initial: { name: 'intern', id: IDS.runner } });
    app.resize({ columns: 80, rows: 24 });
    await app.waitFor('Watch main.');
    await app.press('D');
    const f = await app.waitFor('Type its name');
    expect(f.indexOf('Type its name')).toBeLessThan(f.indexOf('● running'));
    expect(f).toMatch(/↓ \d+ more lines/);
    expect(footerOf(f)).toContain('esc');
    await app.press('esc');
    await app.waitFor((s) => s.includes('Watch main.') && !s.includes('Type its name'));
  });


  it('draws the progress of a provisioning intern and the failure of a failed one, or of a teardown that failed', async () => {
    const app = renderApp({ initial: { name: 'intern', id: IDS.builder } });
    expect(await app.waitFor('Pulling the image')).toContain('(2 of 5)');
    cleanup();
    const failed = renderApp({ initial: { name: 'intern', id: IDS.broken } });
    expect(await failed.waitFor('Image pull failed')).toContain('registry answered 503');
    cleanup();
    // A teardown's failure too (the sandbox now reports one, as spec 2.1's delete rule needs).
    const api = new FakeApi();
    Object.assign(api.interns.find((i) => i.id === IDS.broken)!, { status: 'destroy_failed', last_failure_message: 'workspace_archive_failed: the archive store refused' });
    const teardown = renderApp({ api, initial: { name: 'intern', id: IDS.broken } });
    expect(await teardown.waitFor('workspace_archive_failed')).toContain('the archive store refused');
  });

  it('provisions with p and suspends with s after a y', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    await app.waitFor(IDS.sleeper);
    await app.press('p');
    await app.waitFor(() => api.callsOf('provisionIntern').length === 1);
    cleanup();
    const again = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await again.waitFor(IDS.runner);
    await again.press('s');
    await again.waitFor(/\(y\/n\)|y confirm/);
    expect(api.callsOf('suspendIntern')).toHaveLength(0);
    await again.press('y');
    await again.waitFor(() => api.callsOf('suspendIntern').length === 1);
  });

  it('offers p only where provisioning works and s only where suspending does; pressed elsewhere, says why and sends nothing', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    // At 80 columns too: the status's own action comes first, before the keys every intern has.
    app.resize({ columns: 80 });
    let f = await app.waitFor((s) => s.includes(IDS.sleeper) && footerOf(s).startsWith('p provision'));
    expect(footerOf(f)).not.toContain('s suspend');
    await app.press('s');
    f = await app.waitFor('sleeper is stopped: only a running intern can be suspended');
    expect(f).not.toContain('(y/n)');
    expect(api.callsOf('suspendIntern')).toHaveLength(0);
    cleanup();
    const running = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    f = await running.waitFor(IDS.runner);
    expect(footerOf(f)).not.toContain('p provision');
    await running.press('p');
    await running.waitFor('runner is running: to provision it again, suspend it first (s)');
    expect(api.callsOf('provisionIntern')).toHaveLength(0);
  });

  it('deletes only when the typed name matches, keeping a wrong name to correct', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor(IDS.runner);
    await app.press('D');
    await app.waitFor('Type its name');
    await app.type('runne');
    await app.press('enter');
    await app.waitFor('nothing was deleted');
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
    await app.type('r');
    await app.waitFor((s) => !s.includes('nothing was deleted'));
    await app.press('enter');
    await app.waitFor(() => api.callsOf('deleteIntern').length === 1);
    expect(api.callsOf('deleteIntern')[0]).toEqual([IDS.runner]);
  });

  it('D on an intern being deleted says so and asks nothing, on its details and in the list', async () => {
    const api = new FakeApi();
    api.interns.find((i) => i.id === IDS.builder)!.status = 'destroying';
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.builder } });
    await app.waitFor(IDS.builder);
    await app.press('D');
    const f = await app.waitFor('builder is being deleted already');
    expect(f).not.toContain('Type its name');
    cleanup();
    const list = renderApp({ api });
    await list.waitFor('builder');
    await list.press('/');
    await list.type('builder');
    await list.press('enter');
    await list.waitFor(/^›.*builder/m);
    await list.press('D');
    await list.waitFor('builder is being deleted already');
    expect(list.frame()).not.toContain('Type its name');
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
  });

  it('takes a pasted name with its line break as the name', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor(IDS.runner);
    await app.press('D');
    await app.waitFor('Type its name');
    await app.press(pasteChunk('runner\n'));
    await app.press('enter');
    await app.waitFor(() => api.callsOf('deleteIntern').length === 1);
  });

  it('a deleted intern goes back to the list it was opened from, and what was opened on the way goes too', async () => {
    const api = new FakeApi();
    // Deleted for good at once: its details find it gone and leave.
    api.deleteIntern = async (id: string) => {
      api.interns = api.interns.filter((i) => i.id !== id);
    };
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    for (const name of ['sleeper', 'runner']) {
      await app.press(':');
      await app.type(`open ${name}`);
      await app.press('enter');
      await app.waitFor(`${name} ★ yours`);
    }
    await app.press('D');
    await app.waitFor('Type its name');
    await app.type('runner');
    await app.press('enter');
    await app.waitFor((s) => s.includes('deleted runner') && s.includes('Interns  4'), 10_000);
    // esc on the list stays there: sleeper's details, opened before, are not under it any more.
    await app.press('esc');
    await app.press('?');
    const f = await app.waitFor('Keys (esc');
    expect(f).toContain('▸ The intern list');
    expect(f).not.toContain('sleeper ★ yours');
  });

  it(':open NAME opens an intern\'s details from anywhere, by name or by the start of its id', async () => {
    const api = new FakeApi();
    api.interns[4]!.id = '5eeb1234-0000-4000-8000-00000000000e';
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('Production OpenAI');
    await app.press(':');
    await app.type('open runner');
    await app.press('enter');
    await app.waitFor((s) => s.includes(IDS.runner) && s.includes('Watch main.'));
    await app.press(':');
    await app.type('open 5eeb1234');
    await app.press('enter');
    await app.waitFor('5eeb1234-0000-4000-8000-00000000000e');
    // A name that names no intern stays in the palette, with why, to be corrected.
    await app.press(':');
    await app.type('open nobody');
    await app.press('enter');
    const f = await app.waitFor('no intern with the name or id "nobody"');
    expect(f).not.toContain('did you mean');
    expect(f).toMatch(/: +open nobody/);
    for (let i = 0; i < 'nobody'.length; i++) await app.press('backspace');
    await app.type('sleepr');
    await app.press('enter');
    await app.waitFor('no intern with the name or id "sleepr" (did you mean sleeper?)');
    for (let i = 0; i < 'sleepr'.length; i++) await app.press('backspace');
    // The start of names: which, and that tab completes.
    await app.type('b');
    await app.press('enter');
    await app.waitFor('"b" is the start of broken, builder: type more (tab completes)');
    await app.press('backspace');
    await app.type('sleepr');
    await app.press('backspace');
    await app.type('er');
    await app.press('enter');
    await app.waitFor((s) => s.includes('sleeper ★ yours') && s.includes('○ stopped') && !s.includes('no intern with'));
  });

  it('D and s on the list open the intern with its question already asked, and only once', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('D');
    // The first row is runner: its details, under the typed-name prompt.
    let f = await app.waitFor('Type its name');
    expect(f).toContain(IDS.runner);
    await app.press('esc');
    await app.waitFor((s) => !s.includes('Type its name') && s.includes('e edit  t chat'));
    // Away and back: the question is not asked again.
    await app.press('c');
    await app.waitFor('Connections of runner');
    await app.press('esc');
    f = await app.waitFor((s) => s.includes(IDS.runner) && s.includes('e edit  t chat'));
    expect(f).not.toContain('Type its name');
    await app.press('esc');
    await app.waitFor((s) => s.includes('sleeper') && s.includes('j/k move'));
    await app.press('s');
    await app.waitFor(/Suspend runner\?/);
    await app.press('y');
    await app.waitFor(() => api.callsOf('suspendIntern').length === 1);
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
  });

  it('esc leaves the delete prompt without deleting', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor(IDS.runner);
    await app.press('D');
    await app.waitFor('Type its name');
    await app.type('runner');
    await app.press('esc');
    await app.waitFor((s) => !s.includes('Type its name'));
    expect(api.callsOf('deleteIntern')).toHaveLength(0);
  });
});

describe('settings form', () => {
  it('checks the name as you type and sends only what changed, null for a cleared field', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    await app.type('-X');
    await app.waitFor(/must|lowercase/);
    await app.press('backspace', 'backspace');
    await app.type('-two');
    await app.press('tab');
    for (let i = 0; i < 'Keeps CI green.'.length; i++) await app.press('backspace');
    await app.waitFor('will send: name, description');
    await app.press('ctrl+s');
    await app.waitFor(() => api.callsOf('updateIntern').length === 1);
    expect(api.callsOf('updateIntern')[0]).toEqual([IDS.runner, { name: 'runner-two', description: null }]);
  });

  it('keeps every edit and marks the name when the name is taken', async () => {
    const api = new FakeApi();
    api.updateIntern = async () => {
      throw new ApiError(409, 409, 'name_taken', false, 'You already have an intern named broken', 'PATCH /interns/{internId}');
    };
    const app = renderApp({ api, initial: { name: 'settings', id: IDS.runner } });
    await app.waitFor('Settings of runner');
    for (let i = 0; i < 'runner'.length; i++) await app.press('backspace');
    await app.type('broken');
    await app.press('tab');
    await app.type(' More.');
    await app.press('ctrl+s');
    const f = await app.waitFor(/already|taken/);
    expect(f).toContain('broken');
    expect(f).toContain('Keeps CI green. More.');
    expect(f).toContain('unsaved changes');
  });
});

describe('navigation', () => {
  it('after a save, the details replace the screen they came from: q goes back to the list', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('enter');
    await app.waitFor(IDS.runner);
    await app.press('e');
    await app.waitFor('Settings of runner');
    await app.type('-2');
    await app.press('ctrl+s');
    await app.waitFor(/runner-2 ★ yours/);
    await app.press('q');
    await app.waitFor((s) => s.includes('sleeper') && s.includes('runner-2'));
    expect(app.frame()).toContain('NAME');
  });
});

describe('help overlay', () => {
  it('lists the keymap, scrolls with j when the screen is short, and closes with esc', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('?');
    const f = await app.waitFor('Keys (esc or ? to close');
    for (const text of ['Everywhere', 'On an intern', 'help', 'edit settings', 'BYOK credentials', 'g/G']) expect(f).toContain(text);
    const range = /j\/k g\/G pgdn\/pgup scroll, (\d+)-/.exec(f);
    expect(range?.[1]).toBe('1');
    await app.press('j');
    await app.waitFor(/scroll, 2-/);
    await app.press('esc');
    await app.waitFor((s) => !s.includes('Keys (esc') && s.includes('sleeper'));
  });

  it('the footer lists the open overlay\'s keys, and the screen\'s again once it closes', async () => {
    const app = renderApp();
    await app.waitFor((f) => f.includes('sleeper') && footerOf(f).startsWith('j/k move  enter open'));
    await app.press('?');
    let f = await app.waitFor('Keys (esc or ? to close');
    f = await app.waitFor((s) => footerOf(s).startsWith('esc close the help  j/k move'));
    expect(footerOf(f)).not.toContain('? help');
    await app.press('esc');
    await app.waitFor((s) => !s.includes('Keys (esc') && footerOf(s).startsWith('j/k move  enter open'));
    await app.press(':');
    f = await app.waitFor((s) => footerOf(s).startsWith('enter run / apply / confirm  esc close / cancel'));
    expect(footerOf(f)).not.toContain('n new intern');
    await app.press('esc');
    await app.waitFor((s) => footerOf(s).startsWith('j/k move  enter open'));
  });

  it('the BYOK list\'s footer offers paging at 80 columns: its title no longer does', async () => {
    const app = renderApp({ initial: { name: 'byok' } });
    app.resize({ columns: 80 });
    const f = await app.waitFor((s) => s.includes('sk-...WXYZ') && (s.split('\n')[1] ?? '').length === 80 && s.includes('←/→ pages'));
    expect(footerOf(f)).toMatch(/^n new {2}e edit {2}D delete {2}\/ filter {2}p provider {2}w workspace {2}←\/→ pages/);
    expect(f).not.toContain('· n new');
  });

  it("w picks another workspace from the service's listing, or takes a typed id; the default one is the first row; an account without a default workspace is told of w", async () => {
    const api = new FakeApi();
    const listed: unknown[] = [];
    const list = api.listByok.bind(api);
    api.listByok = async (query?: Parameters<FakeApi['listByok']>[0] & { workspace_id?: string }) => {
      listed.push(query?.workspace_id);
      if (!query?.workspace_id) throw new ApiError(400, 400, null, false, 'The default workspace was deleted: pass workspace_id', 'GET /byok');
      return list(query);
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    let f = await app.waitFor('The default workspace was deleted');
    expect(f).toContain('w: pick a workspace whose keys to list');
    await app.press('w');
    f = await app.waitFor((s) => s.includes('Side projects') && s.includes('default workspace'));
    expect(f).toContain('side-projects');
    expect(api.callsOf('listWorkspaces')).toEqual([[{ offset: 0, limit: 100 }]]);
    await app.type('side');
    await app.waitFor((s) => !s.includes("the account's default"));
    await app.press('enter');
    f = await app.waitFor((s) => s.includes('sk-...WXYZ') && s.includes('workspace: Side projects (w)'));
    expect(f).not.toContain('w: pick a workspace');
    expect(listed.at(-1)).toBe(WS_SIDE);
    // An id the listing lacks is still taken as typed.
    await app.press('w');
    await app.waitFor('Side projects');
    await app.type('99999999-2222-4333-8444-555555555555');
    await app.waitFor((s) => s.includes('keep "99999999-2222') && s.includes('not in the listing'));
    await app.press('enter');
    await app.waitFor((s) => s.includes('workspace: 99999999-2222-4… (w)'));
    expect(listed.at(-1)).toBe('99999999-2222-4333-8444-555555555555');
    // esc clears the provider, not the workspace; the first row goes back to the default.
    await app.press('w');
    await app.waitFor('Side projects');
    await app.type('default');
    await app.waitFor((s) => !s.includes('Side projects'));
    await app.press('enter');
    await app.waitFor((s) => s.includes('workspace: default (w)') && s.includes('The default workspace was deleted'));
    expect(listed.at(-1)).toBeUndefined();
  });

  it('w with a key that may not list workspaces says so in the picker and still takes a typed id', async () => {
    const api = new FakeApi();
    api.listWorkspaces = async () => {
      throw new ApiError(403, 403, null, false, 'This route requires a management key', 'GET /workspaces');
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('sk-...WXYZ');
    await app.press('w');
    await app.waitFor('the workspaces could not be listed (This route requires a management key): type an id');
    await app.type(WS_SIDE);
    await app.press('enter');
    await app.waitFor('workspace: 11111111-222');
    expect(api.callsOf('listByok').at(-1)).toEqual([{ offset: 0, limit: 50, provider: undefined, workspace_id: WS_SIDE }]);
  });

  it('a 400 about something else than the workspace does not send the user to w', async () => {
    const api = new FakeApi();
    api.listByok = async () => {
      throw new ApiError(400, 400, null, false, 'provider: not a provider slug', 'GET /byok');
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    const f = await app.waitFor('not a provider slug');
    expect(f).not.toContain("list a workspace's keys");
  });

  it("a workspace the service refuses leaves none of the last workspace's keys on the list to open", async () => {
    const api = new FakeApi();
    const list = api.listByok.bind(api);
    api.listByok = async (query?: Parameters<FakeApi['listByok']>[0] & { workspace_id?: string }) => {
      if (query?.workspace_id) throw new ApiError(400, 400, null, false, 'workspace_id: not a workspace of this account', 'GET /byok');
      return list(query);
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('sk-...WXYZ');
    await app.press('w');
    await app.type('00000000-0000-4000-8000-000000000000');
    await app.press('enter');
    const f = await app.waitFor('not a workspace of this account');
    expect(f).not.toContain('sk-...WXYZ');
    await app.press('enter');
    expect(app.frame()).not.toContain('Production OpenAI');
  });

  it('cuts no binding or group title at 100 columns', async () => {
    const app = renderApp();
    app.resize({ columns: 100, rows: 120 });
    await app.waitFor((s) => s.includes('sleeper') && (s.split('\n')[1] ?? '').length === 100);
    await app.press('?');
    const f = await app.waitFor((s) => s.includes('Keys (esc') && s.includes('Commands (after :)'));
    const cut = f.split('\n').filter((l) => l.includes('…'));
    expect(cut).toEqual([]);
    // The palette's binding points to the commands, listed at the overlay's end, instead of naming them all.
    expect(f).toMatch(/: {9}command palette \(commands below\)/);
  });

  it('keeps its box whole on a 40x12 terminal and shorter ones, showing the lines its height holds', async () => {
    const app = renderApp();
    app.resize({ columns: 40, rows: 12 });
    await app.waitFor((s) => s.includes('sleeper') && (s.split('\n')[1] ?? '').length === 40);
    await app.press('?');
    let f = await app.waitFor('Keys (esc');
    expect(f).toMatch(/^╰─+╯$/m);
    expect(f).toMatch(/1-\d+ of \d+/);
    for (const [columns, rows] of [[40, 10], [30, 8]] as const) {
      app.resize({ columns, rows });
      f = await app.waitFor((s) => (s.split('\n')[1] ?? '').length === columns && s.includes('Keys (esc'));
      expect(f, `${columns}x${rows}`).toMatch(/^╰─+╯$/m);
    }
  });

  it('says whole, at 80 columns, which keys an attached terminal keeps', async () => {
    const app = renderApp();
    app.resize({ columns: 80, rows: 30 });
    await app.waitFor((s) => s.includes('sleeper') && (s.split('\n')[1] ?? '').length === 80);
    await app.press('?');
    const f = await app.waitFor('Keys (esc');
    expect(f).toContain('Attached: ^] detach, shift+pgup/pgdn history; other keys go to the intern.');
  });

  it('keeps its box whole on an 80x24 terminal, where its title wraps to two rows', async () => {
    const app = renderApp();
    app.resize({ columns: 80, rows: 24 });
    await app.waitFor((s) => s.includes('sleeper') && (s.split('\n')[1] ?? '').length === 80);
    await app.press('?');
    const f = await app.waitFor((s) => s.includes('Keys (esc') && s.includes('of '));
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    const top = lines.findIndex((l) => l.startsWith('╭'));
    const bottom = lines.findIndex((l) => l.startsWith('╰'));
    expect(top).toBeGreaterThan(-1);
    expect(bottom).toBeGreaterThan(top);
    // The last line inside, then the border: nothing cut between them.
    expect(lines[bottom - 1]).toContain('other keys go to the intern.');
  });

  it("opens on the screen's own keys, marked, and every other group after them", async () => {
    const app = renderApp({ initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor('runner');
    await app.press('?');
    const f = await app.waitFor('Keys (esc or ? to close; ▸ this screen');
    const lines = f.split('\n');
    const first = lines.findIndex((l) => l.includes('Keys (esc'));
    // The two columns' first groups: the keys its status allows (s, running), then the details' own.
    expect(lines[first + 1]).toMatch(/▸ On a running intern +▸ On an intern/);
    expect(f).toContain('▸ Everywhere');
    expect(f).not.toContain('▸ On a stopped or failed intern');
    expect(f).not.toContain('▸ Always');
    // The columns share the width: the longest help is not cut at 100 columns.
    expect(f).toContain('suspend to the shell (fg comes back)');
    await app.press('esc');
    await app.waitFor((s) => !s.includes('Keys (esc') && s.includes('e edit  t chat'));
    await app.press('b');
    await app.waitFor('Production OpenAI');
    await app.press('?');
    const byok = await app.waitFor('Keys (esc or ? to close');
    expect(byok).toContain('▸ BYOK credentials');
    expect(byok).toContain('▸ The BYOK list');
    expect(byok).not.toContain('▸ On an intern');
  });

  it('scrolls with every key a list moves with: G to the end, g to the top, pgdn and pgup a page', async () => {
    const app = renderApp();
    await app.waitFor('sleeper');
    await app.press('?');
    const f = await app.waitFor('Keys (esc or ? to close');
    const [, shown, total] = /scroll, 1-(\d+) of (\d+)/.exec(f)!.map(Number);
    await app.press('G');
    await app.waitFor(`scroll, ${total! - shown! + 1}-${total} of ${total}`);
    await app.press('g');
    await app.waitFor(`scroll, 1-${shown} of ${total}`);
    await app.press('\x1b[6~'); // page down
    await app.waitFor(`scroll, ${shown! + 1}-`);
    await app.press('\x1b[5~'); // page up
    await app.waitFor(`scroll, 1-${shown} of ${total}`);
  });
});

describe('connections', () => {
  it('groups the keys with counts and checks features', async () => {
    const app = renderApp({ initial: { name: 'connections', id: IDS.runner } });
    const f = await app.waitFor('Custom MCP servers');
    expect(f).toContain('Built-in');
    expect(f).toContain('Catalog servers');
    expect(f).toContain('mcp:tools.example.com');
    expect(f).toMatch(/✔ ready +Release notes/);
    expect(f).toMatch(/✖ missing Calendar needs google/);
  });
});

describe('BYOK', () => {
  it('an empty BYOK list says none, not "0-0 of 0", and how to add one', async () => {
    const api = new FakeApi();
    api.listByok = async () => ({ data: [], total_count: 0 });
    const app = renderApp({ api, initial: { name: 'byok' } });
    const f = await app.waitFor('No credentials. Press n to add one.');
    expect(f).toContain('BYOK credentials · none · provider: all');
    // Nothing to move over or open.
    expect(footerOf(f)).toMatch(/^n new/);
    expect(footerOf(f)).not.toMatch(/j\/k move|enter open/);
  });

  it('y copies the id of the selected intern or credential with OSC 52, and says whose', async () => {
    const copied = (app: ReturnType<typeof renderApp>) => {
      const frame = app.frames.find((fr) => fr.includes('\x1b]52;c;'));
      return frame ? Buffer.from(/\x1b\]52;c;([A-Za-z0-9+/=]+)\x07/.exec(frame)![1]!, 'base64').toString('utf8') : null;
    };
    const list = renderApp();
    await list.waitFor('sleeper');
    await list.press('y');
    await list.waitFor('copied the id of runner (OSC 52)');
    expect(copied(list)).toBe(IDS.runner);
    cleanup();
    const details = renderApp({ initial: { name: 'intern', id: IDS.sleeper } });
    await details.waitFor(IDS.sleeper);
    await details.press('y');
    await details.waitFor('copied the id of sleeper');
    expect(copied(details)).toBe(IDS.sleeper);
    cleanup();
    const byok = renderApp({ initial: { name: 'byok' } });
    await byok.waitFor('Production OpenAI');
    await byok.press('y');
    await byok.waitFor('copied the id of the openai credential');
    expect(copied(byok)).toBe('c1');
  });

  it('esc on a list filtered by provider clears the filter', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('Production OpenAI');
    await app.press('p');
    await app.type('anthropic');
    await app.press('enter');
    await app.waitFor((s) => s.includes('provider: anthropic') && !s.includes('Production OpenAI'));
    await app.press('esc');
    await app.waitFor((s) => s.includes('provider: all') && s.includes('Production OpenAI'));
  });

  it('the provider filter takes the start of a slug, and says when what was typed is no provider', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor('Production OpenAI');
    await app.press('p');
    // The label and the text apart: "› provider anth", not "› provideranth".
    await app.type('anth');
    await app.waitFor(/› provider +anth/);
    await app.press('enter');
    await app.waitFor((s) => s.includes('provider: anthropic') && s.includes('Team Anthropic') && !s.includes('Production OpenAI'));
    await app.press('esc');
    await app.waitFor('provider: all');
    await app.press('p');
    await app.type('opnai');
    await app.press('enter');
    await app.waitFor('"opnai" is no provider\'s slug (did you mean openai?). esc shows them all.');
    await app.press('esc');
    await app.waitFor('provider: all');
    await app.press('p');
    await app.type('ope');
    await app.press('enter');
    await app.waitFor('"ope" is the start of open-inference, openai: type more of one.');
  });

  it('lists labels, never keys, and deletes only after y', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byok' } });
    const f = await app.waitFor('Production OpenAI');
    expect(f).toContain('sk-...WXYZ');
    // D on the list opens the credential with its question asked; n keeps it, and coming back does not ask again.
    await app.press('D');
    await app.waitFor((s) => s.includes('openai credential') && s.includes('Delete the openai credential "Production OpenAI" (sk-...WXYZ)?'));
    await app.press('n');
    await app.waitFor((s) => !s.includes('Delete the openai credential'));
    await app.press('e');
    await app.waitFor('Edit openai credential');
    await app.press('esc');
    await app.waitFor((s) => s.includes('openai credential') && !s.includes('Edit openai'));
    expect(app.frame()).not.toContain('Delete the openai credential');
    expect(api.callsOf('deleteByok')).toHaveLength(0);
    await app.press('D');
    await app.waitFor('Delete the openai credential');
    await app.press('b'); // not an answer: the prompt keeps the key
    expect(app.frame()).toContain('Delete the openai credential');
    await app.press('y');
    await app.waitFor(() => api.callsOf('deleteByok').length === 1);
  });

  it('a credential\'s details say what each setting means, in the words byok get uses', async () => {
    const api = new FakeApi();
    api.byok[0]!.allowed_models = ['openai/gpt-4.1'];
    const app = renderApp({ api, initial: { name: 'byokDetails', id: 'c1' } });
    const f = await app.waitFor('openai credential · Production OpenAI');
    expect(f).toMatch(/^region +us$/m);
    expect(f).toMatch(/^zdr +not declared$/m);
    expect(f).toMatch(/^fallback +no$/m);
    expect(f).toMatch(/^allowed models +openai\/gpt-4\.1$/m);
    expect(f).toMatch(/^allowed users +all \(no restriction\)$/m);
    expect(f).toMatch(/^created +\d+d ago$/m);
    expect(f).not.toContain('null');
    expect(f).not.toContain('is_fallback');
  });

  it('n on a credential\'s details opens a new credential, as its footer offers', async () => {
    const app = renderApp({ api: new FakeApi(), initial: { name: 'byokDetails', id: 'c1' } });
    const f = await app.waitFor('openai credential · Production OpenAI');
    expect(footerOf(f)).toContain('n new');
    await app.press('n');
    await app.waitFor('New BYOK credential');
  });

  it('shows as much of a long allowed list as three lines hold, and how many more there are', async () => {
    const api = new FakeApi();
    api.byok[0]!.allowed_api_key_hashes = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(64, '0'));
    const app = renderApp({ api, initial: { name: 'byokDetails', id: 'c1' } });
    const f = await app.waitFor('openai credential · Production OpenAI');
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.startsWith('allowed key hashes'));
    // One hash a line at 100 columns (80 for the value); the third says how many are left.
    expect(lines[at]).toMatch(/^allowed key hashes +0{64},$/);
    expect(lines[at + 2]).toMatch(/^ {20}0{63}2, \+97 more$/);
    // What comes after the list is still on screen.
    expect(f).toMatch(/^created +\d+d ago$/m);
    expect(f).toContain('The raw key is write-only');
  });

  it('creates a credential: the picker filters, the key is never drawn, a bad hash is marked', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('anthr');
    await app.waitFor('[anthropic]');
    await app.press('enter');
    await app.type('sk-ant-secret-material-1234');
    await app.press('tab', 'tab', 'tab');
    await app.type('nothex');
    await app.waitFor('64 lowercase hex');
    await app.press('ctrl+s');
    await app.waitFor('fix the marked fields first');
    expect(api.callsOf('createByok')).toHaveLength(0);
    for (let i = 0; i < 6; i++) await app.press('backspace');
    await app.waitFor((s) => !s.includes('64 lowercase hex'));
    await app.press('ctrl+s');
    await app.waitFor(() => api.callsOf('createByok').length === 1);
    expect(api.callsOf('createByok')[0]![0]).toMatchObject({ provider: 'anthropic', key: 'sk-ant-secret-material-1234' });
    expect(app.frames.join('\n')).not.toContain('secret-material');
  });

  it('marks an empty required field only once it was filled and emptied, or a save was tried', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'byokForm' } });
    const fresh = await app.waitFor('New BYOK credential');
    expect(fresh).not.toContain('✖');
    await app.type('o');
    await app.waitFor(/› provider +o/);
    await app.press('backspace');
    // The provider was edited: emptied again, it is marked; the key, not reached yet, is not.
    const emptied = await app.waitFor('choose a provider');
    expect(emptied).not.toContain('the key is required');
    await app.press('ctrl+s');
    const tried = await app.waitFor('fix the marked fields first');
    expect(tried).toContain('the key is required');
    expect(api.callsOf('createByok')).toHaveLength(0);
  });

  it('explains that byok-only and fallback exclude each other', async () => {
    const app = renderApp({ initial: { name: 'byokForm' } });
    await app.waitFor('New BYOK credential');
    await app.type('openai');
    await app.press('enter');
    await app.type('sk-x');
    for (let i = 0; i < 9; i++) await app.press('tab');
    await app.waitFor(/› byok only/);
    await app.press('space');
    await app.press('tab');
    await app.press('space');
    expect(await app.waitFor(/not (together )?with|cannot|exclu/i)).toMatch(/fallback/);
  });
});

describe('errors and safety', () => {
  it('on a 40x12 terminal an error drops its box, not its key to try again', async () => {
    const api = new FakeApi();
    api.listInterns = async () => {
      throw new ApiError(500, 500, 'internal_error', true, 'short', 'GET /interns');
    };
    const app = renderApp({ api });
    app.resize({ columns: 40, rows: 12 });
    const f = await app.waitFor((s) => s.includes('r: try again') && (s.split('\n')[1] ?? '').length === 40);
    expect(f).toMatch(/✖ .+ \(internal_error\)/);
    expect(f).not.toContain('╭');
    // Narrower still, the hint gives up its rows before the key does.
    app.resize({ columns: 35, rows: 10 });
    await app.waitFor((s) => s.includes('r: try again') && (s.split('\n')[1] ?? '').length === 35);
  });

  it('a message of a whole page gives up its end, not the key that tries again', async () => {
    const api = new FakeApi();
    api.listByok = async () => {
      throw new ApiError(503, 503, null, true, `Upstream unavailable: ${'see https://status.example.com/incidents/2026-11-27/organisation/policies '.repeat(12)}end`, 'GET /byok');
    };
    const app = renderApp({ api, initial: { name: 'byok' } });
    app.resize({ columns: 60, rows: 16 });
    const f = await app.waitFor((s) => s.includes('r: try again') && s.includes('Upstream unavailable'));
    expect(f).not.toContain('end');
    expect(f).toMatch(/…/);
  });

  it('a 401 names the credential and the environment variable', async () => {
    const api = new FakeApi();
    api.listInterns = async () => {
      throw new ApiError(401, 401, null, false, 'Missing Authentication header', 'GET /interns');
    };
    const app = renderApp({ api });
    const f = await app.waitFor('Not authenticated');
    expect(f).toContain('OPENROUTER_API_KEY');
  });

  it('a 401 says how to mend the key where it came from, when the CLI knows (a stored key: its login)', async () => {
    const api = new FakeApi();
    api.listInterns = async () => {
      throw new ApiError(401, 401, null, false, 'Missing Authentication header', 'GET /interns');
    };
    const app = renderApp({ api, options: { refusedFix: { api_key: 'run intern-tui login --profile work' } } });
    const f = await app.waitFor('Not authenticated');
    expect(f).toContain('The service refused the API key: run intern-tui login --profile work.');
    expect(f).not.toContain('OPENROUTER_API_KEY');
  });

  it('attach with no OAuth token explains how to provide one', async () => {
    const api = new FakeApi();
    api.configured = { api_key: true, management_key: true, oauth_token: false };
    const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.runner, name: 'runner' }) } });
    const f = await app.waitFor('Attach needs an OAuth token');
    expect(f).toContain('OPENROUTER_OAUTH_TOKEN');
    expect(api.callsOf('getDaemonAccess')).toHaveLength(0);
  });

  it('attach asks for daemon access first; refused as not running, it reads the intern and offers to provision it', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.sleeper, name: 'sleeper', status: 'running' }) } });
    const f = await app.waitFor('is not running');
    expect(f).toContain('stopped');
    expect(f).toContain('p provisions it');
    expect(api.calls.map((c) => c.method).filter((m) => m === 'getDaemonAccess' || m === 'getIntern')).toEqual(['getDaemonAccess', 'getIntern']);
  });

  it('attach to an intern on its way up says to wait; to one going away, neither wait nor provision', async () => {
    const api = new FakeApi();
    const starting = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.builder, name: 'builder', status: 'running' }) } });
    const f = await starting.waitFor('is not running yet');
    expect(f).toContain('Attaching once it is running');
    expect(f).not.toContain('p provisions it');
    starting.unmount();
    api.interns.find((i) => i.id === IDS.builder)!.status = 'destroying';
    const leaving = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.builder, name: 'builder', status: 'running' }) } });
    const g = await leaving.waitFor('is not running');
    expect(g).toContain('destroying');
    expect(g).not.toContain('Attaching once');
    expect(g).not.toContain('p provisions it');
    // p does nothing there: only a stopped or failed intern is provisioned from here.
    await leaving.press('p');
    expect(api.callsOf('provisionIntern')).toHaveLength(0);
  });

  it('attach to a starting intern reads it again until it runs, then asks for daemon access; one that fails instead says why', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      refuseAccessOnceRunning(api);
      const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.builder, name: 'builder', status: 'running' }) } });
      await app.waitFor('Attaching once it is running');
      const reads = api.callsOf('getIntern').length;
      await vi.advanceTimersByTimeAsync(1_100);
      await app.waitFor(() => api.callsOf('getIntern').length > reads);
      expect(app.frame()).toContain('Attaching once it is running');
      api.interns.find((i) => i.id === IDS.builder)!.status = 'running';
      await vi.advanceTimersByTimeAsync(5_100);
      await app.waitFor('Service unavailable');
      expect(api.callsOf('getDaemonAccess')).toHaveLength(2);
      app.unmount();

      api.interns.find((i) => i.id === IDS.builder)!.status = 'provisioning';
      const failing = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.builder, name: 'builder', status: 'running' }) } });
      await failing.waitFor('Attaching once it is running');
      Object.assign(api.interns.find((i) => i.id === IDS.builder)!, { status: 'failed', last_failure_message: 'image pull failed' });
      await vi.advanceTimersByTimeAsync(5_100);
      const f = await failing.waitFor('is not running:');
      expect(f).toContain('image pull failed');
      expect(f).toContain('p provisions it, and attaches once it is running');
    });
  });

  it('p on a stopped intern provisions it and attaches once it runs; a refused provision is shown, and r asks again', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      refuseAccessOnceRunning(api);
      // The service starts it in the background: still stopped when first read after the provision.
      let provisions = 0;
      api.provisionIntern = async () => {
        provisions++;
      };
      const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.sleeper, name: 'sleeper', status: 'stopped' }) } });
      await app.waitFor('p provisions it');
      await app.press('p');
      await app.waitFor('Attaching once it is running');
      expect(provisions).toBe(1);
      await vi.advanceTimersByTimeAsync(1_100);
      await app.waitFor(() => api.callsOf('getIntern').length >= 2);
      // Still stopped just after its provision: waited on, not offered again.
      expect(app.frame()).toContain('Attaching once it is running');
      api.interns.find((i) => i.id === IDS.sleeper)!.status = 'running';
      await vi.advanceTimersByTimeAsync(5_100);
      await app.waitFor('Service unavailable');
      app.unmount();

      api.interns.find((i) => i.id === IDS.sleeper)!.status = 'stopped';
      api.provisionIntern = async () => {
        throw new ApiError(403, 403, null, false, 'This key may not provision interns', 'POST /interns/{internId}/provision');
      };
      const refused = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.sleeper, name: 'sleeper', status: 'stopped' }) } });
      await refused.waitFor('p provisions it');
      await refused.press('p');
      await refused.waitFor('may not provision interns');
      await refused.press('r');
      await refused.waitFor('p provisions it');
      refused.unmount();

      // Busy: provisioned by someone else at the same moment. The wait goes on and reads what it became.
      api.provisionIntern = async () => {
        api.interns.find((i) => i.id === IDS.sleeper)!.status = 'queued';
        throw new ApiError(409, 409, 'intern_busy', false, 'The intern is busy: wait for it to settle', 'POST /interns/{internId}/provision');
      };
      api.interns.find((i) => i.id === IDS.sleeper)!.status = 'stopped';
      const busy = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.sleeper, name: 'sleeper', status: 'stopped' }) } });
      await busy.waitFor('p provisions it');
      await busy.press('p');
      await vi.advanceTimersByTimeAsync(1_100);
      const f = await busy.waitFor('◌ queued');
      expect(f).toContain('Attaching once it is running');
      expect(f).not.toContain('wait for it to settle');
    });
  });

  it('a wait ends with the error when the intern is gone (404) or cannot be read three times in a row, and r starts again', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      const read = api.getIntern.bind(api);
      let answer: 'ok' | 'gone' | 'down' = 'ok';
      api.getIntern = async (id: string) => {
        if (answer === 'gone') throw new ApiError(404, 404, 'not_found', false, 'Intern not found', 'GET /interns/{internId}');
        if (answer === 'down') throw new ApiError(503, 503, null, true, 'Upstream unavailable', 'GET /interns/{internId}');
        return read(id);
      };
      const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.builder, name: 'builder', status: 'running' }) } });
      await app.waitFor('Attaching once it is running');
      answer = 'gone';
      await vi.advanceTimersByTimeAsync(1_100);
      let f = await app.waitFor('Intern not found');
      expect(f).not.toContain('Attaching once');
      answer = 'down';
      await app.press('r');
      // r asks for daemon access again: not running, so the intern is read, and that fails.
      await vi.advanceTimersByTimeAsync(100);
      f = await app.waitFor('Upstream unavailable');
      answer = 'ok';
      await app.press('r');
      await app.waitFor('Attaching once it is running');
      answer = 'down';
      for (let i = 0; i < 3; i++) await vi.advanceTimersByTimeAsync(6_000);
      f = await app.waitFor('Upstream unavailable');
      expect(f).toContain('r: try again');
      // Said once: the error view names the key, the line under it does not again.
      expect(f).not.toContain('r retry');
    });
  });

  it('a failed intern provisioned from attach that fails again between two reads says so, not waits on', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      const broken = api.interns.find((i) => i.id === IDS.sleeper)!;
      Object.assign(broken, { status: 'failed', last_failure_message: 'image pull failed', updated_at: '2026-11-27T10:00:00.000Z' });
      // It goes up and fails again before the screen reads it: the same status, a later change.
      api.provisionIntern = async () => {
        Object.assign(broken, { status: 'failed', last_failure_message: 'image pull failed again', updated_at: '2026-11-27T10:00:05.000Z' });
      };
      const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.sleeper, name: 'sleeper', status: 'running' }) } });
      await app.waitFor('p provisions it');
      await app.press('p');
      await app.waitFor('Attaching once it is running');
      await vi.advanceTimersByTimeAsync(1_100);
      const f = await app.waitFor('image pull failed again');
      expect(f).toContain('p provisions it');
      expect(f).not.toContain('Attaching once');
    });
  });

  it('attach to a running intern does not read the intern again before asking for daemon access', async () => {
    const api = new FakeApi();
    api.getDaemonAccess = async () => {
      throw new ApiError(503, 503, null, true, 'Service unavailable', 'GET /interns/{internId}/daemon');
    };
    const app = renderApp({ api, initial: { name: 'attach', intern: intern({ id: IDS.runner, name: 'runner' }) } });
    await app.waitFor('Service unavailable');
    expect(api.callsOf('getIntern')).toHaveLength(0);
  });

  it('leaving attach goes back to the details it was opened from: one q then goes back to the list', async () => {
    const api = new FakeApi();
    api.configured = { api_key: true, management_key: true, oauth_token: false };
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('enter');
    await app.waitFor(IDS.runner);
    await app.press('a');
    await app.waitFor('Attach needs an OAuth token');
    await app.press('q');
    await app.waitFor(IDS.runner);
    await app.press('q');
    await app.waitFor((s) => s.includes('sleeper') && s.includes('NAME'));
  });

  it('draws server strings without escape sequences', async () => {
    const api = new FakeApi();
    api.interns[0] = { ...api.interns[0]!, name: 'evil\x1b]0;pwned\x07', description: '\x1b[2J\x1b[31mred\x1b[0m text\x07' };
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    const f = await app.waitFor('red text');
    expect(f).not.toMatch(/\x1b|\x07/);
    expect(app.frames.join('')).not.toContain('\x1b]0;');
  });
});

describe('an intern that is gone', () => {
  it('a settled intern deleted elsewhere: its details look again now and then, and say it is gone', async () => {
    await onFakeClock(async () => {
      const api = new FakeApi();
      const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
      const f = await app.waitFor(IDS.sleeper);
      expect(footerOf(f)).toContain('p provision');
      api.interns = api.interns.filter((i) => i.id !== IDS.sleeper);
      await vi.advanceTimersByTimeAsync(10_000);
      const g = await app.waitFor('was deleted, or this key can no longer see it');
      expect(footerOf(g)).not.toContain('p provision');
    });
  });

  it('deleted from its details: the 404 that ends the deletion says so and goes back to the list, fetched afresh', async () => {
    const api = new FakeApi();
    const app = renderApp({ api });
    await app.waitFor('sleeper');
    await app.press('enter');
    await app.waitFor('Keeps CI green.');
    await app.press('D');
    await app.waitFor('Type its name');
    await app.type('runner');
    await app.press('enter');
    await app.waitFor('destroying');
    const listed = api.callsOf('listInterns').length;
    // The service finishes: the intern is no more.
    api.interns = api.interns.filter((i) => i.id !== IDS.runner);
    // The list's last rows show at once, refreshing under them; once refreshed, runner is gone.
    const f = await app.waitFor((s) => s.includes('deleted runner') && s.includes('sleeper') && !s.includes('refreshing'));
    expect(f).not.toContain('Keeps CI green.');
    expect(f.split('\n').filter((l) => l.includes('runner') && !l.includes('deleted runner'))).toEqual([]);
    expect(api.callsOf('listInterns').length).toBeGreaterThan(listed);
  });

  it('a 404 for an intern not being deleted: a clear "no longer exists", no stale details, no intern keys', async () => {
    const api = new FakeApi();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.runner } });
    await app.waitFor('Keeps CI green.');
    api.interns = api.interns.filter((i) => i.id !== IDS.runner);
    await app.press('r');
    const f = await app.waitFor('This intern no longer exists');
    expect(f).toContain(IDS.runner);
    for (const stale of ['Keeps CI green.', 'anthropic/claude-sonnet-4', 'Watch main.', 'e edit  t chat']) expect(f).not.toContain(stale);
    await app.press('e');
    expect(app.frame()).not.toContain('Settings of');
  });
});

describe('ages', () => {
  afterEach(() => vi.useRealTimers());

  it('move with the clock while nothing else changes ("20s ago", then "30s ago")', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const api = new FakeApi();
    api.interns.find((i) => i.id === IDS.sleeper)!.updated_at = new Date(Date.now() - 20_000).toISOString();
    const app = renderApp({ api, initial: { name: 'intern', id: IDS.sleeper } });
    await app.waitFor(/updated\s+20s ago/);
    vi.advanceTimersByTime(AGE_TICK_MS);
    await app.waitFor(/updated\s+30s ago/);
  });
});
