import { describe, expect, it } from 'vitest';
import { HERE_MARK, helpColumns, helpLayout } from '../../../src/tui/components/HelpOverlay.js';
import { SCOPE_TITLES, type Scope } from '../../../src/tui/keymap.js';

const titles = (columns: ReturnType<typeof helpColumns>) => columns.flatMap((c) => c.flatMap((l) => (l.kind === 'title' ? [l.text] : [])));

describe('the help overlay', () => {
  it('lays out columns that fill the width, one cell apart, none narrower than 38 unless the width is', () => {
    expect(helpLayout(96)).toEqual({ count: 2, width: 47 });
    expect(helpLayout(26)).toEqual({ count: 1, width: 26 });
    expect(helpLayout(38)).toEqual({ count: 1, width: 38 });
    expect(helpLayout(77)).toEqual({ count: 2, width: 38 });
    for (let inner = 1; inner <= 400; inner++) {
      const { count, width } = helpLayout(inner);
      expect(count * width + (count - 1)).toBeLessThanOrEqual(inner);
      if (inner >= 38) expect(width).toBeGreaterThanOrEqual(38);
    }
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
