/** The transcript's visible rows in a box of the pane's height, or what to do when there are none. */
import { Box, type DOMElement } from 'ink';
import { type Dispatch, memo, type SetStateAction, useRef } from 'react';
import { useMouse } from '../../hooks/useMouse.js';
import { WHEEL_ROWS } from '../../mouse.js';
import { Hyperlink } from '../../components/Hyperlink.js';
import { Text } from '../../components/Text.js';
import { theme } from '../../theme.js';
import type { Row, Segment } from '../../wrap.js';

export interface TranscriptViewProps {
  /** The window to draw (already cut to `height`). */
  rows: Row[];
  /** The index of its first row in the transcript (the rows' keys). */
  first: number;
  height: number;
  empty: string;
  /** The cursor's row in the window (-1: none, in the prompt). */
  cursor?: number;
  /** The transcript's search: its matches are drawn marked. */
  query?: string;
  /** The wheel scrolls it (rows up from the end, at most `maxScroll`); a state setter, so the memo holds. */
  setScroll?: Dispatch<SetStateAction<number>>;
  maxScroll?: number;
}

/**
 * Memoised: a key typed into the prompt leaves the same window, cursor and search, and the
 * transcript is not drawn again for it.
 */
export const TranscriptView = memo(function TranscriptView({ rows, first, height, empty, cursor = -1, query = '', setScroll, maxScroll = 0 }: TranscriptViewProps) {
  const box = useRef<DOMElement>(null);
  useMouse(box, (e) => {
    if (e.type !== 'wheel' || (e.wheel !== 'up' && e.wheel !== 'down')) return;
    const by = e.wheel === 'up' ? WHEEL_ROWS : -WHEEL_ROWS;
    setScroll?.((s) => Math.max(0, Math.min(maxScroll, Math.min(s, maxScroll) + by)));
  });
  return (
    <Box ref={box} flexDirection="column" height={height} overflow="hidden">
      {rows.length === 0 && first === 0 ? <Text color={theme.muted}>{empty}</Text> : rows.map((r, i) => <RowView key={first + i} row={marked(r, query)} cursor={i === cursor} />)}
    </Box>
  );
});

/** A row with every occurrence of `query` (any case) in segments of their own, marked `match`. */
export function marked(row: Row, query: string): Row {
  if (!query) return row;
  const text = row.map((s) => s.text).join('');
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const hits: [number, number][] = [];
  for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) hits.push([at, at + q.length]);
  if (hits.length === 0) return row;
  const out: Row = [];
  let pos = 0;
  for (const s of row) {
    const end = pos + s.text.length;
    // Cut the segment at every match boundary inside it.
    const cuts = [pos, ...hits.flat().filter((c) => c > pos && c < end), end];
    for (let i = 0; i < cuts.length - 1; i++) {
      const piece = s.text.slice(cuts[i]! - pos, cuts[i + 1]! - pos);
      if (piece) out.push({ ...s, text: piece, match: hits.some(([a, b]) => cuts[i]! >= a && cuts[i]! < b) });
    }
    pos = end;
  }
  return out;
}

/** Neighbouring segments drawn alike as one (the wrapper splits text at every word): fewer nodes for Ink to lay out and draw. */
function merged(row: Row): Row {
  const out: Row = [];
  for (const s of row) {
    const prev = out[out.length - 1];
    if (prev && !s.href && !prev.href && sameStyle(prev, s)) out[out.length - 1] = { ...prev, text: prev.text + s.text };
    else out.push(s);
  }
  return out;
}

const sameStyle = (a: Segment, b: Segment) =>
  a.bold === b.bold && a.italic === b.italic && a.dim === b.dim && a.underline === b.underline && a.color === b.color && a.code === b.code && a.heading === b.heading && a.match === b.match;

/** A row; the cursor's is drawn inverse, and a search match in the selection colour, inverse. */
export function RowView({ row, cursor = false }: { row: Row; cursor?: boolean }) {
  if (row.length === 0) return <Text inverse={cursor}> </Text>;
  return (
    <Text wrap="truncate-end" inverse={cursor}>
      {merged(row).map((s, i) => {
        if (s.href) return <Hyperlink key={i} href={s.href} label={s.text} bold={s.bold} italic={s.italic} />;
        return (
          <Text
            key={i}
            bold={s.bold || s.match}
            italic={s.italic}
            dimColor={s.dim && !s.match}
            underline={s.underline}
            inverse={s.match ? !cursor : undefined}
            color={s.match ? theme.selection : (s.color ?? (s.code ? theme.warning : s.heading ? theme.accent : undefined))}
          >
            {s.text}
          </Text>
        );
      })}
    </Text>
  );
}
