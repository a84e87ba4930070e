import { Box } from 'ink';
import { Text } from './Text.js';
import { COMMANDS, usage } from '../commands.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { KEYMAP, keyLabel, keysText, SCOPE_TITLES, type Binding, type Scope } from '../keymap.js';
import { theme } from '../theme.js';

const COLUMN_WIDTH = 38;
const KEY_WIDTH = 10;

/** How a binding's keys read in the overlay: its label, or its keys in short form. */
function keysOf(b: Binding): string {
  return b.label || keysText(b);
}

type Line = { kind: 'title'; text: string } | { kind: 'binding'; keys: string; help: string };

/** The scopes' lines, spread over `count` columns, each scope whole, shortest column first. */
export function helpColumns(count: number): Line[][] {
  const columns: Line[][] = Array.from({ length: Math.max(1, count) }, () => []);
  for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
    const lines: Line[] = [{ kind: 'title', text: SCOPE_TITLES[scope] }];
    for (const b of KEYMAP as readonly Binding[]) if (b.scope === scope && b.help !== '') lines.push({ kind: 'binding', keys: keysOf(b), help: b.help });
    const target = columns.reduce((a, c) => (c.length < a.length ? c : a));
    target.push(...lines);
  }
  const commands: Line[] = [{ kind: 'title', text: 'Commands (after :)' }, ...COMMANDS.map((c): Line => ({ kind: 'binding', keys: usage(c), help: c.help }))];
  columns.reduce((a, c) => (c.length < a.length ? c : a)).push(...commands);
  return columns;
}

/**
 * Every binding of the keymap, grouped by scope, in as many columns as the
 * width allows. When the height does not hold them, the list's cursor keys
 * scroll it (j/k, g/G, page up and down), through the same hook a list uses;
 * it opens at the top each time.
 */
export function HelpOverlay({ width, height }: { width: number; height: number }) {
  const columns = helpColumns(Math.floor((width - 4) / COLUMN_WIDTH));
  const room = Math.max(3, height - 4);
  const longest = Math.max(...columns.map((c) => c.length));
  // The cursor is the first line shown: one position per line the overlay can scroll by.
  const cursor = useListCursor(Math.max(0, longest - room) + 1, room, 'helpScroll');
  useKeys((input, key) => void cursor.handle(input, key));
  const from = cursor.index;
  const scrollKeys = `${keyLabel('down')} ${keyLabel('top')} ${keyLabel('pageDown')}/${keyLabel('pageUp')}`;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold color={theme.accent}>
        Keys (esc or ? to close{longest > room ? `; ${scrollKeys} scroll, ${from + 1}-${Math.min(longest, from + room)} of ${longest}` : ''})
      </Text>
      <Box>
        {columns.map((column, i) => (
          <Box key={i} flexDirection="column" width={COLUMN_WIDTH} marginRight={1}>
            {column.slice(from, from + room).map((line, j) =>
              line.kind === 'title' ? (
                <Text key={j} bold wrap="truncate-end">
                  {line.text}
                </Text>
              ) : (
                <Text key={j} wrap="truncate-end">
                  <Text color={theme.key}>{line.keys.padEnd(KEY_WIDTH - 1) + ' '}</Text>
                  {line.help}
                </Text>
              ),
            )}
          </Box>
        ))}
      </Box>
      <Text color={theme.muted} wrap="truncate-end">
        Attached, every key goes to the intern but ^] (detach) and shift+pgup/pgdn (history).
      </Text>
    </Box>
  );
}
