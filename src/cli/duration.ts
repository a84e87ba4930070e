/**
 * Durations on the command line (`--idle-timeout 5m`, `--timeout 90s`): the one parser every flag
 * that takes one uses. A unit is required: a bare `90` reads as seconds to one person and as
 * milliseconds to another, and a script that meant one got the other without a word.
 */
import { usageError } from './exit.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** The longest wait a timer can hold (2^31 - 1 ms, about 24.8 days): a longer one fires at once in Node. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** The whole text: one or more parts, each a number and its unit, as Go and kubectl write them (`1h30m`, `1.5m`, `2m30s`). */
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/**
 * `500ms`, `30s`, `5m`, `1h30m` (`0s` too) as milliseconds, rounded to a whole one. Anything else
 * throws a usage error (exit 2) that says what a duration looks like; a number without a unit is
 * told that it needs one. `flag` (`--idle-timeout`) starts the message when given.
 */
export function parseDuration(text: string, flag?: string): number {
  const t = text.trim();
  const who = flag ? `${flag} ` : 'a duration ';
  const shown = JSON.stringify(t.slice(0, 20));
  if (/^\d+(?:\.\d+)?$/.test(t)) throw usageError(`${who}needs a unit (ms, s, m or h), such as ${t}s or 5m, not ${shown}`);
  if (!DURATION.test(t)) throw usageError(`${who}must be a duration with a unit, such as 500ms, 30s, 5m or 1h30m, not ${shown}`);
  let total = 0;
  for (const [, n, unit] of t.matchAll(PART)) total += Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  const ms = Math.round(total);
  if (!(ms <= MAX_DURATION_MS)) throw usageError(`${who}is too long: at most 596h (about 24 days), not ${shown}`);
  return ms;
}

/** Milliseconds as a duration parseDuration reads back, at most two parts: `500ms`, `12s`, `1m05s`, `2h03m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const total = Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h}h${two(m)}m`;
  if (m > 0) return s > 0 ? `${m}m${two(s)}s` : `${m}m`;
  return `${s}s`;
}
