/** Writing to a stream at its reader's pace, and where a terminal's cursor is after a write. */
import { widthOf } from '../../text.js';

/**
 * The one way a command's output is written: `text` to `stream`, resolving once the stream takes
 * more: at once while what it holds is under its high-water mark, else on `drain`. A stream that
 * closes or fails meanwhile resolves it too (the ending watch, ending.ts, reports why and ends the
 * command), and so does `signal` (ctrl+c, SIGTERM: the command then sees its abort, not a reader
 * that never reads). A command that writes piece after piece awaits each, so what its reader has not taken
 * yet stays in the pipe and the socket behind it, not in this process: without it, `chat` against
 * an endless stream with a stalled reader grew by tens of MB a second (bench/README.md, issue 43).
 */
export function writeOut(stream: NodeJS.WritableStream, text: string, signal?: AbortSignal): Promise<void> {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (s.destroyed || s.writableEnded) return Promise.resolve();
  if (stream.write(text) || signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
    signal?.addEventListener('abort', done);
  });
}

/** The display column a terminal's cursor is at after `text` is written from column `from` (tabs to every eighth). */
export function columnAfter(from: number, text: string): number {
  const nl = text.lastIndexOf('\n');
  let col = nl >= 0 ? 0 : from;
  const parts = (nl >= 0 ? text.slice(nl + 1) : text).split('\t');
  parts.forEach((part, i) => {
    if (i > 0) col = (Math.floor(col / 8) + 1) * 8;
    col += widthOf(part);
  });
  return col;
}
