// The attach reference: @xterm/headless alone parsing the flood file (same size and scrollback
// as the attached TUI), in a process of its own so its peak memory is its own.
// Prints one JSON line: { mbps, rssMb }.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import xterm from '@xterm/headless';

const [file, cols, rows, scrollback] = process.argv.slice(2);
const size = statSync(file).size;
const term = new xterm.Terminal({ allowProposedApi: true, cols: Number(cols), rows: Number(rows), scrollback: Number(scrollback) });
// Streamed in 64 KiB reads, so the file itself does not count in the peak.
const start = performance.now();
for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
  await new Promise((r) => term.write(chunk, r));
}
const secs = (performance.now() - start) / 1000;
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(JSON.stringify({ mbps: size / 2 ** 20 / secs, rssMb: Number(hwm?.[1] ?? 0) / 1024 }) + '\n');
