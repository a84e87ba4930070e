/** fieldWindow: which of a form's fields a short pane draws around the focused one. */
import { describe, expect, it } from 'vitest';
import { fieldWindow } from '../../../src/tui/components/FieldWindow.js';

/** The rows the window takes: its fields and a line for each side that has fields left out. */
const used = (rows: number[], [from, to]: [number, number]) => rows.slice(from, to).reduce((a, b) => a + b, 0) + (from > 0 ? 1 : 0) + (to < rows.length ? 1 : 0);

describe('fieldWindow', () => {
  it('draws every field when they fit, with no lines for more', () => {
    expect(fieldWindow([1, 1, 1, 4], 3, 7)).toEqual([0, 4]);
    expect(fieldWindow([1, 1, 1, 4], 0, 100)).toEqual([0, 4]);
    expect(fieldWindow([], 0, 5)).toEqual([0, 0]);
  });

  it('keeps a tall focused field whole and fills what is left with its neighbours', () => {
    // The settings form at 10 rows: name, description, model, instructions (one line in a box).
    expect(fieldWindow([1, 1, 1, 4], 3, 5)).toEqual([3, 4]); // "↑ 3 more fields" and the box
    expect(fieldWindow([1, 1, 1, 4], 3, 6)).toEqual([2, 4]);
    expect(fieldWindow([1, 1, 1, 4], 0, 5)).toEqual([0, 3]); // and "↓ 1 more field"
  });

  it('grows after the focus first, then before it', () => {
    expect(fieldWindow([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 5, 5)).toEqual([4, 7]);
    expect(fieldWindow([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 9, 5)).toEqual([6, 10]);
    expect(fieldWindow([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 5)).toEqual([0, 4]);
  });

  it('never uses more rows than it has, and always draws the focused field', () => {
    for (let n = 1; n <= 8; n++) {
      for (let seed = 0; seed < 20; seed++) {
        const rows = Array.from({ length: n }, (_, i) => 1 + ((i * 7 + seed * 3) % 4));
        for (let focus = 0; focus < n; focus++) {
          for (let room = 1; room <= 20; room++) {
            const w = fieldWindow(rows, focus, room);
            expect(w[0]).toBeLessThanOrEqual(focus);
            expect(w[1]).toBeGreaterThan(focus);
            // Only a focused field taller than the pane may overrun it, and then it is drawn alone.
            if (w[1] - w[0] > 1) expect(used(rows, w)).toBeLessThanOrEqual(room);
          }
        }
      }
    }
  });
});
