/**
 * Text cut and padded to a width, the characters a filter matched underlined in the accent colour
 * (underline alone under NO_COLOR): the table's cells and the pickers' labels. Characters cut off
 * by the width are not marked. The text is sanitised first, so that its widths and the positions a
 * filter found in sanitised text agree (sanitising is idempotent); it is drawn in a Text of its own,
 * since the Text primitive around a cell cannot see the strings a component child draws.
 */
import { pad, sanitize } from '../../text.js';
import { markedRuns } from '../fuzzy.js';
import { theme } from '../theme.js';
import { Text } from './Text.js';

/** `width`: cut and padded to it; without, drawn whole (a wrapping Text around it cuts it). */
export function MarkedCell({ text: given, positions, width }: { text: string; positions: ReadonlySet<number> | undefined; width?: number }) {
  const text = sanitize(given);
  const drawn = width === undefined ? text : pad(text, width);
  if (!positions || positions.size === 0) return <Text>{drawn}</Text>;
  // The part of the text drawn before any "…" and padding: positions index the text itself.
  const kept = drawn.startsWith(text) ? text.length : Math.max(0, drawn.indexOf('…'));
  // A Text, not a fragment: a Text inside the cell's Text is drawn inline, and its strings pass the
  // primitive's cleaning (the lint refuses a component that returns strings in a fragment).
  return (
    <Text>
      {markedRuns(drawn.slice(0, kept), positions).map((r, i) =>
        r.hit ? (
          <Text key={i} underline color={theme.accent}>
            {r.text}
          </Text>
        ) : (
          r.text
        ),
      )}
      {drawn.slice(kept)}
    </Text>
  );
}
