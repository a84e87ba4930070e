import { describe, expect, it } from 'vitest';
import { NO_MARKS, clearMarks, keepMarks, markCount, markShown, markedRows, marksTitle, refreshMarks, toggleMark, type Marks } from '../../../src/tui/state/marks.js';

type Row = { id: string; status: string };
const row = (id: string, status = 'running'): Row => ({ id, status });
const idOf = (r: Row) => r.id;
const start: Marks<Row> = NO_MARKS;

describe('marks', () => {
  it('space toggles a row; the marks keep the order they were made in', () => {
    let m = toggleMark(start, 'b', row('b'));
    m = toggleMark(m, 'a', row('a'));
    expect(markedRows(m).map(idOf)).toEqual(['b', 'a']);
    m = toggleMark(m, 'b', row('b'));
    expect(markedRows(m).map(idOf)).toEqual(['a']);
  });

  it('marks every row shown, and the same key again unmarks them; marks outside what is shown stay', () => {
    let m = toggleMark(start, 'z', row('z'));
    const shown = [row('a'), row('b')];
    m = markShown(m, shown, idOf);
    expect(markedRows(m).map(idOf)).toEqual(['z', 'a', 'b']);
    m = markShown(m, shown, idOf);
    expect(markedRows(m).map(idOf)).toEqual(['z']);
    // Some shown marked already: the rest are marked, none unmarked.
    m = markShown(toggleMark(m, 'a', row('a')), shown, idOf);
    expect(markedRows(m).map(idOf).sort()).toEqual(['a', 'b', 'z']);
    expect(markShown(m, [], idOf)).toBe(m);
  });

  it('counts the marks the filter hides, and the title says so', () => {
    const m = markShown(start, [row('a'), row('b'), row('c')], idOf);
    expect(markCount(m, [row('a'), row('x')], idOf)).toEqual({ count: 3, hidden: 2 });
    expect(marksTitle(markCount(m, [row('a'), row('x')], idOf))).toBe('3 marked (2 hidden)');
    expect(marksTitle(markCount(m, [row('a'), row('b'), row('c')], idOf))).toBe('3 marked');
    expect(marksTitle(markCount(start, [row('a')], idOf))).toBe('');
  });

  it('a refresh keeps marks with their new data, drops a row gone from a listing that covers it, and keeps one a filter or a page hides', () => {
    const m = markShown(start, [row('a'), row('b'), row('c', 'stopped')], idOf);
    // 'a' came back suspended; 'b' is gone; 'c' is not loaded (a running-only listing would not show it).
    const covers = (r: Row) => r.status === 'running';
    const next = refreshMarks(m, [row('a', 'stopped')], idOf, covers);
    expect(markedRows(next)).toEqual([row('a', 'stopped'), row('c', 'stopped')]);
    // A listing that covers nothing (a page not loaded yet) drops nothing.
    expect(markedRows(refreshMarks(m, [], idOf))).toHaveLength(3);
    // Nothing changed: the same object (React draws nothing new).
    const same = [...m.values()];
    expect(refreshMarks(m, same, idOf, () => true)).toBe(m);
    expect(refreshMarks(start, [row('a')], idOf, () => true)).toBe(start);
  });

  it('esc clears them; after a bulk action only the rows it failed on stay marked', () => {
    const m = markShown(start, [row('a'), row('b'), row('c')], idOf);
    expect(clearMarks(m).size).toBe(0);
    expect(clearMarks(start)).toBe(start);
    expect(markedRows(keepMarks(m, new Set(['b'])))).toEqual([row('b')]);
    expect(keepMarks(m, new Set(['a', 'b', 'c']))).toBe(m);
  });
});
