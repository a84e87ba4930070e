/**
 * Where a mouse report goes, without React: the boxes that listen (hooks/useMouse.ts registers
 * them), where each is on the screen, and which one a report's cell falls in. The TUI draws in
 * the alternate screen from its top left, so Ink's layout is the screen's: a box's cell is the
 * sum of its own and its ancestors' Yoga offsets (as Ink sums them to draw it), cut by every
 * ancestor that clips (the pane clips the screen above the palette). The deepest box wins, so a
 * table inside a screen that listens too gets its own clicks. Presses count as DOM clicks do: a
 * second press of the same button on the same row within DOUBLE_CLICK_MS is a double-click.
 */
import type { DOMElement } from 'ink';
import type { MouseReport } from '../attach/mouse.js';

/** Two presses this close (and on one row) are a double-click. */
export const DOUBLE_CLICK_MS = 400;
export { WHEEL_ROWS } from '../attach/mouse.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A report as a listener gets it: its cell in the listener's own box, and how many clicks it is. */
export interface MouseEvent extends MouseReport {
  /** 1 a click, 2 a double-click (a press only; 0 for anything else). */
  clicks: number;
}

/** Where a box is: its whole rectangle (a listener reads cells from its top left), what of it its ancestors leave visible, its depth in the tree. */
export interface Place {
  rect: Rect;
  visible: { left: number; top: number; right: number; bottom: number };
  depth: number;
}

export interface MouseTarget {
  /** Where the listener's box is now; null while it is not laid out or nothing of it shows. */
  place: () => Place | null;
  handle: (event: MouseEvent) => void;
  /** Whether it listens now (a screen under an overlay does not). */
  active: () => boolean;
}

/** Whether the box clips its children horizontally and vertically (Ink's own test: render-node-to-output). */
function clipsOf(node: DOMElement): { x: boolean; y: boolean } {
  const s = node.style;
  return { x: s.overflowX === 'hidden' || s.overflow === 'hidden', y: s.overflowY === 'hidden' || s.overflow === 'hidden' };
}

/**
 * Where an Ink box is on the screen: its Yoga offsets summed up to the root, cut by every
 * clipping ancestor; null when it is not laid out or nothing of it is left.
 */
export function placeOf(node: DOMElement): Place | null {
  const chain: DOMElement[] = [];
  for (let n: DOMElement | undefined = node; n; n = n.parentNode) chain.push(n);
  let x = 0;
  let y = 0;
  let [left, top, right, bottom] = [-Infinity, -Infinity, Infinity, Infinity];
  for (let i = chain.length - 1; i >= 0; i--) {
    const yoga = chain[i]!.yogaNode;
    if (!yoga) return null;
    x += yoga.getComputedLeft();
    y += yoga.getComputedTop();
    const [w, h] = [yoga.getComputedWidth(), yoga.getComputedHeight()];
    if (i === 0) {
      left = Math.max(left, x);
      top = Math.max(top, y);
      right = Math.min(right, x + w);
      bottom = Math.min(bottom, y + h);
      if (right <= left || bottom <= top) return null;
      return { rect: { x, y, width: w, height: h }, visible: { left, top, right, bottom }, depth: chain.length };
    }
    const clips = clipsOf(chain[i]!);
    if (clips.x) [left, right] = [Math.max(left, x), Math.min(right, x + w)];
    if (clips.y) [top, bottom] = [Math.max(top, y), Math.min(bottom, y + h)];
  }
  return null;
}

export class MouseRouter {
  private readonly targets = new Set<MouseTarget>();
  private lastPress: { x: number; y: number; button: number; at: number; clicks: number } | null = null;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Listens with `target` until the function it answers is called. */
  add(target: MouseTarget): () => void {
    this.targets.add(target);
    return () => void this.targets.delete(target);
  }

  /** Hands `report` to the deepest active listener its cell falls in, in that listener's cells; false when none took it. */
  dispatch(report: MouseReport): boolean {
    let clicks = 0;
    if (report.type === 'press') {
      const last = this.lastPress;
      const at = this.now();
      clicks = last && last.button === report.button && last.y === report.y && at - last.at <= DOUBLE_CLICK_MS ? last.clicks + 1 : 1;
      this.lastPress = { x: report.x, y: report.y, button: report.button, at, clicks };
    }
    let best: (Place & { target: MouseTarget }) | null = null;
    for (const target of this.targets) {
      if (!target.active()) continue;
      const place = target.place();
      if (!place) continue;
      const v = place.visible;
      if (report.x < v.left || report.x >= v.right || report.y < v.top || report.y >= v.bottom) continue;
      // The deepest wins; of two as deep, the one that began listening last (drawn later, on top).
      if (!best || place.depth >= best.depth) best = { target, ...place };
    }
    if (!best) return false;
    best.target.handle({ ...report, x: report.x - best.rect.x, y: report.y - best.rect.y, clicks });
    return true;
  }
}
