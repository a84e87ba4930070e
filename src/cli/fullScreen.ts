/**
 * The terminal taken whole by a command that draws its own screen (`attach NAME`, `replay FILE`):
 * raw keys as UTF-8 text, resizes, the alternate screen. The release gives it all back, once,
 * whoever calls it first (a detach, the program's end, q, an interrupt).
 */

/** Enter the alternate screen, cleared, so the shell's screen comes back on leaving. */
const ENTER = '\x1b[?1049h\x1b[H\x1b[2J';

export interface FullScreen {
  stdin: NodeJS.ReadStream;
  out: NodeJS.WriteStream;
  onData: (chunk: string) => void;
  onResize: () => void;
  /** What leaving writes: the modes the screen's owner may have set, undone, then the shell's screen. */
  leave: string;
}

export function takeTerminal({ stdin, out, onData, onResize, leave }: FullScreen): () => void {
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onData);
  stdin.resume();
  out.on('resize', onResize);
  out.write(ENTER);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    stdin.off('data', onData);
    out.off('resize', onResize);
    stdin.setRawMode(false);
    stdin.pause();
    out.write(leave);
  };
}
