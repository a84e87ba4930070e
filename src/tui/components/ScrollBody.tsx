/**
 * The part of a screen that may outgrow the pane (a details screen's facts, a feature check):
 * it takes the rows its screen leaves it (it grows and shrinks inside a screen drawn at the
 * pane's height), is clipped there, and when cut says so on its last row and scrolls with the
 * keys lists move with (j/k, pgdn/pgup, g/G) and with the mouse's wheel. A screen keeps its prompts and errors outside it,
 * above, so a short terminal never hides a question being asked.
 *
 * Its size is Ink's layout, read after each frame (`measureElement`): no screen counts its rows
 * by hand for it, and text that wraps on a narrow terminal counts as the rows it takes.
 */
import { Box, measureElement, type DOMElement } from 'ink';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Text } from './Text.js';
import { useTui } from '../context.js';
import { useKeys } from '../hooks/useKeys.js';
import { useMouse } from '../hooks/useMouse.js';
import { WHEEL_ROWS } from '../mouse.js';
import { keyLabel, matches } from '../keymap.js';
import { theme } from '../theme.js';

/** How far a body is scrolled, given its rows, the rows it is shown in, and a wanted offset: never past its end. */
export function clampScroll(contentRows: number, viewRows: number, wanted: number): number {
  return Math.max(0, Math.min(wanted, contentRows - viewRows));
}

/**
 * `onCut` hears whether the body is cut now: the screen then lists the keys that scroll it (the
 * `cursor` scope) in its footer and help, as every key that works is listed.
 */
export function ScrollBody({ active, onCut, children }: { active: boolean; onCut?: (cut: boolean) => void; children: ReactNode }) {
  const outer = useRef<DOMElement>(null);
  const content = useRef<DOMElement>(null);
  const [sizes, setSizes] = useState({ outer: 0, content: 0 });
  const [wanted, setWanted] = useState(0);
  // After every commit (Ink lays out synchronously as it commits): what the body was given and
  // what it holds, stored only when they change, so this settles after one more render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    const o = outer.current ? measureElement(outer.current).height : 0;
    const c = content.current ? measureElement(content.current).height : 0;
    if (o !== sizes.outer || c !== sizes.content) setSizes({ outer: o, content: c });
  });
  // Ink clips a box's children to the innermost clipping box only, not to the ones around it: a
  // body that clipped itself would draw over the command palette (or a sign-in box), which the
  // shell makes room for by clipping the screen above it. So it clips only while cut and nothing
  // covers the pane; covered, it is drawn from its top and the shell's clip cuts it.
  const { pane } = useTui();
  const cut = !pane.covered && sizes.outer > 1 && sizes.content > sizes.outer;
  // The last row says what is left out, so the body shows one row less than it is given.
  const view = cut ? sizes.outer - 1 : sizes.outer;
  const scroll = cut ? clampScroll(sizes.content, view, wanted) : 0;
  useEffect(() => onCut?.(cut), [cut, onCut]);
  useKeys((input, key) => {
    const to = (n: number) => setWanted(clampScroll(sizes.content, view, n));
    if (matches('down', input, key)) return to(scroll + 1);
    if (matches('up', input, key)) return to(scroll - 1);
    if (matches('pageDown', input, key)) return to(scroll + Math.max(1, view - 1));
    if (matches('pageUp', input, key)) return to(scroll - Math.max(1, view - 1));
    if (matches('top', input, key)) return to(0);
    if (matches('bottom', input, key)) return to(sizes.content);
  }, active && cut);
  // The wheel scrolls it as j/k do, WHEEL_ROWS lines a notch.
  useMouse(outer, (e) => {
    if (e.type === 'wheel' && (e.wheel === 'up' || e.wheel === 'down')) setWanted(clampScroll(sizes.content, view, scroll + (e.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS)));
  }, active && cut);
  const below = sizes.content - scroll - view;
  return (
    <Box ref={outer} flexDirection="column" flexGrow={1} flexShrink={1} overflowY={cut ? 'hidden' : 'visible'}>
      <Box flexDirection="column" flexShrink={0} overflowY={cut ? 'hidden' : 'visible'} height={cut ? view : undefined}>
        {/* Cut, the content is laid out out of the flow (absolute): in the flow, Yoga sized it at most
            the window's height (its boxes shrink), so it measured short, the body was no longer cut,
            measured tall again, and React gave up the loop ("Maximum update depth") at 10 rows. */}
        <Box ref={content} flexDirection="column" flexShrink={0} marginTop={-scroll} position={cut ? 'absolute' : 'relative'} width="100%">
          {children}
        </Box>
      </Box>
      {cut ? (
        <Text color={theme.muted} wrap="truncate-end">
          {scroll > 0 ? `↑ ${scroll} ` : ''}
          {below > 0 ? `↓ ${below} ` : ''}
          {/* The keys only while they scroll it (a question asked above takes them). */}
          {active ? `more lines (${keyLabel('down')} scroll)` : 'more lines'}
        </Text>
      ) : null}
    </Box>
  );
}
