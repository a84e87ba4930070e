/**
 * The one sanitizer every server string passes through before it is drawn:
 * escape sequences (CSI, OSC, DCS, SOS/PM/APC, two-byte ESC), C0 and C1 controls,
 * DEL, bidirectional overrides and hiding zero-width characters are removed. Newlines (and
 * Unicode's line separators, as newlines) survive only where asked.
 */
import stringWidth from 'string-width';

const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|\x9b[0-?]*[ -/]*[@-~]|[\x90\x98\x9d\x9e\x9f][^\x9c\x07]*[\x9c\x07]?/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const CONTROLS_NO_NEWLINE = /[\x00-\x1f\x7f-\x9f]/g;
/** Bidirectional overrides and marks, and zero-width characters that only hide (a zero-width space, a word joiner, a BOM): spoofing, not text. Joiners (U+200C, U+200D), which scripts and emoji need, stay. */
const HIDDEN = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060-\u2064\ufeff]/g;
/** Unicode's line and paragraph separators: line breaks, as \n is. */
const SEPARATORS = /[\u2028\u2029]/g;
/**
 * Printable ASCII, with newlines where they are kept: nothing above applies to such a string, so it
 * comes back as it is after one test, not five replaces. Nearly every string the TUI draws is one,
 * and every Text of every frame passes here (the details screen after a detach spent 14 ms in it).
 */
const PLAIN = /^[\x20-\x7e]*$/;
const PLAIN_LINES = /^[\x20-\x7e\n]*$/;

/**
 * Multi-line text keeps its line breaks, and its tabs become spaces up to the next stop of 8 cells
 * from the line's start, as a terminal sets them (`ls` aligns its columns with tabs); with
 * `tabs`, for text written to the terminal as it comes (the CLI's streamed answer, which a pipe
 * keeps as sent), they stay tabs and the terminal sets them. On one line a tab is a space.
 */
export function sanitize(value: string | null | undefined, opts: { multiline?: boolean; tabs?: boolean } = {}): string {
  if (value === null || value === undefined) return '';
  if ((opts.multiline ? PLAIN_LINES : PLAIN).test(value)) return value;
  const noEsc = value.replace(ESCAPES, '').replace(HIDDEN, '');
  if (opts.multiline) {
    const text = noEsc.replace(/\r\n?/g, '\n').replace(SEPARATORS, '\n').replace(CONTROLS, '');
    return text.includes('\t') && !opts.tabs ? text.split('\n').map(expandTabs).join('\n') : text;
  }
  return noEsc.replace(/[\t\n\r]/g, ' ').replace(SEPARATORS, ' ').replace(CONTROLS_NO_NEWLINE, '');
}

/**
 * What JSON.stringify leaves as it is but a terminal would act on or not show: DEL, C1 controls (an
 * 8-bit CSI or OSC), and what sanitize drops as hidden or takes as a line break, and the joiners.
 */
const UNSEEN = new RegExp(`[\\x7f-\\x9f\\u200c\\u200d]|${HIDDEN.source}|${SEPARATORS.source}`, 'g');
const escapeUnseen = (json: string) => json.replace(UNSEEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * JSON for a terminal or a pipe: JSON.stringify, with the characters it leaves raw but a terminal
 * would act on (C1 controls) or hide (bidi overrides, zero-width) written as \u escapes, which any
 * JSON reader turns back into the same string.
 */
export function jsonText(value: unknown, space?: number): string {
  return escapeUnseen(JSON.stringify(value, null, space));
}

/**
 * What someone typed, shown back in double quotes with every invisible character written out as
 * a JSON escape (`"runn\u001b[31mer"`), at most `max` characters of it: sanitize would delete
 * them, and a message about `runn<ESC>[31mer` would say "runner", which exists.
 */
export function quoted(text: string, max = 80): string {
  return escapeUnseen(JSON.stringify(text.slice(0, max)));
}

const TAB_STOP = 8;

function expandTabs(line: string): string {
  const parts = line.split('\t');
  let out = parts[0]!;
  let width = widthOf(out);
  for (const part of parts.slice(1)) {
    const pad = TAB_STOP - (width % TAB_STOP);
    out += ' '.repeat(pad) + part;
    width += pad + widthOf(part);
  }
  return out;
}

// Made on first use: creating a segmenter loads ICU's break rules (tens of milliseconds at start-up).
let graphemes: Intl.Segmenter | undefined;
/** One cell per character, one character per grapheme: most of what a table draws. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Display cells of a string (CJK and emoji take two), as the terminal draws it. */
export const widthOf = (text: string): number => (PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text));

/** Cuts to a display width, by grapheme and measured with string-width, with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (PRINTABLE_ASCII.test(text)) return text.length <= width ? text : text.slice(0, width - 1) + '…';
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/** Exactly `width` cells: cut with an ellipsis or filled with spaces. */
export function pad(text: string, width: number): string {
  const t = truncate(text, width);
  return t + ' '.repeat(Math.max(0, width - widthOf(t)));
}
