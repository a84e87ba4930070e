/**
 * The attach screen's status bar: ` title │ state │ hint `, exactly `cols`
 * cells. When it does not fit, the state is cut first (an exit reason can be
 * long), so the hint (how to detach, or to return) stays.
 */
import { DETACH_NAME } from './detach.js';
import type { CopyMode } from './copyMode.js';
import type { ConnectionState } from './transport.js';
import { pad, truncate, widthOf } from '../text.js';

export interface StatusFacts {
  /** Already sanitised. */
  title: string;
  cols: number;
  state: ConnectionState;
  /** Sanitised. */
  detail: string;
  /** How the remote exited, or null. */
  exited: string | null;
  scrolledBack: number;
  /** History mode's copy mode, and the keys it offers (the caller's words), when it is on. */
  copy: CopyMode | null;
  copyHint?: string;
}

export function statusLine(f: StatusFacts): string {
  const exited = f.exited !== null;
  const state = exited ? f.exited! : f.state === 'open' ? 'connected' : f.state === 'reconnecting' ? `reconnecting… (${f.detail})` : f.state;
  let scrolled = f.scrolledBack > 0 ? ` │ history: ${f.scrolledBack} lines up (shift+pgdn)` : '';
  if (f.copy) {
    const c = f.copy;
    const found = c.query ? `"${c.query}": n/N next/previous` : '';
    const search = c.prompt !== null ? `${c.forward ? '/' : '?'}${c.prompt}▏ (enter searches, esc drops it)` : [found, c.note].filter(Boolean).join(' · ');
    scrolled = ` │ history${f.scrolledBack > 0 ? `: ${f.scrolledBack} lines up` : ''}${c.anchor ? ' │ selecting' : ''}${search ? ` │ ${search}` : ''}${c.prompt === null && f.copyHint ? ` │ ${f.copyHint}` : ''}`;
  }
  const hint = exited ? 'press any key to return' : `${DETACH_NAME} detach`;
  const head = ` ${f.title} │ `;
  const tail = ` │ ${hint} `;
  const room = f.cols - widthOf(head) - widthOf(tail);
  const middle = state + scrolled;
  const text = room >= Math.min(6, widthOf(middle)) ? head + truncate(middle, room) + tail : ` ${hint} │ ${f.title} │ ${middle}`;
  return pad(text, f.cols);
}
