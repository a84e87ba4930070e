/**
 * Keys while attached. Input from the outer terminal is decoded into key
 * events; each is encoded for the remote terminal's current modes
 * (application cursor keys, bracketed paste, meta as ESC prefix).
 */
import { encodeMouse, leadingReport, parseMouse, WHEEL_ROWS, type MouseReport } from './mouse.js';
import type { TerminalModel } from './terminal.js';
import { mouseEncoding } from './xtermCore.js';

export type KeyEvent =
  | { kind: 'text'; text: string; alt?: boolean }
  /** A mouse report (mouse.ts): as it came, and what it says (null: a legacy one that could not be read). */
  | { kind: 'mouse'; bytes: string; report: MouseReport | null }
  | { kind: 'paste'; text: string }
  | { kind: 'key'; name: NamedKey; shift?: boolean; alt?: boolean; ctrl?: boolean }
  | { kind: 'raw'; bytes: string };

export type NamedKey =
  | 'up' | 'down' | 'right' | 'left' | 'home' | 'end' | 'insert' | 'delete' | 'pageup' | 'pagedown'
  | 'f1' | 'f2' | 'f3' | 'f4' | 'f5' | 'f6' | 'f7' | 'f8' | 'f9' | 'f10' | 'f11' | 'f12'
  | 'backtab';

export interface RemoteModes {
  applicationCursorKeysMode: boolean;
  bracketedPasteMode: boolean;
}

const ARROWS: Record<string, NamedKey> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const TILDE: Record<string, NamedKey> = {
  '1': 'home', '2': 'insert', '3': 'delete', '4': 'end', '5': 'pageup', '6': 'pagedown', '7': 'home', '8': 'end',
  '11': 'f1', '12': 'f2', '13': 'f3', '14': 'f4', '15': 'f5', '17': 'f6', '18': 'f7', '19': 'f8', '20': 'f9', '21': 'f10', '23': 'f11', '24': 'f12',
};
const SS3_F: Record<string, NamedKey> = { P: 'f1', Q: 'f2', R: 'f3', S: 'f4' };

/** xterm modifier parameter: 1 + shift + 2*alt + 4*ctrl. */
function modifiers(param: string | undefined): { shift?: boolean; alt?: boolean; ctrl?: boolean } {
  const m = Math.max(0, Number(param ?? '1') - 1);
  const out: { shift?: boolean; alt?: boolean; ctrl?: boolean } = {};
  if (m & 1) out.shift = true;
  if (m & 2) out.alt = true;
  if (m & 4) out.ctrl = true;
  return out;
}

// The paste alternative comes first: `[200~` would otherwise read as a tilde key.
const SEQUENCE = /^\x1b(?:\[200~([\s\S]*?)\x1b\[201~|\[(\d+)(?:;(\d+))?~|\[(?:1;(\d+))?([ABCDHF])|O([ABCDHFPQRS])|\[(?:1;(\d+))?([PQRS])|\[Z)/;

/** Decodes one chunk of outer-terminal input into key events. */
export function decodeInput(input: string): KeyEvent[] {
  const events: KeyEvent[] = [];
  let rest = input;
  while (rest.length > 0) {
    if (rest.startsWith('\x1b')) {
      // A mouse report first: as a CSI it would pass through as raw bytes, and the legacy form's
      // three bytes after ESC [ M as typed text.
      const report = leadingReport(rest);
      if (report) {
        events.push({ kind: 'mouse', bytes: report, report: parseMouse(report) });
        rest = rest.slice(report.length);
        continue;
      }
      const m = SEQUENCE.exec(rest);
      if (m) {
        const [all, paste, tildeCode, tildeMod, arrowMod, arrow, ss3, fMod, fKey] = m;
        if (paste !== undefined) events.push({ kind: 'paste', text: paste });
        else if (all === '\x1b[Z') events.push({ kind: 'key', name: 'backtab', shift: true });
        else if (tildeCode !== undefined && TILDE[tildeCode]) events.push({ kind: 'key', name: TILDE[tildeCode]!, ...modifiers(tildeMod) });
        else if (arrow !== undefined) events.push({ kind: 'key', name: ARROWS[arrow]!, ...modifiers(arrowMod) });
        else if (ss3 !== undefined) events.push({ kind: 'key', name: (ARROWS[ss3] ?? SS3_F[ss3])! });
        // ESC [1;1R is a cursor position report (row 1, column 1), not F3: a key never encodes
        // "no modifier" as 1. Passed on as it came (attach NAME relays the terminal's answers).
        else if (fKey !== undefined && fMod !== '1') events.push({ kind: 'key', name: SS3_F[fKey]!, ...modifiers(fMod) });
        else events.push({ kind: 'raw', bytes: all });
        rest = rest.slice(all.length);
        continue;
      }
      // Another escape sequence we do not model passes through whole (CSI ... final byte).
      const csi = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(rest);
      if (csi) {
        events.push({ kind: 'raw', bytes: csi[0] });
        rest = rest.slice(csi[0].length);
        continue;
      }
      // ESC followed by a printable character: alt/meta + that key.
      const next = rest[1];
      if (next !== undefined && next !== '\x1b' && next >= ' ') {
        events.push({ kind: 'text', text: next, alt: true });
        rest = rest.slice(2);
        continue;
      }
      events.push({ kind: 'raw', bytes: '\x1b' });
      rest = rest.slice(1);
      continue;
    }
    const nextEsc = rest.indexOf('\x1b');
    const text = nextEsc === -1 ? rest : rest.slice(0, nextEsc);
    events.push({ kind: 'text', text });
    rest = rest.slice(text.length);
  }
  return events;
}

/** Encodes a key event for the remote's modes. */
export function encodeKey(event: KeyEvent, modes: RemoteModes): string {
  switch (event.kind) {
    case 'raw':
      return event.bytes;
    case 'mouse':
      // As it came (attach NAME: the terminal wrote it as the remote asked); the TUI's session decides itself (attachedMouse.ts).
      return event.bytes;
    case 'text':
      return (event.alt ? '\x1b' : '') + event.text;
    case 'paste': {
      // Inside a paste, newlines are carriage returns as a terminal would send them.
      const text = event.text.replace(/\r?\n/g, '\r');
      return modes.bracketedPasteMode ? `\x1b[200~${text.replace(/\x1b\[201~/g, '')}\x1b[201~` : text;
    }
    case 'key':
      return encodeNamed(event, modes);
  }
}

function encodeNamed(e: Extract<KeyEvent, { kind: 'key' }>, modes: RemoteModes): string {
  const mod = 1 + (e.shift ? 1 : 0) + (e.alt ? 2 : 0) + (e.ctrl ? 4 : 0);
  const letter: Partial<Record<NamedKey, string>> = { up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F' };
  const tilde: Partial<Record<NamedKey, string>> = {
    insert: '2', delete: '3', pageup: '5', pagedown: '6', f5: '15', f6: '17', f7: '18', f8: '19', f9: '20', f10: '21', f11: '23', f12: '24',
  };
  const ss3F: Partial<Record<NamedKey, string>> = { f1: 'P', f2: 'Q', f3: 'R', f4: 'S' };
  if (e.name === 'backtab') return '\x1b[Z';
  const l = letter[e.name];
  if (l) {
    if (mod > 1) return `\x1b[1;${mod}${l}`;
    return modes.applicationCursorKeysMode ? `\x1bO${l}` : `\x1b[${l}`;
  }
  const f = ss3F[e.name];
  if (f) return mod > 1 ? `\x1b[1;${mod}${f}` : `\x1bO${f}`;
  const t = tilde[e.name];
  if (t) return mod > 1 ? `\x1b[${t};${mod}~` : `\x1b[${t}~`;
  return '';
}

/** Local history keys, never sent: shift+PageUp / shift+PageDown. */
export function scrollOf(event: KeyEvent): -1 | 1 | 0 {
  if (event.kind !== 'key' || !event.shift) return 0;
  return event.name === 'pageup' ? -1 : event.name === 'pagedown' ? 1 : 0;
}

/**
 * What a mouse report does while attached in the TUI (the attach screen, the split view's pane):
 * a program inside that turned the mouse on (vim, htop) and whose live screen is shown gets the
 * report in its own cells and in the form it asked for (the emulator's tracking mode and
 * encoding); otherwise the wheel scrolls history (history mode, as shift+pgup), or on the
 * alternate screen, which has none, is the arrow keys (as terminals do for less and man). The
 * remote's cells start below the status bar, at the screen's left edge.
 * Answers lines of history to scroll (negative: up), bytes to send the remote, or null for nothing.
 * `live`: the live screen is shown (not history).
 */
export function attachedMouse(r: MouseReport | null, model: TerminalModel, live: boolean): number | string | null {
  if (!r) return null;
  const origin = { x: 0, y: 1 };
  const tracking = model.modes.mouseTrackingMode;
  if (live && tracking !== 'none') {
    const encoding = mouseEncoding(model.term);
    if (!encoding) return null;
    const at: MouseReport = { ...r, x: r.x - origin.x, y: r.y - origin.y };
    if (at.x < 0 || at.y < 0 || at.x >= model.cols || at.y >= model.rows) return null;
    return encodeMouse(at, tracking, encoding) || null;
  }
  if (r.type !== 'wheel' || (r.wheel !== 'up' && r.wheel !== 'down')) return null;
  if (live && model.term.buffer.active.type === 'alternate') return encodeKey({ kind: 'key', name: r.wheel }, model.modes).repeat(WHEEL_ROWS) || null;
  return r.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS;
}
