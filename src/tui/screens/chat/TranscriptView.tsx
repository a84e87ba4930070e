/** The transcript's visible rows in a box of the pane's height, or what to do when there are none. */
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { Hyperlink } from '../../components/Hyperlink.js';
import { Text } from '../../components/Text.js';
import { theme } from '../../theme.js';
import type { Row } from '../../wrap.js';

/** `rows`: the window to draw (already cut to `height`); `first`: the index of its first row in the transcript (the rows' keys). */
export function TranscriptView({ rows, first, height, empty }: { rows: Row[]; first: number; height: number; empty: ReactNode }) {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {rows.length === 0 && first === 0 ? <Text color={theme.muted}>{empty}</Text> : rows.map((r, i) => <RowView key={first + i} row={r} />)}
    </Box>
  );
}

export function RowView({ row }: { row: Row }) {
  if (row.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {row.map((s, i) => {
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
