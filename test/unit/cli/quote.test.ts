/** The one shell-quoting helper: plain words bare, everything else one word a POSIX shell reads back as it was. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isPlainId, shellQuote } from '../../../src/cli/quote.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-quote-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `sh` makes of each word as printed in a suggestion: `printf '%s\0' WORD...`, one shell for them all. */
const echoed = (words: string[]) => execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${words.join(' ')}`], { cwd: dir, encoding: 'utf8' }).split('\0').slice(0, -1);

describe('shellQuote', () => {
  it('leaves plain ids bare', () => {
    for (const v of ['sess_01HX', 'a-b.c', 'https://svc.example/api/v1', 'k=v', 'user@host', '50%', 'a+b', '9d3c1f2e-0c4b-4e8a-9f00-123456789abc']) expect(shellQuote(v)).toBe(v);
  });

  it('quotes hostile values so that the shell reads them back unchanged and runs nothing', () => {
    const pwned = join(dir, 'PWNED');
    const hostile = [
      `sess_$(touch ${pwned});x`,
      `\`touch ${pwned}\``,
      `x; touch ${pwned}`,
      `x && touch ${pwned}`,
      `x | touch ${pwned}`,
      `'; touch ${pwned}; '`,
      `it's`,
      `''`,
      `\\'`,
      '$HOME',
      '${HOME}',
      '~',
      '*',
      'a b',
      'line\nbreak',
      '!!',
      '#comment',
      '',
      `"$(touch ${pwned})"`,
    ];
    for (const v of hostile) expect(shellQuote(v), v).not.toBe(v);
    expect(echoed(hostile.map(shellQuote))).toEqual(hostile);
    expect(existsSync(pwned)).toBe(false);
  });

  it('round-trips any text without a NUL through sh', () => {
    // Code points from 1 (a NUL cannot be an argument) past the BMP, and the characters a shell reads often.
    const char = fc.oneof(fc.constantFrom(...`'"$\`\\ \t\n()[]{};&|<>*?~!#=%@,.:/-`), fc.integer({ min: 1, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
    const values = fc.sample(fc.array(char, { maxLength: 30 }).map((cs) => cs.map((c) => (typeof c === 'number' ? String.fromCodePoint(c) : c)).join('')), 300);
    expect(echoed(values.map(shellQuote))).toEqual(values);
  });
});

describe('isPlainId', () => {
  it('takes plain ids and refuses anything a shell would read otherwise, or the command as a flag', () => {
    expect(isPlainId('sess_01HX-a.b')).toBe(true);
    for (const v of ['sess_$(touch /tmp/PWNED);x', 'a b', '', '-rf', '--session', "it's", 'x\ny', '\x1b[31m']) expect(isPlainId(v), v).toBe(false);
  });
});
