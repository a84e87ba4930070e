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

const ESC = 0x1b;
const SWITCHES = new Set([47, 1047, 1049]);

/**
 * `data` without the screen-switch modes of its complete `ESC [ ? … h/l` sequences (other modes in
 * the same sequence stay), and whether it had any. A sequence cut by the end of the chunk is left
 * as it is: the caller repaints on the emulator's word (it sees every switch) whatever this found.
 */
export function withoutScreenSwitches(data: Uint8Array): { data: Uint8Array; switched: boolean } {
  let at = data.indexOf(ESC);
  if (at === -1) return { data, switched: false };
  const parts: Uint8Array[] = [];
  let from = 0;
  let switched = false;
  for (; at !== -1; at = data.indexOf(ESC, at + 1)) {
    if (data[at + 1] !== 0x5b || data[at + 2] !== 0x3f) continue;
    let end = at + 3;
    while (end < data.length && ((data[end]! >= 0x30 && data[end]! <= 0x39) || data[end] === 0x3b)) end++;
    const final = data[end];
    if (final !== 0x68 && final !== 0x6c) continue;
    const params = Buffer.from(data.subarray(at + 3, end)).toString('latin1').split(';');
    const kept = params.filter((p) => !SWITCHES.has(Number(p)));
    if (kept.length === params.length) continue;
    switched = true;
    parts.push(data.subarray(from, at));
    if (kept.length > 0) parts.push(Buffer.from(`\x1b[?${kept.join(';')}${String.fromCharCode(final)}`, 'latin1'));
    from = end + 1;
    at = end;
  }
  if (!switched) return { data, switched };
  parts.push(data.subarray(from));
  return { data: Buffer.concat(parts), switched };
}
