// The attach reference: @xterm/headless alone parsing the flood file (same size and scrollback
// as the attached TUI), in a process of its own so its peak memory is its own.
// Prints one JSON line: { mbps, rssMb }.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import xterm from '@xterm/headless';

const [file, cols, rows, scrollback] = process.argv.slice(2);
const size = statSync(file).size;
const term = new xterm.Terminal({ allowProposedApi: true, cols: Number(cols), rows: Number(rows), scrollback: Number(scrollback) });
// Read in 64 KiB pieces (so the file itself does not count in the peak), each handed over from
// the last one's write callback, which xterm runs inside its parse loop: the emulator parses
// without a break, as it does with a backlog. Awaiting each write instead waited out a timer
// per piece (xterm schedules a write into an empty buffer with setTimeout), which measured the
// emulator about a third slower than it parses.
// One buffer serves every piece: each is parsed by the time its callback reads the next.
const fd = openSync(file, 'r');
const piece = Buffer.allocUnsafe(64 * 1024);
const start = performance.now();
await new Promise((resolve) => {
  const next = () => {
    const n = readSync(fd, piece);
    if (n === 0) resolve(undefined);
    else term.write(piece.subarray(0, n), next);
  };
  next();
});
const secs = (performance.now() - start) / 1000;
closeSync(fd);
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(JSON.stringify({ mbps: size / 2 ** 20 / secs, rssMb: Number(hwm?.[1] ?? 0) / 1024 }) + '\n');
