/** Times: how long ago, or the exact time in the user's zone with its offset (T). */
import { afterEach, describe, expect, it } from 'vitest';
import { exactTime, relativeTime } from '../../../src/tui/format.js';
import { EXACT_TIME_WIDTH, setExactTimes, timeText, toggleExactTimes, exactTimes } from '../../../src/tui/times.js';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
  setExactTimes(false);
});

describe('exactTime', () => {
  it('is the time to the second in the zone the user is in, with its offset', () => {
    process.env.TZ = 'UTC';
    expect(exactTime('2026-11-28T15:04:05Z')).toBe('2026-11-28 15:04:05 +00:00');
    process.env.TZ = 'Asia/Kolkata';
    expect(exactTime('2026-11-28T15:04:05Z')).toBe('2026-11-28 20:34:05 +05:30');
    process.env.TZ = 'America/St_Johns';
    // Newfoundland in November: -03:30, and the day before.
    expect(exactTime('2026-11-28T01:04:05.999Z')).toBe('2026-11-27 21:34:05 -03:30');
  });

  it('says ? of a time it cannot read, as relativeTime does', () => {
    expect(exactTime('not a time')).toBe('?');
    expect(relativeTime('not a time')).toBe('?');
  });
});

describe('the times switch', () => {
  it('shows how long ago until switched, then the exact time, as wide as EXACT_TIME_WIDTH', () => {
    process.env.TZ = 'UTC';
    const now = Date.parse('2026-11-30T15:04:05Z');
    expect(timeText('2026-11-28T15:04:05Z', now)).toBe('2d ago');
    toggleExactTimes();
    expect(exactTimes()).toBe(true);
    expect(timeText('2026-11-28T15:04:05Z', now)).toBe('2026-11-28 15:04:05 +00:00');
    expect(timeText('2026-11-28T15:04:05Z', now).length).toBe(EXACT_TIME_WIDTH);
    toggleExactTimes();
    expect(timeText('2026-11-28T15:04:05Z', now)).toBe('2d ago');
  });
});
