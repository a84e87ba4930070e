/**
 * Text cut and padded to a width, the characters a filter matched underlined in the accent colour
 * (underline alone under NO_COLOR): the table's cells and the pickers' labels. Characters cut off
 * by the width are not marked. The text is sanitised here: the Text primitive around a cell cleans
 * the strings among its children, but not those a component child like this one draws (a table
 * cell's text went out raw that way). Sanitising is idempotent, so the positions a filter found in
 * sanitised text still hold.
 */
import { pad, sanitize } from '../../text.js';
import { markedRuns } from '../fuzzy.js';
import { theme } from '../theme.js';
import { Text } from './Text.js';

/** `width`: cut and padded to it; without, drawn whole (a wrapping Text around it cuts it). */
export function MarkedCell({ text: given, positions, width }: { text: string; positions: ReadonlySet<number> | undefined; width?: number }) {
  const text = sanitize(given);
  const drawn = width === undefined ? text : pad(text, width);
  if (!positions || positions.size === 0) return <>{drawn}</>;
  // The part of the text drawn before any "…" and padding: positions index the text itself.
  const kept = drawn.startsWith(text) ? text.length : Math.max(0, drawn.indexOf('…'));
  return (
    <>
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
    </>
  );
}
