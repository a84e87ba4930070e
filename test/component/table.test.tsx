/** The table: one column list gives header and cells; CJK and emoji names keep the columns aligned. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { type Column, Table, columnWidths } from '../../src/tui/components/Table.js';
import { pad, truncate } from '../../src/tui/sanitize.js';
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

  it('never runs past a narrow terminal: columns give up cells from the right, each keeping one', () => {
    const sum = (ws: number[]) => ws.reduce((n, w) => n + w, 0) + 3; // + the marker and two gaps
    expect(columnWidths(COLS, 18)).toEqual([10, 4, 1]);
    expect(sum(columnWidths(COLS, 18))).toBe(18);
    expect(columnWidths(COLS, 12)).toEqual([7, 1, 1]);
    for (let total = 6; total <= 60; total++) expect(sum(columnWidths(COLS, total)), `total ${total}`).toBeLessThanOrEqual(total);
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
  it('pages with ←/→ and a provider filter goes back to the first page; esc restores the applied filter', async () => {
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
    await app.press('/');
    await app.type('openai');
    await app.press('enter');
    const openai = api.byok.filter((c) => c.provider === 'openai').length;
    await app.waitFor(`1-${openai} of ${openai} · provider: openai`);
    expect(api.callsOf('listByok').at(-1)).toEqual([{ offset: 0, limit: 50, provider: 'openai' }]);
    await app.press('/');
    await app.type('xyz');
    await app.press('esc');
    await app.waitFor((f) => f.includes('provider: openai') && !f.includes('openaixyz'));
  });
});
