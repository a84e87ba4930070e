import { describe, expect, it } from 'vitest';
import { decodeInput } from '../../../src/attach/keys.js';
import { routeKey, SPLIT_RATIO, splitLayout, stepRatio, STACK_BELOW_COLUMNS, terminalRead } from '../../../src/tui/splitLayout.js';

const F6 = '\x1b[17~';
const F7 = '\x1b[18~';
const F8 = '\x1b[19~';
const one = (bytes: string) => {
  const events = decodeInput(bytes);
  expect(events).toHaveLength(1);
  return events[0]!;
};

describe('the split layout', () => {
  it('puts the panes side by side from 120 columns, the chat on the left, one column for the rule', () => {
    const l = splitLayout({ columns: 140, rows: 37 }, 0.5);
    expect(l.direction).toBe('row');
    expect(l.chat).toEqual({ columns: 70, rows: 37 });
    expect(l.terminal).toEqual({ columns: 69, rows: 37 });
    const edge = splitLayout({ columns: STACK_BELOW_COLUMNS, rows: 30 }, 0.5);
    expect(edge.direction).toBe('row');
    expect(edge.chat.columns + edge.terminal.columns + 1).toBe(STACK_BELOW_COLUMNS);
  });

  it('stacks them below 120 columns, the chat on top, each the full width, one row for the rule', () => {
    const l = splitLayout({ columns: STACK_BELOW_COLUMNS - 1, rows: 31 }, 0.5);
    expect(l.direction).toBe('column');
    expect(l.chat).toEqual({ columns: 119, rows: 15 });
    expect(l.terminal).toEqual({ columns: 119, rows: 15 });
    expect(splitLayout({ columns: 80, rows: 21 }, 0.7)).toEqual({ direction: 'column', chat: { columns: 80, rows: 14 }, terminal: { columns: 80, rows: 6 } });
  });

  it('follows the ratio, and keeps each pane a minimum where there is room', () => {
    expect(splitLayout({ columns: 201, rows: 40 }, 0.3).chat.columns).toBe(60);
    expect(splitLayout({ columns: 201, rows: 40 }, 0.8).terminal.columns).toBe(40);
    // Ratios outside the bounds still leave the other pane its minimum.
    expect(splitLayout({ columns: 121, rows: 40 }, 0.99).terminal.columns).toBe(20);
    expect(splitLayout({ columns: 80, rows: 12 }, 0.01).chat.rows).toBe(4);
    // A tiny pane is cut as evenly as it can be, never negative.
    const tiny = splitLayout({ columns: 10, rows: 3 }, 0.5);
    expect(tiny.chat.rows + tiny.terminal.rows).toBe(2);
    expect(Math.min(tiny.chat.rows, tiny.terminal.rows)).toBeGreaterThanOrEqual(0);
  });

  it('moves the ratio a step at a time within its bounds', () => {
    expect(stepRatio(SPLIT_RATIO.initial, true)).toBe(0.6);
    expect(stepRatio(SPLIT_RATIO.initial, false)).toBe(0.4);
    let r: number = SPLIT_RATIO.initial;
    for (let i = 0; i < 10; i++) r = stepRatio(r, true);
    expect(r).toBe(SPLIT_RATIO.max);
    for (let i = 0; i < 10; i++) r = stepRatio(r, false);
    expect(r).toBe(SPLIT_RATIO.min);
  });
});

describe('the split focus routing', () => {
  it('moves the focus with F6 from either pane', () => {
    expect(routeKey('chat', one(F6))).toBe('focus');
    expect(routeKey('terminal', one(F6))).toBe('focus');
  });

  it('gives F7/F8 to the split while the chat has focus, and to the remote while the terminal has', () => {
    expect(routeKey('chat', one(F7))).toBe('shrink');
    expect(routeKey('chat', one(F8))).toBe('grow');
    expect(routeKey('terminal', one(F7))).toBe('pane');
    expect(routeKey('terminal', one(F8))).toBe('pane');
  });

  it("leaves a shell's, vim's and emacs's keys to the pane", () => {
    for (const bytes of ['\x03', '\x1a', '\x1b', '\x17', '\x1d', '\x0f', '\x18', '\x02', '\x1bx', '\x1b[A', '\x1b[5;2~', '\x1bOP', 'q', ':', '\t']) {
      for (const event of decodeInput(bytes)) {
        expect(routeKey('terminal', event)).toBe('pane');
        expect(routeKey('chat', event)).toBe('pane');
      }
    }
  });

  it("takes the focus key out of the terminal's reads, and nothing else, not inside a paste", () => {
    expect(terminalRead(F6)).toEqual({ focus: true, rest: '' });
    expect(terminalRead(`ls${F6}`)).toEqual({ focus: true, rest: 'ls' });
    expect(terminalRead(`${F7}${F8}\x1b[A`)).toEqual({ focus: false, rest: `${F7}${F8}\x1b[A` });
    const paste = `\x1b[200~a${F6}b\x1b[201~`;
    expect(terminalRead(paste)).toEqual({ focus: false, rest: paste });
  });
});
