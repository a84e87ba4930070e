import { describe, expect, it } from 'vitest';
import { HERE_MARK, MIN_COLUMN_WIDTH, helpColumns, helpLayout } from '../../../src/tui/components/HelpOverlay.js';
import { SCOPE_TITLES, type Scope } from '../../../src/tui/keymap.js';

const titles = (columns: ReturnType<typeof helpColumns>) => columns.flatMap((c) => c.flatMap((l) => (l.kind === 'title' ? [l.text] : [])));

describe('the help overlay', () => {
  it('lays out columns that fill the width, one cell apart, none narrower than its longest line unless the width is', () => {
    const m = MIN_COLUMN_WIDTH;
    expect(helpLayout(26)).toEqual({ count: 1, width: 26 });
    expect(helpLayout(m)).toEqual({ count: 1, width: m });
    expect(helpLayout(2 * m + 1)).toEqual({ count: 2, width: m });
    expect(helpLayout(2 * m)).toEqual({ count: 1, width: 2 * m });
    for (let inner = 1; inner <= 400; inner++) {
      const { count, width } = helpLayout(inner);
      expect(count * width + (count - 1)).toBeLessThanOrEqual(inner);
      if (inner >= m) expect(width).toBeGreaterThanOrEqual(m);
    }
  });

  it('cuts no line on a terminal wide enough for one column: every line fits the narrowest column', () => {
    // The key column is 10 cells (9 and a space, or the keys and a space when they are longer).
    for (const line of helpColumns(1).flat()) {
      const cells = line.kind === 'title' ? line.text.length : Math.max(9, line.keys.length) + 1 + line.help.length;
      expect(cells, JSON.stringify(line)).toBeLessThanOrEqual(MIN_COLUMN_WIDTH);
    }
    // At 120 columns there are two, not three columns cutting "delete (type the name to co…".
    expect(helpLayout(116).count).toBe(2);
  });

  it("puts the screen's own groups first, marked, in the footer's order, and every other group after, unmarked", () => {
    const columns = helpColumns(2, ['intern', 'global']);
    expect(columns.map((c) => c[0])).toEqual([
      { kind: 'title', text: `${HERE_MARK} ${SCOPE_TITLES.intern}`, here: true },
      { kind: 'title', text: `${HERE_MARK} ${SCOPE_TITLES.global}`, here: true },
    ]);
    const all = titles(columns);
    expect(all.filter((t) => t.startsWith(HERE_MARK))).toEqual([`${HERE_MARK} ${SCOPE_TITLES.intern}`, `${HERE_MARK} ${SCOPE_TITLES.global}`]);
    // Every group once, the commands last.
    expect(all.map((t) => t.replace(`${HERE_MARK} `, '')).sort()).toEqual([...Object.values(SCOPE_TITLES), 'Commands (after :)'].sort());
  });

  it('brings in the scopes a scope implies: a list moves with the cursor keys', () => {
    const all = titles(helpColumns(1, ['list'] as Scope[]));
    expect(all.slice(0, 2)).toEqual([`${HERE_MARK} ${SCOPE_TITLES.cursor}`, `${HERE_MARK} ${SCOPE_TITLES.list}`]);
  });

  it('marks nothing when no screen is named', () => {
    expect(titles(helpColumns(3)).some((t) => t.includes(HERE_MARK))).toBe(false);
  });
});
