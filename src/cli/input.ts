/**
 * Values a command reads rather than takes as arguments: text from a file or stdin, and secrets
 * from stdin, a file, or a masked prompt on the terminal. A secret never comes from argv.
 */
import { createReadStream } from 'node:fs';
import { explainFileError } from '../files.js';
import { LIMITS } from '../contract/limits.js';
import type { RuleCheck } from '../contract/rules.js';
import { pastedText, tokenize } from '../tui/keyParse.js';
import { sanitize } from '../text.js';
import type { Io } from './context.js';
import { CliError, EXIT, usageError } from './exit.js';
import type * as ReadlinePromises from 'node:readline/promises';
import { importExternal } from '../importExternal.js';

/** The most a text read from a file or stdin may hold (an --instructions-file, a chat prompt). */
const TEXT_READ_MAX = 16 << 20;

/**
 * The most a secret read from stdin or a file may hold: four times the contract's largest secret
 * value in bytes (a character is at most four bytes of UTF-8); BYOK keys have no limit of their own
 * in the contract, and a provider's JSON key is a few kilobytes.
 */
export const SECRET_READ_MAX = 4 * LIMITS.secretValue.max;

/** How much to read, what to call the input in a message, and whether bytes that are not UTF-8 are refused. */
export interface ReadOptions {
  limit?: number;
  what?: string;
  /**
   * Refuse bytes that are not UTF-8 (a secret) instead of reading them as U+FFFD: a key stored
   * with its bytes replaced is another key, which fails only when it is used.
   */
  strict?: boolean;
}

export async function readAll(stream: NodeJS.ReadableStream, { limit = TEXT_READ_MAX, what = 'the input', strict = false }: ReadOptions = {}): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) {
      // A file such as /dev/zero never ends: stop reading it.
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw usageError(`${what} is larger than ${limit} bytes`);
    }
    chunks.push(b);
  }
  const bytes = Buffer.concat(chunks);
  if (!strict) return bytes.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Which bytes, never: they are a secret's.
    throw usageError(`${what} is not UTF-8 text (a binary file, or another encoding)`);
  }
}

/**
 * `FILE` or `-` (stdin), at most `limit` bytes. Read as a stream, not all at once: a FIFO
 * (`<(cmd)`) and /dev/stdin work, and a file that never ends (/dev/zero) is refused at the limit
 * rather than read for ever.
 */
export async function readTextArg(io: Io, path: string, opts: Omit<ReadOptions, 'what'> = {}): Promise<string> {
  if (path === '-') return readAll(io.stdin, { ...opts, what: 'stdin' });
  const shown = path.slice(0, 80);
  try {
    return await readAll(createReadStream(path), { ...opts, what: shown });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw usageError(`cannot read ${shown}: ${explainFileError(e)}`);
  }
}

/** One trailing newline (what `echo` and here-strings add) is not part of a secret. */
const chompOne = (s: string) => s.replace(/\r?\n$/, '');

/**
 * A secret: from stdin (`--X-stdin`), a file (`--X-file FILE`), or a masked prompt when stdin
 * is a TTY. Without any of them and without a TTY: a usage error naming the flags. Refused (exit
 * 2, never showing the value): nothing, only whitespace, bytes that are not UTF-8, and what the
 * contract's `check` refuses (a control character other than tabs and line breaks).
 */
export async function readSecret(io: Io, what: string, source: { stdin?: boolean; file?: string }, flagBase: string, check: RuleCheck<string>): Promise<string> {
  let value: string;
  const read = { limit: SECRET_READ_MAX, strict: true };
  if (source.stdin && source.file !== undefined) throw usageError(`give --${flagBase}-stdin or --${flagBase}-file, not both`);
  if (source.stdin) value = chompOne(await readAll(io.stdin, { ...read, what: 'stdin' }));
  else if (source.file !== undefined) value = chompOne(await readTextArg(io, source.file, read));
  else if (io.stdin.isTTY && io.stderr.isTTY) value = await maskedPrompt(io, `${what}: `);
  else throw usageError(`${what} is needed: pass --${flagBase}-stdin (and pipe it in) or --${flagBase}-file FILE; there is no terminal to ask on`);
  if (value === '') throw usageError(`the ${what} is empty`);
  if (value.trim() === '') throw usageError(`the ${what} is only whitespace`);
  const wrong = check(value);
  if (wrong) throw usageError(`the ${what} ${wrong}`);
  return value;
}

/**
 * What is typed at a masked prompt, as a terminal sends it, made into the line it means. The keys
 * are cut by the TUI's tokenizer (src/tui/keyParse.ts, the one parser of terminal input): keys that
 * send escape sequences (arrows, Delete, Home, F-keys, alt+key) and controls are not part of the
 * line; a paste's text is, its markers not. Before, only the ESC itself was dropped and `[D` of a
 * Left arrow was kept in the secret. A sequence split over two reads is carried over. Pure, so it is
 * tested without a terminal.
 */
export class MaskedLine {
  value = '';
  /** A sequence or a paste begun and not yet ended, carried to the next read. */
  private rest = '';

  /** Takes what the terminal sent; answers what to echo and, when the line ended, how. */
  feed(data: string): { echo: string; end?: 'enter' | 'interrupt' | 'eof' } {
    let echo = '';
    const { keys, rest } = tokenize(this.rest + data);
    this.rest = rest;
    const add = (text: string) => {
      for (const ch of text) {
        if (ch < ' ' || (ch >= '\x7f' && ch <= '\x9f')) continue;
        this.value += ch;
        echo += '*';
      }
    };
    for (const key of keys) {
      const pasted = pastedText(key);
      if (pasted !== null) add(pasted);
      else if (key === '\r' || key === '\n') return { echo, end: 'enter' };
      else if (key === '\u0003') return { echo, end: 'interrupt' };
      else if (key === '\u0004') return { echo, end: 'eof' };
      else if (key === '\u007f' || key === '\b') {
        if (this.value.length) {
          this.value = [...this.value].slice(0, -1).join('');
          echo += '\b \b';
        }
      } else if (!key.startsWith('\x1b')) add(key);
    }
    return { echo };
  }
}

/** Reads one line from a TTY without echo, printing `*` per character on stderr. Ctrl+C: exit 130. */
export function maskedPrompt(io: Io, question: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  return new Promise((resolve, reject) => {
    io.stderr.write(question);
    const line = new MaskedLine();
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (err?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      io.stderr.write('\n');
      if (err) reject(err);
      else resolve(line.value);
    };
    const onData = (data: string) => {
      const { echo, end } = line.feed(data);
      if (echo) io.stderr.write(echo);
      if (end === 'interrupt') finish(new CliError(EXIT.interrupted, 'interrupted'));
      else if (end) finish();
    };
    stdin.on('data', onData);
  });
}

/**
 * One line asked on stderr (empty when the input ends first). Ctrl+C (which readline takes over
 * on a terminal) and an aborted `signal` end it with exit 130 instead of leaving the question hanging.
 */
export async function askLine(io: Io, question: string, signal?: AbortSignal): Promise<string> {
  return (await readAnswer(io, question, signal, false)) ?? '';
}

/**
 * A chat prompt typed or pasted on the terminal, or null when the input ends (ctrl+d). A paste's
 * line breaks do not send it (the terminal is asked to mark pastes meanwhile, and readline names
 * their ends as keys): its lines, and what is typed after the `...` that continues them, are one
 * prompt, sent by the next Enter, as in a shell. Ctrl+C and an aborted `signal` end it (exit 130).
 */
export function askPrompt(io: Io, question: string, signal?: AbortSignal): Promise<string | null> {
  return readAnswer(io, question, signal, true);
}

/** Bracketed paste on and off: the terminal marks what is pasted, so a paste's line breaks do not send it. */
const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';

/** askLine's and askPrompt's reader: one answer, a paste's lines in it when `pastes`; null at the input's end. */
async function readAnswer(io: Io, question: string, signal: AbortSignal | undefined, pastes: boolean): Promise<string | null> {
  const { createInterface } = await importExternal<typeof ReadlinePromises>('node:readline/promises');
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  let pasting = false;
  const onKey = (_text: string, key?: { name?: string }) => {
    if (key?.name === 'paste-start') pasting = true;
    else if (key?.name === 'paste-end') pasting = false;
  };
  if (pastes) {
    io.stdin.on('keypress', onKey);
    io.stderr.write(PASTE_ON);
  }
  const lines: string[] = [];
  let settled = false;
  let onAbort = () => {};
  try {
    return await new Promise<string | null>((resolve, reject) => {
      const end = (settle: () => void) => {
        if (settled) return;
        settled = true;
        settle();
      };
      const interrupted = () =>
        end(() => {
          io.stderr.write('\n');
          reject(new CliError(EXIT.interrupted, 'interrupted'));
        });
      onAbort = interrupted;
      rl.on('line', (line) => {
        lines.push(line);
        if (pasting) {
          rl.setPrompt('... ');
          return rl.prompt();
        }
        // A paste that ended with a line break leaves an empty line before the Enter that sends it.
        if (lines.length > 1 && lines.at(-1) === '') lines.pop();
        end(() => resolve(lines.join('\n')));
      });
      rl.on('SIGINT', interrupted);
      // The terminal went away (EIO): the question ends. readline passes its input's error on, and
      // unheard it was thrown (the command's own watch on stdin, cli/ending.ts, ends the command).
      rl.on('error', () => end(() => reject(new CliError(EXIT.failed, 'the terminal went away'))));
      // The input's end: what was pasted so far is still sent.
      rl.on('close', () =>
        end(() => {
          if (lines.length > 0) return resolve(lines.join('\n'));
          io.stderr.write('\n');
          resolve(null);
        }),
      );
      if (signal?.aborted) return interrupted();
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.setPrompt(question);
      rl.prompt();
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (pastes) {
      io.stderr.write(PASTE_OFF);
      io.stdin.off('keypress', onKey);
    }
    rl.close();
  }
}

/** A yes/no question on stderr (only on a TTY). */
export async function confirm(io: Io, question: string, signal?: AbortSignal): Promise<boolean> {
  return /^y(es)?$/i.test((await askLine(io, `${sanitize(question)} [y/N] `, signal)).trim());
}
