import { Box, type DOMElement } from 'ink';
import { Text } from './Text.js';
import { COMMANDS, usage } from '../commands.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor } from '../hooks/useListCursor.js';
import { useRef } from 'react';
import { useMouse } from '../hooks/useMouse.js';
import { WHEEL_ROWS } from '../mouse.js';
import { activeKeymap, KEYMAP, keyLabel, keysText, SCOPE_TITLES, withImplied, type Binding, type Scope } from '../keymap.js';
import { theme } from '../theme.js';
import { wrapText } from '../wrap.js';

const KEY_WIDTH = 10;
/** Marks the groups of the screen the help was opened on (they come first). */
export const HERE_MARK = '▸';

/** How a binding's keys read in the overlay: its label, or its keys in short form. */
function keysOf(b: Binding): string {
  return b.label || keysText(b);
}

/**
 * The narrowest a column may be: its longest line, keys and help, so that a wide terminal cuts
 * none (at 120 columns, three columns of 38 cut "delete (type the name to co…"); the columns share
 * what the width leaves over. From the keymap and the commands, so a longer help widens it.
 */
export const MIN_COLUMN_WIDTH = Math.max(
  ...(KEYMAP as readonly Binding[]).filter((b) => b.help !== '').map((b) => Math.max(KEY_WIDTH - 1, keysOf(b).length) + 1 + b.help.length),
  ...COMMANDS.map((c) => Math.max(KEY_WIDTH - 1, usage(c).length) + 1 + c.help.length),
);

type Line = { kind: 'title'; text: string; here: boolean } | { kind: 'binding'; keys: string; help: string };

/** How many columns `inner` cells hold, one cell apart, and how wide each is. */
export function helpLayout(inner: number): { count: number; width: number } {
  const count = Math.max(1, Math.floor((inner + 1) / (MIN_COLUMN_WIDTH + 1)));
  return { count, width: Math.max(1, Math.floor((inner - (count - 1)) / count)) };
}

/**
 * The scopes' lines, spread over `count` columns, each scope whole, shortest column first: the
 * scopes of the screen underneath (`here`, as its footer lists them) first and marked, then the
 * rest, then the palette's commands.
 */
export function helpColumns(count: number, here: readonly Scope[] = []): Line[][] {
  const columns: Line[][] = Array.from({ length: Math.max(1, count) }, () => []);
  const own = withImplied(here);
  const rest = (Object.keys(SCOPE_TITLES) as Scope[]).filter((scope) => !own.includes(scope));
  const shortest = () => columns.reduce((a, c) => (c.length < a.length ? c : a));
  for (const scope of [...own, ...rest]) {
    const bindings = activeKeymap().filter((b) => b.scope === scope && b.help !== '');
    if (bindings.length === 0) continue;
    const title = own.includes(scope) ? `${HERE_MARK} ${SCOPE_TITLES[scope]}` : SCOPE_TITLES[scope];
    shortest().push({ kind: 'title', text: title, here: own.includes(scope) }, ...bindings.map((b): Line => ({ kind: 'binding', keys: keysOf(b), help: b.help })));
  }
  shortest().push({ kind: 'title', text: 'Commands (after :)', here: false }, ...COMMANDS.map((c): Line => ({ kind: 'binding', keys: usage(c), help: c.help })));
  return columns;
}

/**
 * Every binding of the keymap, grouped by scope, the screen's own groups first
 * (`scopes`, the ones its footer shows), in as many columns as the width
 * allows. When the height does not hold them, the list's cursor keys scroll it
 * (j/k, g/G, page up and down), through the same hook a list uses; it opens at
 * the top each time.
 */
/** A pane shorter than this gets the overlay's title on one row. */
const SHORT_BELOW_ROWS = 12;

export function HelpOverlay({ width, height, scopes }: { width: number; height: number; scopes: readonly Scope[] }) {
  // Inside the border (2) and the padding (2).
  const layout = helpLayout(width - 4);
  const columns = helpColumns(layout.count, scopes);
  const longest = Math.max(...columns.map((c) => c.length));
  const scrollKeys = `${keyLabel('down')} ${keyLabel('top')} ${keyLabel('pageDown')}/${keyLabel('pageUp')}`;
  const short = height < SHORT_BELOW_ROWS;
  // Short, the title keeps what it must say on one row: how to close it, and where in the list it is.
  const title = (shown: string) =>
    short ? `Keys (esc or ? to close${shown ? `; ${shown}` : ''})` : `Keys (esc or ? to close; ${HERE_MARK} this screen's first${shown ? `; ${scrollKeys} scroll, ${shown}` : ''})`;
  // The lines the height leaves: less the border, the last line and the title as it wraps (two rows
  // at 80 columns once it says how to scroll: counted as if the range were the widest it can be).
  // On a pane too short for that (under 12 rows), the title is one row, cut.
  const titleRows = (t: string) => (short ? 1 : wrapText(t, width - 4).length);
  // (Short, the line about attached keys goes too: the keymap's own lines come first.)
  const chrome = short ? 2 : 3;
  const fits = Math.max(1, height - chrome - titleRows(title(''))) >= longest;
  const room = Math.max(1, height - chrome - titleRows(title(fits ? '' : `${longest}-${longest} of ${longest}`)));
  // The cursor is the first line shown: one position per line the overlay can scroll by.
  const cursor = useListCursor(Math.max(0, longest - room) + 1, room, 'helpScroll');
  useKeys((input, key) => void cursor.handle(input, key));
  const from = cursor.index;
  // The wheel scrolls it too (it is open over the screen, so it listens whatever the screen does).
  const box = useRef<DOMElement>(null);
  const last = Math.max(0, longest - room);
  useMouse(box, (e) => {
    if (e.type === 'wheel' && (e.wheel === 'up' || e.wheel === 'down')) cursor.setIndex(Math.max(0, Math.min(last, from + (e.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS))));
  }, true);
  return (
    <Box ref={box} flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold color={theme.accent} wrap={short ? 'truncate-end' : 'wrap'}>
        {title(longest > room ? `${from + 1}-${Math.min(longest, from + room)} of ${longest}` : '')}
      </Text>
      <Box>
        {columns.map((column, i) => (
          <Box key={i} flexDirection="column" width={layout.width} marginRight={i < columns.length - 1 ? 1 : 0}>
            {column.slice(from, from + room).map((line, j) =>
              line.kind === 'title' ? (
                <Text key={j} bold color={line.here ? theme.accent : undefined} wrap="truncate-end">
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
      {short ? null : (
        <Text color={theme.muted} wrap="truncate-end">
          Attached: {keyLabel('detach')} detach, shift+pgup/pgdn history; other keys go to the intern.
        </Text>
      )}
    </Box>
  );
}
