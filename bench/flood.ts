/** The benchmark's flood: mixed ANSI text (16, 256 and truecolour, attributes, wide characters), numbered lines. */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

const WORDS = ['intern', 'provision', 'daemon', 'terminal', 'replay', 'offset', 'window', 'byok', 'sandbox', 'workspace', 'schema', 'deadline'];
const WIDE = ['日本語', '表示', '終端', '漢字'];

/** The text of line `n`: always starts with `L` and its number in seven digits. */
export function floodLine(n: number): string {
  const parts = [`L${String(n).padStart(7, '0')} `];
  const w = (k: number) => WORDS[(n * 7 + k * 13) % WORDS.length]!;
  switch (n % 6) {
    case 0:
      parts.push(`\x1b[3${n % 8}m${w(1)} ${w(2)}\x1b[0m \x1b[1m${w(3)}\x1b[22m ${w(4)} ${w(5)}`);
      break;
    case 1:
      parts.push(`\x1b[38;5;${n % 256}m${w(1)} ${w(2)} ${w(3)}\x1b[39m \x1b[48;5;${(n * 3) % 256}m${w(4)}\x1b[49m`);
      break;
    case 2:
      parts.push(`\x1b[38;2;${n % 256};${(n * 5) % 256};${(n * 11) % 256}m${w(1)} ${w(2)} ${w(3)} ${w(4)}\x1b[0m`);
      break;
    case 3:
      parts.push(`\x1b[3m${w(1)}\x1b[23m \x1b[4m${w(2)}\x1b[24m \x1b[7m${w(3)}\x1b[27m ${WIDE[n % WIDE.length]} ${w(4)}`);
      break;
    case 4:
      parts.push(`${w(1)} ${w(2)} ${w(3)} ${w(4)} ${w(5)} ${w(6)} ${w(7)} ${w(8)}`);
      break;
    default:
      parts.push(`\x1b[9${n % 8}m${w(1)}\x1b[0m=${(n * 2654435761) % 1_000_000} ${w(2)} \x1b[2m${w(3)}\x1b[0m`);
  }
  return parts.join('');
}

/** Writes at least `size` bytes of flood to `file`; the last line is unique to this run. */
export function writeFlood(file: string, size: number): { bytes: number; lines: number; lastLine: string } {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let n = 0;
  try {
    while (bytes < size) {
      const chunk: string[] = [];
      for (let i = 0; i < 2000; i++) chunk.push(floodLine(n++));
      const buf = Buffer.from(chunk.join('\n') + '\n');
      writeSync(fd, buf);
      bytes += buf.length;
    }
    const lastLine = `END-OF-FLOOD-${randomBytes(6).toString('hex')}`;
    const tail = Buffer.from(lastLine + '\n');
    writeSync(fd, tail);
    bytes += tail.length;
    return { bytes, lines: n + 1, lastLine };
  } finally {
    closeSync(fd);
  }
}
