/**
 * asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/), the format
 * asciinema, asciinema-player and agg play: a JSON header line, then one JSON
 * array a line, `[seconds, code, data]`. Codes: `o` output, `i` input, `r` a
 * resize ("COLSxROWS"), `m` a marker (its label). The writer is recorder.ts;
 * this is the codec both it and replay use.
 */

export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  /** Unix time (seconds) the recording began. */
  timestamp?: number;
  title?: string;
  env?: Record<string, string>;
}

export type CastCode = 'o' | 'i' | 'r' | 'm';
export interface CastEvent {
  time: number;
  code: CastCode;
  data: string;
}

/** A file that is not asciicast v2, or a line of it that is not: said in one line. */
export class CastError extends Error {
  override readonly name = 'CastError';
}

/** The most columns or rows a header or a resize may name (the protocol's own bound, protocol.ts). */
const MAX_SIZE = 1000;
const CODES: ReadonlySet<string> = new Set(['o', 'i', 'r', 'm']);

export function encodeHeader(header: CastHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/**
 * One event line. The time has microseconds (as asciinema writes it); `data` is a string, so
 * JSON escapes every control character (`\u001b`) and the line holds no raw line break.
 */
export function encodeEvent(time: number, code: CastCode, data: string): string {
  return `${eventHead(time, code)}${JSON.stringify(data)}${EVENT_END}`;
}

/** An event line up to its data, `[time, "code", `: the recorder's worker writes output's data from bytes (castBytes.ts). */
export const eventHead = (time: number, code: CastCode): string => `[${time.toFixed(6)}, ${JSON.stringify(code)}, `;
export const EVENT_END = ']\n';

/** "COLSxROWS", as a resize event carries it. */
export const sizeOf = (cols: number, rows: number): string => `${cols}x${rows}`;

/** Parses "COLSxROWS"; undefined for anything else. */
export function parseSize(text: string): { cols: number; rows: number } | undefined {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(text);
  if (!m) return undefined;
  const cols = Number(m[1]);
  const rows = Number(m[2]);
  return cols >= 1 && rows >= 1 && cols <= MAX_SIZE && rows <= MAX_SIZE ? { cols, rows } : undefined;
}

const isSize = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_SIZE;

/**
 * Reads a recording: its header and its events, in order. Throws CastError, in words a person
 * can act on, for anything that is not asciicast v2 (another version, a header without a size, a
 * line that is not an event, time going backwards). A last line cut off (a recording whose
 * writer was killed) is left out, not refused.
 */
export function parseCast(text: string): { header: CastHeader; events: CastEvent[] } {
  const lines = text.split('\n');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  } catch {
    throw new CastError('not an asciicast recording: its first line is not a JSON header');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new CastError('not an asciicast recording: its first line is not a JSON header');
  if (header.version !== 2) throw new CastError(`not asciicast v2: its header says version ${JSON.stringify(header.version ?? null).slice(0, 20)}`);
  if (!isSize(header.width) || !isSize(header.height)) throw new CastError('not a usable asciicast v2 header: width and height must be whole numbers from 1 to 1000');
  const events: CastEvent[] = [];
  let last = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      if (i === lines.length - 1) break; // cut off while it was written
      throw new CastError(`line ${i + 1} of the recording is not JSON`);
    }
    if (!Array.isArray(event) || event.length !== 3 || typeof event[0] !== 'number' || !Number.isFinite(event[0]) || typeof event[1] !== 'string' || typeof event[2] !== 'string') {
      throw new CastError(`line ${i + 1} of the recording is not an event ([time, code, data])`);
    }
    const [time, code, data] = event as [number, string, string];
    // Codes this version does not know (asciicast allows more) are passed over, as players do.
    if (!CODES.has(code)) continue;
    if (time < last) throw new CastError(`line ${i + 1} of the recording goes back in time (${time} after ${last})`);
    last = time;
    events.push({ time, code: code as CastCode, data });
  }
  const out: CastHeader = { version: 2, width: header.width, height: header.height };
  if (typeof header.timestamp === 'number') out.timestamp = header.timestamp;
  if (typeof header.title === 'string') out.title = header.title;
  if (typeof header.env === 'object' && header.env !== null) {
    out.env = Object.fromEntries(Object.entries(header.env as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return { header: out, events };
}

/** A recording's time as m:ss, or h:mm:ss past an hour (the player and the recordings list; here, so the list needs no emulator). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
