/** The transcript's visible rows in a box of the pane's height, or what to do when there are none. */
import { Box } from 'ink';
import { memo } from 'react';
import { Hyperlink } from '../../components/Hyperlink.js';
import { Text } from '../../components/Text.js';
import { theme } from '../../theme.js';
import type { Row } from '../../wrap.js';

/**
 * `rows`: the window to draw (already cut to `height`); `first`: the index of its first row in the
 * transcript (the rows' keys). Memoised: a key typed into the prompt leaves the same window, and
 * the transcript is not drawn again for it.
 */
export const TranscriptView = memo(function TranscriptView({ rows, first, height, empty }: { rows: Row[]; first: number; height: number; empty: string }) {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {rows.length === 0 && first === 0 ? <Text color={theme.muted}>{empty}</Text> : rows.map((r, i) => <RowView key={first + i} row={r} />)}
    </Box>
  );
});

/** Neighbouring segments drawn alike as one (the wrapper splits text at every word): fewer nodes for Ink to lay out and draw. */
function merged(row: Row): Row {
  const out: Row = [];
  for (const s of row) {
    const prev = out[out.length - 1];
    if (prev && !s.href && !prev.href && prev.bold === s.bold && prev.italic === s.italic && prev.dim === s.dim && prev.underline === s.underline && prev.color === s.color && prev.code === s.code && prev.heading === s.heading && prev.match === s.match) {
      out[out.length - 1] = { ...prev, text: prev.text + s.text };
    } else out.push(s);
  }
  return out;
}

export function RowView({ row }: { row: Row }) {
  if (row.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {merged(row).map((s, i) => {
        if (s.href) return <Hyperlink key={i} href={s.href} label={s.text} bold={s.bold} italic={s.italic} />;
        return (
          <Text
            key={i}
            bold={s.bold}
            italic={s.italic}
            dimColor={s.dim}
            underline={s.underline}
            color={s.color ?? (s.code ? theme.warning : s.heading ? theme.accent : undefined)}
          >
            {s.text}
          </Text>
        );
      })}
    </Text>
  );
}
