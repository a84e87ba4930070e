/**
 * An OSC 8 hyperlink: the one place an escape sequence is drawn on purpose. The target has passed
 * `safeHref` (http, https or mailto, no controls or spaces) and the label is sanitised, so nothing
 * from the server reaches the terminal raw. Ink's Text is used directly because the sanitising
 * Text primitive would (rightly) strip the sequence.
 */
// eslint-disable-next-line no-restricted-imports
import { Text as InkText } from 'ink';
import { osc8, safeHref } from '../markdown.js';
import { sanitize } from '../../text.js';

export function Hyperlink({ href, label, bold, italic, color }: { href: string; label: string; bold?: boolean; italic?: boolean; color?: string }) {
  const target = safeHref(href);
  const text = sanitize(label);
  if (!target) return <InkText bold={bold} italic={italic} color={color}>{text}</InkText>;
  return (
    <InkText bold={bold} italic={italic} color={color} underline>
      {`${osc8(target)}${text}${osc8('')}`}
    </InkText>
  );
}
