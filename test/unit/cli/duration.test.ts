/** The one duration parser of the command line: a unit always, Go's way of joining parts, a usage error otherwise. */
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, formatDuration, parseDuration } from '../../../src/cli/duration.js';
import { CliError, EXIT } from '../../../src/cli/exit.js';

function refusal(text: string, flag?: string): CliError {
  try {
    parseDuration(text, flag);
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error(`${JSON.stringify(text)} was taken`);
}

describe('parseDuration', () => {
  it('reads each unit, parts joined, decimals, and zero', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2m30s')).toBe(150_000);
    expect(parseDuration('1m500ms')).toBe(60_500);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration(' 90s ')).toBe(90_000);
  });

  it('refuses a number without a unit, saying a unit is needed, with an example', () => {
    for (const text of ['90', '0', '1.5']) {
      const e = refusal(text);
      expect(e.exitCode).toBe(EXIT.usage);
      expect(e.message).toMatch(/needs a unit/);
      expect(e.message).toMatch(/such as \S+s or 5m/);
    }
  });

  it('refuses what is not a duration, naming the flag when given', () => {
    for (const text of ['', 'soon', '5 m', '-5s', '5M', '1d', 's', '1h30', '5m!', '1e3s', '.5s']) {
      const e = refusal(text, '--idle-timeout');
      expect(e.exitCode, text).toBe(EXIT.usage);
      expect(e.message, text).toMatch(/^--idle-timeout (must be a duration with a unit, such as 500ms, 30s, 5m or 1h30m|needs a unit)/);
    }
    expect(refusal('x'.repeat(500)).message.length).toBeLessThan(150);
  });

  it('refuses a duration longer than a timer can wait, which would fire at once', () => {
    expect(parseDuration('596h')).toBeLessThanOrEqual(MAX_DURATION_MS);
    expect(refusal('597h').message).toMatch(/too long/);
    expect(refusal('9'.repeat(400) + 'h').message).toMatch(/too long/);
  });

  it('formats durations it reads back, two parts at most', () => {
    expect(formatDuration(500)).toBe('500ms');
    expect(formatDuration(12_000)).toBe('12s');
    expect(formatDuration(65_000)).toBe('1m05s');
    expect(formatDuration(300_000)).toBe('5m');
    expect(formatDuration(3_780_000)).toBe('1h03m');
    for (const ms of [0, 1, 999, 1000, 59_000, 61_000, 3_600_000, 5_400_000]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
