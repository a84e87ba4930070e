/** Every escape sequence the TUI writes to the terminal or reads from it, in one place. */
export const ESC = '\x1b';
export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
export const HIDE_CURSOR = '\x1b[?25l';
export const CLEAR_SCREEN = '\x1b[2J\x1b[H';
export const RESET_ATTRIBUTES = '\x1b[0m';
/** Bracketed paste: the terminal wraps a paste in PASTE_START ... PASTE_END. */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/**
 * Mouse reporting: presses, releases and the wheel (1000), as SGR reports (1006), which say any
 * cell and which button went up; no motion (1002/1003). Read by attach/mouse.ts.
 */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';

/** On the way into the TUI: the alternate screen, with bracketed paste (and MOUSE_ON, unless the mouse is off). */
export const TUI_ENTER = ENTER_ALT_SCREEN + BRACKETED_PASTE_ON;
/** On the way out: mouse reports and paste mode off, the cursor back, the normal screen. */
export const TUI_LEAVE = MOUSE_OFF + BRACKETED_PASTE_OFF + SHOW_CURSOR + LEAVE_ALT_SCREEN;
/** The OSC 52 sequence that puts `text` on the terminal's clipboard (the terminal may refuse it). */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
/**
 * How the TUI asks for the person's attention (the `notify` setting): the bell, a desktop
 * notification by OSC 9 (iTerm2, WezTerm, kitty, Windows Terminal, foot) or OSC 777 (rxvt-unicode,
 * VTE terminals such as GNOME Terminal, Ghostty), or nothing.
 */
export const NOTIFY_KINDS = ['bell', 'osc9', 'osc777', 'off'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
export const BELL = '\x07';

/**
 * The sequence that signals `text` by `kind` ('' for off). The text must be sanitised already (one
 * line, no control character: a BEL or ESC in it would end the sequence early and the rest would
 * reach the terminal raw); the title and text of OSC 777 are separated by `;`, so one in the title is not.
 */
export function attention(kind: NotifyKind, title: string, text: string): string {
  if (kind === 'bell') return BELL;
  if (kind === 'osc9') return `\x1b]9;${title}: ${text}\x07`;
  if (kind === 'osc777') return `\x1b]777;notify;${title.replace(/;/g, ',')};${text}\x07`;
  return '';
}
/** After the attach session drew the screen itself: a clean slate for Ink. */
export const AFTER_ATTACH = RESET_ATTRIBUTES + CLEAR_SCREEN + SHOW_CURSOR + BRACKETED_PASTE_ON;

/**
 * Why the TUI cannot run on this terminal, or null: it needs stdin and stdout to be a TTY, and a
 * terminal that moves its cursor and shows inverse text. TERM=dumb (an editor's shell buffer, a
 * serial console) does neither: Ink's frames would be drawn on top of each other, and with no
 * styles at all (chalk draws none there) a text field's cursor and the selected tab vanish.
 * k9s and lazygit refuse such a terminal too; the commands still work there.
 */
export function tuiTerminalProblem(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }, env: NodeJS.ProcessEnv): string | null {
  if (!stdin.isTTY || !stdout.isTTY) return 'the TUI needs an interactive terminal (stdin and stdout must be a TTY)';
  if (env.TERM === 'dumb') return 'the TUI needs a terminal that can move its cursor, and TERM=dumb says this one cannot (run it in a terminal emulator, or set TERM to what yours is)';
  return null;
}

/** The signals a program is told to end by: its terminal went away (SIGHUP), or SIGTERM. */
export type EndingSignal = 'SIGHUP' | 'SIGTERM';

/**
 * Calls `gone` when an error on one of the terminal's `streams` means the other end went away:
 * `hangup` when the terminal did (its window closed, an ssh connection dropped: EIO), which is
 * what SIGHUP means; `pipe` when the reader of a pipe left (EPIPE: `| head` had its lines), which
 * is what SIGPIPE means to other programs. Any other error (a full disk under `> file`: ENOSPC)
 * goes to `failed` when given, else is thrown on, as if nobody listened.
 */
export function onTerminalGone(
  streams: NodeJS.EventEmitter[],
  gone: (how: 'hangup' | 'pipe') => void,
  failed?: (e: NodeJS.ErrnoException, stream: NodeJS.EventEmitter) => void,
): void {
  for (const s of streams) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EIO' && e.code !== 'EPIPE') {
        if (failed) return failed(e, s);
        throw e;
      }
      gone(e.code === 'EPIPE' ? 'pipe' : 'hangup');
    });
  }
}

/**
 * Keeps the process's warnings (Node's, a dependency's deprecation) off the terminal while the
 * TUI owns it, where one printed over the screen; the function it answers gives them back to
 * the listeners that were there (Node's own prints them to stderr), in order, once the screen is
 * restored. Called again, that function does nothing.
 */
export function holdWarnings(): () => void {
  const listeners = process.listeners('warning');
  const held: Error[] = [];
  const hold = (w: Error) => void held.push(w);
  process.removeAllListeners('warning');
  process.on('warning', hold);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    process.off('warning', hold);
    for (const l of listeners) process.on('warning', l);
    for (const w of held) process.emit('warning', w);
  };
}
