/**
 * The split view's layout and key routing, apart from React: how a pane is
 * cut between the chat and the terminal (side by side on a wide terminal, one
 * above the other on a narrow one), how the split moves, and where a raw key
 * goes. SplitScreen.tsx draws what this decides.
 */
import { decodeInput, type KeyEvent } from '../attach/keys.js';
import { splitAction, type SplitAction } from './rawKeys.js';
import { PASTE_START } from './terminal.js';

/** Narrower than this, the panes stack (the chat above the terminal): side by side, each would be cramped. */
export const STACK_BELOW_COLUMNS = 120;
/** The chat's share of the pane: at first, each step of the resize keys, and its bounds. */
export const SPLIT_RATIO = { initial: 0.5, step: 0.1, min: 0.2, max: 0.8 } as const;
/** The smallest pane either side keeps, in cells across (side by side) or rows (stacked). */
export const MIN_PANE = { columns: 20, rows: 4 } as const;

export type Focus = 'chat' | 'terminal';

export interface PaneSize {
  columns: number;
  rows: number;
}

export interface SplitLayout {
  /** `row`: side by side, the chat on the left; `column`: stacked, the chat on top. */
  direction: 'row' | 'column';
  chat: PaneSize;
  terminal: PaneSize;
}

/** The ratio one resize step away (`grow`: the chat's share up), within bounds, on the step grid. */
export function stepRatio(ratio: number, grow: boolean): number {
  const next = Math.round((ratio + (grow ? SPLIT_RATIO.step : -SPLIT_RATIO.step)) * 10) / 10;
  return Math.min(SPLIT_RATIO.max, Math.max(SPLIT_RATIO.min, next));
}

/** Cuts `length` cells in two at `ratio`, less one for the rule between, each side at least `min` when there is room. */
function cut(length: number, ratio: number, min: number): [number, number] {
  const room = Math.max(0, length - 1);
  const first = Math.round(room * ratio);
  const lo = Math.min(min, Math.floor(room / 2));
  const a = Math.min(room - lo, Math.max(lo, first));
  return [a, room - a];
}

/** The panes for the screen's pane at a ratio: side by side from STACK_BELOW_COLUMNS across, else stacked. */
export function splitLayout(pane: PaneSize, ratio: number): SplitLayout {
  const columns = Math.max(1, pane.columns);
  const rows = Math.max(1, pane.rows);
  if (columns >= STACK_BELOW_COLUMNS) {
    const [chat, terminal] = cut(columns, ratio, MIN_PANE.columns);
    return { direction: 'row', chat: { columns: chat, rows }, terminal: { columns: terminal, rows } };
  }
  const [chat, terminal] = cut(rows, ratio, MIN_PANE.rows);
  return { direction: 'column', chat: { columns, rows: chat }, terminal: { columns, rows: terminal } };
}

/**
 * Where a raw key goes with `focus` where it is: the focus key always moves the focus; the resize
 * keys move the split while the chat has focus (with the terminal focused they are the remote's,
 * as every key but the focus key is); anything else goes to the focused pane.
 */
export function routeKey(focus: Focus, event: KeyEvent): SplitAction | 'pane' {
  const action = splitAction(event);
  if (action === 'focus') return action;
  if (action && focus === 'chat') return action;
  return 'pane';
}

/** A function key's sequence (CSI n ~, SS3 P-S, CSI 1;m P-S): where a focus key can be in a read. */
const FUNCTION_KEY = /\x1b(?:\[\d+(?:;\d+)?~|O[PQRS]|\[1;\d+[PQRS])/g;

/**
 * A read from the terminal while the terminal pane has focus: the focus key found in it (never
 * inside a paste), and what goes to the remote (the read without it).
 */
export function terminalRead(chunk: string): { focus: boolean; rest: string } {
  if (chunk.includes(PASTE_START)) return { focus: false, rest: chunk };
  let focus = false;
  const rest = chunk.replace(FUNCTION_KEY, (seq) => {
    const isFocus = decodeInput(seq).some((e) => routeKey('terminal', e) === 'focus');
    if (isFocus) focus = true;
    return isFocus ? '' : seq;
  });
  return { focus, rest };
}
