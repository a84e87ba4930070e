/** What a command reads rather than takes as an argument: the masked prompt's keys, secrets from stdin and files. */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/context.js';
import { MaskedLine, readSecret, readTextArg } from '../../../src/cli/input.js';
import { checkByokKey } from '../../../src/contract/rules.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(stdin = ''): Io {
  const input = new PassThrough();
  input.end(stdin);
  return { stdin: input, stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
}

/** The message a promise is refused with, and its exit code. */
async function refusal(p: Promise<unknown>): Promise<{ message: string; exitCode?: number }> {
  try {
    await p;
  } catch (e) {
    return { message: (e as Error).message, exitCode: (e as { exitCode?: number }).exitCode };
  }
  throw new Error('not refused');
}

/** The line the chunks make, and how it ended. */
function typed(...chunks: string[]): { value: string; end?: string; echo: string } {
  const line = new MaskedLine();
  let echo = '';
  for (const chunk of chunks) {
    const r = line.feed(chunk);
    echo += r.echo;
    if (r.end) return { value: line.value, end: r.end, echo };
  }
  return { value: line.value, echo };
}

describe('the masked prompt', () => {
  it('keeps no part of a key that sends an escape sequence: arrows, Delete, Home, F-keys, alt+key, esc', () => {
    expect(typed('abc\x1b[D\x1b[DX\r')).toMatchObject({ value: 'abcX', end: 'enter' });
    expect(typed('ab\x1b[3~c\r').value).toBe('abc');
    expect(typed('a\x1b[1;5Cb\x1b[H\x1b[15~\r').value).toBe('ab');
    expect(typed('a\x1bOPb\x1bOAc\r').value).toBe('abc'); // SS3: F1, keypad up
    expect(typed('a\x1bxb\x1b\r').value).toBe('ab'); // alt+x is a key, not an x; a lone esc before Enter goes too
    expect(typed('a\u009bb\x07c\r').value).toBe('abc'); // C1 and C0 controls
  });

  it('keeps what is pasted and drops the paste markers', () => {
    expect(typed('\x1b[200~sk-pasted-key\x1b[201~\r')).toMatchObject({ value: 'sk-pasted-key', end: 'enter' });
  });

  it('reads a sequence split across two reads as one', () => {
    // (An ESC last in a read is the escape key, as the TUI reads it: a terminal sends a sequence whole.)
    expect(typed('ab\x1b[', 'D', 'c\r').value).toBe('abc');
    expect(typed('ab\x1b[', '3', '~c\r').value).toBe('abc');
    expect(typed('ab\x1bO', 'Bc\r').value).toBe('abc');
    expect(typed('\x1b[200~sk-', 'pasted\x1b[201~\r').value).toBe('sk-pasted');
  });

  it('echoes a star per character and erases one per backspace; ctrl+c and ctrl+d end it', () => {
    expect(typed('ab\x7fc\r')).toEqual({ value: 'ac', end: 'enter', echo: '**\b \b*' });
    expect(typed('ab\x03').end).toBe('interrupt');
    expect(typed('ab\x04')).toMatchObject({ value: 'ab', end: 'eof' });
  });
});

describe('readTextArg', () => {
  it('stops reading a file that never ends at its limit, with a usage error', async () => {
    expect(await refusal(readTextArg(io(), '/dev/zero', { limit: 1 << 16 }))).toEqual({ message: '/dev/zero is larger than 65536 bytes', exitCode: 2 });
  });

  it('says in words why a file cannot be read', async () => {
    expect(await refusal(readTextArg(io(), join(dir, 'missing.txt')))).toMatchObject({ message: expect.stringMatching(/missing\.txt: no such file$/), exitCode: 2 });
    expect(await refusal(readTextArg(io(), dir))).toMatchObject({ message: expect.stringMatching(/: it is a folder$/), exitCode: 2 });
  });

  it('reads a pipe given as a file (process substitution) and stdin as -', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    createWriteStream(fifo).end('from a pipe\n');
    expect(await readTextArg(io(), fifo)).toBe('from a pipe\n');
    expect(await readTextArg(io('from stdin'), '-')).toBe('from stdin');
  });
});

describe('readSecret', () => {
  const read = (stdin: string | Buffer) => {
    const input = new PassThrough();
    input.end(stdin);
    const streams: Io = { stdin: input, stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    return readSecret(streams, 'openai key', { stdin: true }, 'key', checkByokKey);
  };

  it('refuses a value of whitespace only, as it refuses an empty one (exit 2)', async () => {
    expect(await refusal(read('   \n'))).toEqual({ message: 'the openai key is only whitespace', exitCode: 2 });
    expect(await refusal(read('\n'))).toEqual({ message: 'the openai key is empty', exitCode: 2 });
  });

  it('refuses bytes that are not UTF-8 rather than storing another key, without showing them', async () => {
    const r = await refusal(read(Buffer.from([0x73, 0x6b, 0x2d, 0xff, 0xfe, 0x41])));
    expect(r).toEqual({ message: 'stdin is not UTF-8 text (a binary file, or another encoding)', exitCode: 2 });
  });

  it('refuses NUL and ESC by the contract\'s rule and keeps a multi-line JSON key whole', async () => {
    expect(await refusal(read('sk-abc\x00def'))).toMatchObject({ message: expect.stringMatching(/^the openai key must not hold control characters .*U\+0000/), exitCode: 2 });
    expect(await refusal(read('sk-ab\x1b[Dc'))).toMatchObject({ exitCode: 2 });
    expect(await read('{\n  "type": "service_account"\n}\n')).toBe('{\n  "type": "service_account"\n}');
    expect(await read('sk-ok\n')).toBe('sk-ok');
  });
});
