/**
 * The split view's terminal pane, per frame: the emulator's visible rows as styled runs
 * (attach/runs.ts, what Ink is handed) against the painter's ANSI rows (attach/painter.ts, what the
 * attach screen writes), for a 69x37 pane (140x40 side by side) of plain text and of text whose
 * colour changes every cell (the worst case: one run a cell). Run: `npx tsx bench/splitPane.ts`.
 */
import xterm from '@xterm/headless';
import { lineAnsi } from '../src/attach/painter.js';
import { lineRuns } from '../src/attach/runs.js';

const COLS = 69;
const ROWS = 37;
const FRAMES = 2000;

async function filled(coloured: boolean): Promise<xterm.Terminal> {
  const term = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  let data = '';
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) data += coloured ? `\x1b[38;5;${(x + y) % 256}m${String.fromCharCode(97 + ((x + y) % 26))}` : String.fromCharCode(97 + ((x + y) % 26));
    data += y < ROWS - 1 ? '\r\n' : '';
  }
  await new Promise<void>((r) => term.write(data, r));
  return term;
}

function time(label: string, frame: () => void): void {
  for (let i = 0; i < 100; i++) frame();
  const t0 = performance.now();
  for (let i = 0; i < FRAMES; i++) frame();
  const us = ((performance.now() - t0) / FRAMES) * 1000;
  console.log(`${label.padEnd(34)} ${us.toFixed(0).padStart(6)} µs a frame`);
}

for (const coloured of [false, true]) {
  const term = await filled(coloured);
  const cell = term.buffer.active.getNullCell();
  const kind = coloured ? 'a colour a cell' : 'plain text';
  time(`runs (Ink's pane), ${kind}`, () => {
    for (let y = 0; y < ROWS; y++) lineRuns(term, y, cell, y === 5 ? 3 : -1);
  });
  time(`ANSI (the painter), ${kind}`, () => {
    for (let y = 0; y < ROWS; y++) lineAnsi(term, y, cell);
  });
}
