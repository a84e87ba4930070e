/**
 * Query strings: one rule for the whole numbers every list route reads (`limit`, `offset`).
 */
import * as z from 'zod';

/**
 * Plain decimal digits, nothing else. `Number()` (and zod's coerce, which is it) also takes
 * `0x3`, `0b11`, `0o7`, `1e2`, `+3`, `3.0` and ` 3 ` (padding trimmed), so a typo or a
 * hand-built URL was read as some other number instead of being refused.
 */
export const DECIMAL_DIGITS = /^[0-9]+$/;

/** A query parameter holding a whole number from `min` to `max` (no upper bound when omitted), written in decimal digits. */
export function queryInteger(min: number, max?: number) {
  const bounded = max === undefined ? z.number().int().min(min) : z.number().int().min(min).max(max);
  return z
    .string()
    .regex(DECIMAL_DIGITS, { error: 'must be a whole number written in decimal digits (0-9 only)' })
    .transform(Number)
    .pipe(bounded);
}

/** A plain decimal number: digits, and a fractional part after one dot. No sign, exponent, hex or padding. */
export const DECIMAL_NUMBER = /^[0-9]+(\.[0-9]+)?$/;

/** A query parameter holding a number from `min` to `max` (no upper bound when omitted), written as DECIMAL_NUMBER. */
export function queryNumber(min: number, max?: number) {
  const bounded = max === undefined ? z.number().min(min) : z.number().min(min).max(max);
  return z
    .string()
    .regex(DECIMAL_NUMBER, { error: 'must be a number written in decimal digits, with at most one "." (0-9 and ".")' })
    .transform(Number)
    .pipe(bounded);
}
