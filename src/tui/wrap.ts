/**
 * Styled text wrapped to a width: rows of segments, each row no wider than the width (one cell a
 * code point). Its own module, with no Markdown parser behind it: the form fields wrap their
 * errors with it, and importing it from markdown.ts put marked into every start of the TUI.
 */
import { truncate } from '../text.js';

export interface Segment {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  dim?: boolean;
  heading?: boolean;
  underline?: boolean;
  /** A semantic colour from the theme (role labels, errors). */
  color?: string;
  /** A link target (already checked). */
  href?: string;
  /** The code block this segment is a row of (the same object on each of its rows): what `c` in the chat copies. */
  block?: CodeBlock;
  /** Part of a search match (the chat's transcript search). */
  match?: boolean;
}

/** A fenced code block's text (sanitised) and its language. */
export interface CodeBlock {
  text: string;
  lang: string;
}
export type Row = Segment[];

/** Splits segments at newlines into rows, then wraps each row to `width` cells (one per code point). */
export function wrapSegments(segments: Segment[], width: number, indent = '', firstIndent = indent): Row[] {
  // A width that is no whole number of cells (NaN from a size not known yet) would never fill a row.
  width = Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 1;
  const rows: Row[] = [];
  const lines: Segment[][] = [[]];
  for (const s of segments) {
    const parts = s.text.split('\n');
    parts.forEach((p, i) => {
      if (i > 0) lines.push([]);
      if (p) lines[lines.length - 1]!.push({ ...s, text: p });
    });
  }
  for (const line of lines) {
    let row: Row = [];
    let used = 0;
    let pre = rows.length === 0 ? firstIndent : indent;
    const room = () => Math.max(1, width - [...pre].length);
    const flush = () => {
      rows.push(pre ? [{ text: pre }, ...row] : row);
      row = [];
      used = 0;
      pre = indent;
    };
    for (const s of line) {
      // Words keep their spaces; a word longer than a row is cut.
      for (const word of s.text.match(/\S+\s*|\s+/g) ?? []) {
        let w = word;
        while (w.length > 0) {
          const len = [...w].length;
          const trimmedLen = [...w.trimEnd()].length;
          if (used + trimmedLen <= room()) {
            row.push({ ...s, text: w });
            used += len;
            w = '';
          } else if (used > 0) {
            flush();
            w = w.trimStart();
          } else {
            const cut = [...w].slice(0, room()).join('');
            row.push({ ...s, text: cut });
            w = w.slice(cut.length);
            flush();
          }
        }
      }
    }
    flush();
  }
  return rows;
}

/** Plain text wrapped to `width` (as wrapSegments), each line as a string without trailing spaces. */
export function wrapText(text: string, width: number, indent = '', firstIndent = indent): string[] {
  return wrapSegments([{ text }], width, indent, firstIndent).map((row) => row.map((segment) => segment.text).join('').trimEnd());
}

/** The first `max` of wrapped `lines` (at least one); when some are left out, the last one kept ends in "…" within `width` cells. */
export function firstLines(lines: readonly string[], max: number, width: number): string[] {
  const n = Math.max(1, max);
  if (lines.length <= n) return [...lines];
  const kept = lines.slice(0, n);
  kept[n - 1] = truncate(`${kept[n - 1]}…`, width);
  return kept;
}
