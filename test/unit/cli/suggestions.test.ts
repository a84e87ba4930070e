/**
 * Commands the CLI prints for the user to run quote every value with shellQuote (quote.ts), and a
 * value from the service that is not a plain id goes into none.
 */
import { describe, expect, it } from 'vitest';
import { notRunning } from '../../../src/cli/commands/attach.js';
import { loginHint } from '../../../src/cli/settings.js';
import { intern } from '../../component/fakeApi.js';

describe('suggested commands', () => {
  it('quote a profile and a base URL from the config or the command line', () => {
    expect(loginHint('api_key', { profile: 'my work', baseUrl: 'https://x.example/api/v1', storedWithheldFor: null })).toBe("intern-tui login --profile 'my work'");
    expect(loginHint('api_key', { profile: 'work', baseUrl: 'https://x.example/api/v1', storedWithheldFor: null })).toBe('intern-tui login --profile work');
    expect(loginHint('api_key', { profile: null, baseUrl: "https://x.example/a'b;rm", storedWithheldFor: 'https://y.example' })).toBe("intern-tui login --base-url 'https://x.example/a'\\''b;rm' --profile NAME");
  });

  it('name an intern by its name, else a plain id, else leave the command out', () => {
    expect(notRunning(intern({ id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'runner', status: 'stopped' }))).toBe('runner is not running (stopped): provision it first, with `intern-tui interns provision runner --wait`');
    expect(notRunning(intern({ id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'Bad Name', status: 'queued' }))).toBe('Bad Name is not running yet (queued): `intern-tui interns wait aaaaaaaa-0000-4000-8000-000000000001` returns once it is');
    expect(notRunning(intern({ id: '$(touch /tmp/x)', name: 'Bad Name', status: 'stopped' }))).toBe('Bad Name is not running (stopped); the service named an intern id that is not a plain id, so no command to paste is given');
  });
});
