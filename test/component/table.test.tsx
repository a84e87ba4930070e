/** The table: one column list gives header and cells; CJK and emoji names keep the columns aligned. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import chalk from 'chalk';
import stringWidth from 'string-width';
import { type Column, Table, columnWidths, fitted } from '../../src/tui/components/Table.js';
import { pad, truncate } from '../../src/text.js';
import { FakeApi, intern } from './fakeApi.js';
import { renderApp } from './render.js';

afterEach(() => cleanup());

type Row = { id: string; name: string; kind: string };
const COLS: Column<Row>[] = [
  { header: 'NAME', width: 10, cell: (r) => r.name },
  { header: 'KIND', grow: 1, min: 4, cell: (r) => r.kind },
  { header: 'END', width: 3, cell: () => 'end' },
];

describe('table', () => {
  it('pads and cuts by display width, not by UTF-16 unit', () => {
    expect(stringWidth(pad('日本語', 10))).toBe(10);
    expect(stringWidth(pad('日本語の長い名前です', 10))).toBe(10);
    expect(truncate('👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻', 5)).toBe('👩‍💻👩‍💻…');
    expect(stringWidth(pad('ascii', 3))).toBe(3);
  });

  it('shares the width left among growing columns', () => {
    expect(columnWidths(COLS, 40)).toEqual([10, 40 - 10 - 3 - 3, 3]);
  });

  it('never runs past a narrow terminal: columns give up cells from the right, and one left with nothing to show goes', () => {
    // The marker, and a gap before each column drawn (a dropped one, width 0, has none).
    const sum = (ws: number[]) => ws.reduce((n, w) => n + w + (w > 0 ? 1 : 0), 0);
    // 18 cells: END would keep one cell ("…"), so it goes and KIND takes its room.
    expect(columnWidths(COLS, 18)).toEqual([10, 6, 0]);
    expect(sum(columnWidths(COLS, 18))).toBe(18);
    // 12: KIND too; the first column always stays.
    expect(columnWidths(COLS, 12)).toEqual([10, 0, 0]);
    for (let total = 6; total <= 60; total++) {
      const ws = columnWidths(COLS, total);
      expect(sum(ws), `total ${total}`).toBeLessThanOrEqual(total);
      for (const [i, w] of ws.entries()) if (i > 0 && w > 0) expect(w, `total ${total}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('drops the intern list\'s rightmost columns at 60 columns rather than showing them as one "…"', () => {
    const cols: Column<Row>[] = [
      { header: '', width: 1, tight: true, cell: () => '★' },
      { header: 'NAME', width: 18, cell: (r) => r.name },
      { header: 'STATUS', width: 24, cell: (r) => r.kind },
      { header: 'MODEL', min: 12, grow: 11, cell: (r) => r.kind },
      { header: 'HOSTNAME', min: 0, grow: 9, cell: (r) => r.kind },
      { header: 'UPDATED', width: 9, cell: (r) => r.kind },
    ];
    expect(columnWidths(cols, 58)).toEqual([1, 18, 24, 11, 0, 0]);
    // At 78 every column fits, as before.
    expect(columnWidths(cols, 78)).toEqual([1, 18, 24, 12, 9, 8]);
  });

  it('sizes a fit column to its header and its widest loaded cell, its width at most, and gives the rest to the growing ones', () => {
    const cols: Column<Row>[] = [
      { header: 'NAME', width: 18, fit: true, cell: (r) => r.name },
      { header: 'KIND', grow: 1, min: 4, cell: (r) => r.kind },
      { header: 'S', width: 10, fit: true, cell: (r) => r.kind.slice(0, 2) },
    ];
    const rows: Row[] = [{ id: '1', name: 'runner', kind: 'a' }, { id: '2', name: '日本語の', kind: 'bb' }];
    // NAME: 8 cells (the CJK name); S: the header's 1 is less than a cell's 2.
    expect(fitted(cols, rows).map((c) => c.width)).toEqual([8, undefined, 2]);
    expect(columnWidths(fitted(cols, rows), 40)).toEqual([8, 40 - 8 - 2 - 3, 2]);
    // Nothing loaded: the header's width. A cell wider than `width`: `width`.
    expect(fitted(cols, []).map((c) => c.width)).toEqual([4, undefined, 1]);
    expect(fitted(cols, [{ id: '3', name: 'x'.repeat(40), kind: 'c' }])[0]!.width).toBe(18);
  });

  it('the BYOK list at 80 columns: the provider column is as wide as its slugs, so the names beside it stay whole', async () => {
    const app = renderApp({ initial: { name: 'byok' } });
    await app.waitFor('Production OpenAI');
    app.resize({ columns: 80 });
    const f = await app.waitFor((s) => (s.split('\n')[1] ?? '').length === 80 && s.includes('PROVIDER'));
    const header = f.split('\n').find((l) => l.includes('PROVIDER'))!;
    // The longest slug in the fake's list is "anthropic" (9): the column is 9 cells, not 18.
    expect(header).toMatch(/^ PROVIDER {2}NAME/);
    expect(f).toContain('Production OpenAI');
  });

  it('draws every row on one line at a narrow width, coloured cells included', async () => {
    const cols: Column<Row>[] = [...COLS, { header: 'STATE', width: 8, cell: (r) => `● ${r.kind} running`, color: () => 'green' }];
    const rows: Row[] = [{ id: '1', name: 'plain', kind: 'a' }, { id: '2', name: 'other', kind: 'b' }];
    const r = render(<Table columns={cols} rows={rows} rowKey={(x) => x.id} selected={0} height={5} width={20} empty="none" />);
    const lines = (r.lastFrame() ?? '').split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(20);
  });

  it('keeps every column aligned with CJK and emoji names, and says when it is empty', async () => {
    const rows: Row[] = [
      { id: '1', name: 'plain', kind: 'a' },
      { id: '2', name: '日本語の名前です', kind: 'b' },
      { id: '3', name: 'bot🤖x', kind: 'c' },
    ];
    const r = render(<Table columns={COLS} rows={rows} rowKey={(x) => x.id} selected={0} height={5} width={40} empty="none" />);
    const lines = (r.lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/NAME +KIND +END/);
    const endAt = lines.map((l) => stringWidth(l.slice(0, l.lastIndexOf('end'))));
    expect(lines.slice(1).every((l) => l.includes('end'))).toBe(true);
    expect(new Set(endAt.slice(1)).size).toBe(1);
    const empty = render(<Table columns={COLS} rows={[]} rowKey={(x) => x.id} selected={0} height={5} width={40} empty="nothing here" />);
    expect(empty.lastFrame()).toContain('nothing here');
  });

  it('sizes its fit columns by every loaded row when given them, so a filter does not move the columns', () => {
    const cols: Column<Row>[] = [
      { header: 'NAME', width: 18, fit: true, cell: (r) => r.name },
      { header: 'KIND', grow: 1, min: 4, cell: (r) => r.kind },
    ];
    const all: Row[] = [{ id: '1', name: 'a-rather-long-name', kind: 'x' }, { id: '2', name: 'short', kind: 'y' }];
    const header = (fitRows?: Row[]) => (render(<Table columns={cols} rows={all.slice(1)} fitRows={fitRows} rowKey={(x) => x.id} selected={0} height={5} width={40} empty="none" />).lastFrame() ?? '').split('\n')[0]!;
    // Sized by the one row shown, KIND comes right after "short"; sized by all, after the long name.
    expect(header().indexOf('KIND')).toBe(1 + 'short'.length + 1);
    expect(header(all).indexOf('KIND')).toBe(1 + 'a-rather-long-name'.length + 1);
  });

  it('draws the selected row whole in inverse video, not only its marker', () => {
    // Ink styles through chalk, which decided its colour level when it loaded: raise it here.
    const prev = chalk.level;
    chalk.level = 1;
    try {
      const rows: Row[] = [{ id: '1', name: 'first', kind: 'a' }, { id: '2', name: 'second', kind: 'b' }];
      const lines = (render(<Table columns={COLS} rows={rows} rowKey={(x) => x.id} selected={1} height={5} width={30} empty="none" />).lastFrame() ?? '').split('\n');
      // Ink joins neighbouring cells of one style into one run: the row's run must hold it all.
      const inverse = (l: string) => /\x1b\[7m(.*?)\x1b\[27m/.exec(l)?.[1]?.replace(/\x1b\[[\d;]*m/g, '');
      expect(inverse(lines[2]!)).toMatch(/^›second +b +end$/);
      expect(inverse(lines[1]!)).toBeUndefined();
    } finally {
      chalk.level = prev;
    }
  });

  it('the intern list keeps its columns aligned for a CJK name', async () => {
    const api = new FakeApi();
    const base = (await api.listInterns({})).data[0]!;
    api.interns.unshift(intern({ ...base, id: '0193a4c2-0000-7000-8000-00000000cafe', name: '日本語ボット', status: 'running' }));
    const app = renderApp({ api });
    const f = await app.waitFor('日本語ボット');
    const rows = f.split('\n').filter((l) => l.includes('● running'));
    expect(rows.length).toBeGreaterThan(1);
    const statusAt = rows.map((l) => stringWidth(l.slice(0, l.indexOf('● running'))));
    expect(new Set(statusAt).size).toBe(1);
  });
});

describe('BYOK list paging and filter (usePaged, useFilter)', () => {
  it('pages with ←/→ and a provider query (p, the service\'s) goes back to the first page; esc restores the applied query', async () => {
    const api = new FakeApi();
    const { credential } = await import('./fakeApi.js');
    for (let n = 0; n < 60; n++) api.byok.push(credential({ id: `p${n}`, provider: n % 2 ? 'openai' : 'anthropic', name: `bulk-${n}` }));
    const total = api.byok.length;
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor(`1-50 of ${total}`);
    await app.press('\x1b[C');
    await app.waitFor(`51-${total} of ${total}`);
    await app.press('\x1b[D');
    await app.waitFor(`1-50 of ${total}`);
    await app.press('\x1b[C');
    await app.waitFor(`51-${total} of ${total}`);
    await app.press('p');
    await app.type('openai');
    await app.press('enter');
    const openai = api.byok.filter((c) => c.provider === 'openai').length;
    await app.waitFor(`1-${openai} of ${openai} · provider: openai`);
    expect(api.callsOf('listByok').at(-1)).toEqual([{ offset: 0, limit: 50, provider: 'openai' }]);
    await app.press('p');
    await app.press('backspace', 'backspace', 'backspace', 'backspace', 'backspace', 'backspace');
    await app.type('xyz');
    await app.press('esc');
    await app.waitFor((f) => f.includes('provider: openai') && !f.includes('xyz'));
    // esc on the list clears the query: every provider again.
    await app.press('esc');
    await app.waitFor(`of ${total} · provider: all`);
  });

  it('keeps its page back from a credential, and after the last row of a page is deleted shows the last page', async () => {
    const api = new FakeApi();
    const { credential } = await import('./fakeApi.js');
    while (api.byok.length < 51) api.byok.push(credential({ id: `p${api.byok.length}`, provider: 'openai', name: `bulk-${String(api.byok.length).padStart(2, '0')}` }));
    const total = api.byok.length;
    expect(total).toBe(51);
    const app = renderApp({ api, initial: { name: 'byok' } });
    await app.waitFor(`1-50 of ${total}`);
    await app.press('\x1b[C');
    await app.waitFor(`51-51 of ${total}`);
    const last = api.byok[50]!;
    await app.press('enter');
    await app.waitFor(`credential · ${last.name}`);
    await app.press('q');
    let f = await app.waitFor(`51-51 of ${total}`);
    expect(f).toMatch(new RegExp(`›.*${last.name}`));
    await app.press('D');
    await app.waitFor('Delete the');
    await app.press('y');
    f = await app.waitFor(`1-50 of ${total - 1}`);
    expect(api.callsOf('deleteByok')).toEqual([[last.id]]);
  });
});
