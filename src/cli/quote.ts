/**
 * Values put into a command the CLI prints for the user to run (`continue with --session ID`,
 * `intern-tui login --profile NAME`): the one place they are quoted for a POSIX shell, so that a
 * pasted suggestion runs what it says and nothing else (`sess_$(touch /tmp/x)` stays a word).
 */

/** What a shell takes as one plain word, unquoted, with nothing expanded: an id, a name, a URL without a query. */
const PLAIN = /^[A-Za-z0-9_./:=@%+-]+$/;

/**
 * Whether a value the service named (a session id) may go into a suggestion at all: a plain word
 * that does not start with a dash (which the command would read as a flag). A value that is not is
 * not quoted into one: the user is told the service named an id that is not a plain id.
 */
export function isPlainId(value: string): boolean {
  return PLAIN.test(value) && !value.startsWith('-');
}

/**
 * `value` as one word for a POSIX shell (sh, dash, bash, zsh): bare when it is plain, else in
 * single quotes, inside which nothing is special but the quote itself, written `'\''` (close, an
 * escaped quote, open again). The empty string is `''`. (fish reads `\\` and `\'` inside single
 * quotes as escapes: a value from the service goes into a suggestion only when isPlainId, bare.)
 */
export function shellQuote(value: string): string {
  if (PLAIN.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
