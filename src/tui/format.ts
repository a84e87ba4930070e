/** Display helpers shared by screens (and by the CLI's output, which says things the same way). */
import { sanitize } from '../text.js';
import { wrapText } from './wrap.js';
import type { ByokCredential } from '../contract/byok.js';

/** The first `most` names, sanitised and joined by commas, then `, …` when there are more: `broken, builder`. */
export const someOf = (names: readonly string[], most: number): string =>
  names.slice(0, most).map((n) => sanitize(n)).join(', ') + (names.length > most ? ', …' : '');

/** `1 line`, `3 lines`: a count and its word, plural but for one. */
export const counted = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A reported cost in dollars: `$0`, `$0.000042` under a cent, else `$0.0123`. */
export const costText = (cost: number): string => `$${cost === 0 ? '0' : cost < 0.01 ? cost.toFixed(6) : cost.toFixed(4)}`;

export function relativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '?';
  const s = Math.round((now - t) / 1000);
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60 ? [abs, 's'] : abs < 3600 ? [Math.floor(abs / 60), 'm'] : abs < 86400 ? [Math.floor(abs / 3600), 'h'] : [Math.floor(abs / 86400), 'd'];
  return s >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`;
}

/**
 * A time to the second in the user's own zone, with its offset: `2026-11-28 15:04:05 +00:00` (what
 * `T` shows in place of "2d ago"). An unreadable time is `?`, as in relativeTime.
 */
export function exactTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '?';
  const two = (n: number) => String(n).padStart(2, '0');
  const east = -d.getTimezoneOffset();
  const zone = `${east < 0 ? '-' : '+'}${two(Math.floor(Math.abs(east) / 60))}:${two(Math.abs(east) % 60)}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${zone}`;
}

/** A time as a details view shows it: as sent, and how long ago (`2026-11-02T13:58:13Z (23d ago)`). */
export const timeAndAge = (iso: string, now = Date.now()): string => `${iso} (${relativeTime(iso, now)})`;

/** A secret's fingerprint as a table shows it, `sha256:3f9a…` → `3f9a1c2b`: enough to tell two values apart at a glance. */
export function shortFingerprint(fp: string | null): string {
  if (!fp) return '—';
  return fp.replace(/^sha256:/, '').slice(0, 8);
}

/** One line of a record's details: its label, its value (null when there is none) and what none means. */
export interface Fact {
  label: string;
  value: string | null;
  /** What a null value means, said dim where the value would be (a dash when it means nothing more). */
  ifNone?: string;
  /** A timestamp: the TUI, and a terminal, add how long ago it was. */
  time?: boolean;
  /** A list's entries (its value joins them): the details screen shows as many as fit its lines. */
  items?: readonly string[];
}

/**
 * A list said in at most `lines` lines of `width` cells: as many entries as fit whole, then how many
 * more there are ("+97 more"). Entries are drawn as given: sanitise them first.
 */
export function listWithin(items: readonly string[], width: number, lines: number): string {
  const said = (k: number) => [...items.slice(0, k), ...(k < items.length ? [`+${items.length - k} more`] : [])].join(', ');
  for (let k = items.length; k > 0; k--) if (wrapText(said(k), width).length <= lines) return said(k);
  return said(0);
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');
const ALL = 'all (no restriction)';

/**
 * A BYOK credential's details in people's words, for the TUI's details screen and `byok get` on a
 * terminal alike: the flags as yes or no, what a null region or list means. Server strings are
 * not sanitised here; each face sanitises what it draws.
 */
export function byokFacts(c: ByokCredential): Fact[] {
  const list = (v: string[] | null) => (v === null ? null : v.length === 0 ? 'none' : v.join(', '));
  return [
    { label: 'id', value: c.id },
    { label: 'provider', value: c.provider },
    { label: 'name', value: c.name },
    { label: 'label', value: c.label },
    { label: 'workspace', value: c.workspace_id },
    { label: 'region', value: c.declared_region, ifNone: 'not declared' },
    { label: 'zdr', value: c.declared_zdr === null ? null : yesNo(c.declared_zdr), ifNone: 'not declared' },
    { label: 'disabled', value: yesNo(c.disabled) },
    { label: 'byok only', value: yesNo(c.is_byok_only) },
    { label: 'fallback', value: yesNo(c.is_fallback) },
    { label: 'required', value: yesNo(c.is_required) },
    { label: 'sort order', value: String(c.sort_order) },
    { label: 'allowed models', value: list(c.allowed_models), ifNone: ALL, items: c.allowed_models ?? undefined },
    { label: 'allowed users', value: list(c.allowed_user_ids), ifNone: ALL, items: c.allowed_user_ids ?? undefined },
    { label: 'allowed key hashes', value: list(c.allowed_api_key_hashes), ifNone: ALL, items: c.allowed_api_key_hashes ?? undefined },
    { label: 'created', value: c.created_at, time: true },
  ];
}
