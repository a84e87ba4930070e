/**
 * The TUI's one text primitive. It is Ink's `Text` with every string child
 * passed through `sanitize` (escape sequences, C0/C1 controls and bidi
 * overrides removed; newlines kept), so a string from the server cannot reach
 * the terminal raw whether or not a screen remembered to clean it. The lint
 * forbids importing Ink's `Text` anywhere else (eslint.config.js).
 */
import { Text as InkText } from 'ink';
import { Children, cloneElement, Fragment, isValidElement, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { sanitize } from '../../text.js';
import { boldColour } from '../theme.js';

export type TextProps = ComponentProps<typeof InkText>;

/** Sanitises the strings among the children (and inside fragments); a nested Text cleans its own. */
export function cleanChildren(children: ReactNode): ReactNode {
  return Children.map(children, (child) => {
    if (typeof child === 'string') return sanitize(child, { multiline: true });
    if (typeof child === 'number' || typeof child === 'boolean' || child === null || child === undefined) return child;
    if (isValidElement(child)) {
      const el = child as ReactElement<{ children?: ReactNode }>;
      // A fragment holding strings: clean inside it too. Other elements draw through their own Text.
      if (el.type === Fragment && el.props.children !== undefined) return cloneElement(el, undefined, cleanChildren(el.props.children));
      return el;
    }
    return child;
  });
}

export function Text({ children, ...props }: TextProps) {
  // A theme may stress a colour's meaning with bold too (high contrast's errors and warnings).
  const bold = props.bold ?? (boldColour(props.color) || undefined);
  return (
    <InkText {...props} bold={bold}>
      {cleanChildren(children)}
    </InkText>
  );
}
