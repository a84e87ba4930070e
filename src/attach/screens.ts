/**
 * The remote's screen switches, kept off the user's terminal in passthrough.
 *
 * `attach NAME` puts the user's terminal on its alternate screen and passes the
 * remote's output to it. A program that switches screens itself (vim, less:
 * DECSET/DECRST 47, 1047, 1049) would take the user's terminal along: leaving
 * its alternate screen lands on the user's own screen, the shell they ran
 * `attach` from, and draws over it (and 1049 saves the cursor over the one the
 * detach restores). So the switches are taken out of what the terminal is
 * given, and the emulator, which saw them, repaints the screen instead.
 */

/** The private modes that switch screens: DECSET/DECRST 47, 1047, 1049. */
const SWITCHES = new Set([47, 1047, 1049]);

/** Whether a private mode (a DECSET/DECRST parameter) switches screens. */
export function isScreenSwitch(mode: number | number[]): boolean {
  return typeof mode === 'number' && SWITCHES.has(mode);
}

/** The start of every private mode sequence, `ESC [ ?`. */
const PRIVATE_MODE = Buffer.from('\x1b[?', 'latin1');

/**
 * `data` without the screen-switch modes of its complete `ESC [ ? … h/l` sequences (other modes in
 * the same sequence stay), and whether it had any. A sequence cut by the end of the chunk is left
 * as it is: the caller repaints on the emulator's word (it sees every switch) whatever this found.
 */
export function withoutScreenSwitches(data: Uint8Array): { data: Uint8Array; switched: boolean } {
  // One native search for `ESC [ ?`: a flood's many colour sequences are not looked at one by one.
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (let at = view.indexOf(PRIVATE_MODE); at !== -1; at = view.indexOf(PRIVATE_MODE, at + 1)) {
    let end = at + 3;
    while (end < data.length && ((data[end]! >= 0x30 && data[end]! <= 0x39) || data[end] === 0x3b)) end++;
    const final = data[end];
    if (final !== 0x68 && final !== 0x6c) continue;
    const params = view.toString('latin1', at + 3, end).split(';');
    const kept = params.filter((p) => !isScreenSwitch(Number(p)));
    if (kept.length === params.length) continue;
    parts.push(data.subarray(from, at));
    if (kept.length > 0) parts.push(Buffer.from(`\x1b[?${kept.join(';')}${String.fromCharCode(final)}`, 'latin1'));
    from = end + 1;
    at = end;
  }
  if (parts.length === 0) return { data, switched: false };
  parts.push(data.subarray(from));
  return { data: Buffer.concat(parts), switched: true };
}
