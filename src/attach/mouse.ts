/**
 * Mouse reports, both ways: decoding what a terminal sends once mouse reporting is on (the TUI
 * asks for SGR reports, `ESC [ < b ; x ; y M` for a press and `m` for a release, DECSET 1000 +
 * 1006; a terminal without SGR sends the legacy X10 form, `ESC [ M` and three bytes), and
 * encoding a report for a program inside an intern's terminal in the form it asked for (its
 * tracking mode and encoding, as the emulator keeps them). No React, no terminal: tui's key
 * splitter and attach's session both read reports with it, so a report never becomes typed text.
 */

/** What a button code's low bits, wheel and extra bits mean (xterm's ctlseqs, "Mouse Tracking"). */
const SHIFT = 4;
const ALT = 8;
const CTRL = 16;
const MOTION = 32;
const WHEEL = 64;
const EXTRA = 128;

export type WheelDirection = 'up' | 'down' | 'left' | 'right';
const WHEELS: readonly WheelDirection[] = ['up', 'down', 'left', 'right'];

export interface MouseReport {
  /** A button went down or up, the pointer moved (with a button held: a drag), or the wheel turned a notch. */
  type: 'press' | 'release' | 'motion' | 'wheel';
  /** 0 left, 1 middle, 2 right, 3 none (an X10 release, a motion with no button), 8-11 extra buttons; -1 for the wheel. */
  button: number;
  /** The wheel's direction (type 'wheel' only). */
  wheel?: WheelDirection;
  /** The cell, from 0: column and row of the screen. */
  x: number;
  y: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

/** Rows a wheel notch scrolls (a list, a body, a transcript, attach's history), as most terminals scroll their own. */
export const WHEEL_ROWS = 3;

/** An SGR report: whole, and at the start of an input. */
const SGR_BODY = String.raw`\x1b\[<(\d{1,5});(\d{1,5});(\d{1,5})([Mm])`;
const SGR = new RegExp(`^${SGR_BODY}$`);
const SGR_LEAD = new RegExp(`^${SGR_BODY}`);
/** The start of an SGR report that has not ended yet. */
const SGR_PREFIX = /\x1b(?:\[(?:<[\d;]*)?)?$/;

/** The report a button code, a cell (from 1) and a release flag make. */
function report(code: number, col: number, row: number, released: boolean): MouseReport {
  const mods = { shift: (code & SHIFT) !== 0, alt: (code & ALT) !== 0, ctrl: (code & CTRL) !== 0 };
  const low = code & 3;
  const at = { x: Math.max(0, col - 1), y: Math.max(0, row - 1) };
  if (code & EXTRA) return { type: released ? 'release' : code & MOTION ? 'motion' : 'press', button: 8 + low, ...at, ...mods };
  if (code & WHEEL) return { type: 'wheel', button: -1, wheel: WHEELS[low]!, ...at, ...mods };
  return { type: released ? 'release' : code & MOTION ? 'motion' : 'press', button: low, ...at, ...mods };
}

/**
 * The report `seq` is, if it is one: an SGR report, or an X10 one (`ESC [ M` and three bytes,
 * each 32 more than its value). A legacy report whose bytes a decoder could not read (a column
 * past 95 sent as one byte above 127, not UTF-8) is still a report: `parseMouse` answers null
 * for it, `isMouseReport` true, so it is dropped rather than typed.
 */
export function parseMouse(seq: string): MouseReport | null {
  const sgr = SGR.exec(seq);
  if (sgr) return report(Number(sgr[1]), Number(sgr[2]), Number(sgr[3]), sgr[4] === 'm');
  if (seq.length === 6 && seq.startsWith('\x1b[M')) {
    const [b, x, y] = [seq.charCodeAt(3) - 32, seq.charCodeAt(4) - 32, seq.charCodeAt(5) - 32];
    if (b < 0 || x < 1 || y < 1 || x > 223 || y > 223) return null;
    // X10 has no release per button: low bits 3 without motion or wheel is "a button went up".
    if ((b & 3) === 3 && !(b & (MOTION | WHEEL | EXTRA))) return { ...report(b, x, y, true), button: 3 };
    return report(b, x, y, false);
  }
  return null;
}

/** Whether `seq` (one escape sequence, as a key splitter cut it) is a mouse report of either form, readable or not. */
export function isMouseReport(seq: string): boolean {
  return SGR.test(seq) || (seq.length === 6 && seq.startsWith('\x1b[M'));
}

/**
 * `input` with every SGR report in it moved by (dx, dy) cells; one that lands left of or above
 * the screen is taken out. (The split view's terminal pane is not at the screen's top left.)
 */
export function moveReports(input: string, dx: number, dy: number): string {
  return input.replace(new RegExp(SGR_BODY, 'g'), (seq) => {
    const r = parseMouse(seq)!;
    const moved = { ...r, x: r.x + dx, y: r.y + dy };
    return moved.x < 0 || moved.y < 0 ? '' : encodeMouse(moved, 'any', 'SGR');
  });
}

/** The report `input` starts with (either form, readable or not), or null. */
export function leadingReport(input: string): string | null {
  const sgr = SGR_LEAD.exec(input);
  if (sgr) return sgr[0];
  return input.startsWith('\x1b[M') && input.length >= 6 ? input.slice(0, 6) : null;
}

/**
 * How many characters at the end of `data` may be the start of a report still arriving (a read
 * cut it in two): they wait for the next read. 0 when the end is no such start.
 */
export function unfinishedReport(data: string): number {
  const legacy = data.lastIndexOf('\x1b[M');
  if (legacy >= 0 && data.length - legacy < 6) return data.length - legacy;
  const m = SGR_PREFIX.exec(data);
  // A lone ESC is the escape key, and ESC [ alone an unfinished key: only `ESC [ <` is surely a report.
  return m && m[0].startsWith('\x1b[<') ? m[0].length : 0;
}

/** What a program inside a terminal asked to hear (xterm.js's names for DECSET 9, 1000, 1002, 1003). */
export type MouseTracking = 'none' | 'x10' | 'vt200' | 'drag' | 'any';
/** How it asked for reports to be written: the X10 bytes (DEFAULT) or SGR's numbers (DECSET 1006). */
export type MouseEncoding = 'DEFAULT' | 'SGR';

/**
 * `r` as a program in `tracking` mode reading `encoding` expects it, or '' when that mode reports
 * no such event (X10 mode: presses only, without modifiers; 1000: no motion; 1002: motion only
 * with a button held). In X10 bytes a cell past 95 (or an extra button) is a byte above 127, which
 * the remote would get as two (its input travels as UTF-8 text): such a report is not sent.
 */
export function encodeMouse(r: MouseReport, tracking: MouseTracking, encoding: MouseEncoding): string {
  if (tracking === 'none') return '';
  if (tracking === 'x10' && (r.type !== 'press' || r.button > 2)) return '';
  if (r.type === 'motion' && (tracking === 'x10' || tracking === 'vt200' || (tracking === 'drag' && r.button === 3))) return '';
  const mods = tracking === 'x10' ? 0 : (r.shift ? SHIFT : 0) | (r.alt ? ALT : 0) | (r.ctrl ? CTRL : 0);
  let code: number;
  if (r.type === 'wheel') code = WHEEL | WHEELS.indexOf(r.wheel ?? 'up');
  else if (r.button >= 8) code = EXTRA | (r.button - 8);
  else code = r.button;
  if (r.type === 'motion') code |= MOTION;
  code |= mods;
  if (encoding === 'SGR') return `\x1b[<${code};${r.x + 1};${r.y + 1}${r.type === 'release' ? 'm' : 'M'}`;
  // X10 bytes: a release says button 3 (which one is not said).
  if (r.type === 'release') code = (code & ~3 & ~EXTRA) | 3;
  const bytes = [32 + code, 32 + r.x + 1, 32 + r.y + 1];
  // The input goes to the remote as UTF-8 text: a byte above 127 would arrive as two.
  if (bytes.some((b) => b > 127)) return '';
  return `\x1b[M${String.fromCharCode(...bytes)}`;
}
