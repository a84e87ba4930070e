/** The one shell-quoting helper: plain words bare, everything else one word a POSIX shell reads back as it was. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isPlainId, shellQuote } from '../../../src/cli/quote.js';
import { loginHint } from '../../../src/cli/settings.js';
import { notRunning } from '../../../src/cli/commands/attach.js';
import { intern } from '../../component/fakeApi.js';

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

describe('the suggestions that use them', () => {
  it('quote the profile and base URL of a login to paste', () => {
    expect(loginHint('api_key', { profile: 'work', baseUrl: 'https://x/api/v1', storedWithheldFor: null })).toBe('intern-tui login --profile work');
    expect(loginHint('api_key', { profile: "bob's $(id)", baseUrl: 'https://x/api/v1', storedWithheldFor: null })).toBe(`intern-tui login --profile 'bob'\\''s $(id)'`);
    expect(loginHint('api_key', { profile: null, baseUrl: 'http://h:1/$(id)/api/v1', storedWithheldFor: 'https://other' })).toBe(`intern-tui login --base-url 'http://h:1/$(id)/api/v1' --profile NAME`);
  });

  it('name an intern by a plain name or a plain id only', () => {
    expect(notRunning(intern({ id: 'abc-1', name: 'broken', status: 'failed' }))).toContain('`intern-tui interns provision broken --wait`');
    expect(notRunning(intern({ id: 'abc-1', name: 'Not A Name', status: 'failed' }))).toContain('`intern-tui interns provision abc-1 --wait`');
    const hostile = notRunning(intern({ id: '$(touch /tmp/PWNED)', name: 'Not A Name', status: 'failed' }));
    expect(hostile).toContain('the service named an intern id that is not a plain id, so no command to paste is given');
    expect(hostile).not.toContain('intern-tui');
  });
});
