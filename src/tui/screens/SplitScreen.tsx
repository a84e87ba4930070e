/**
 * The chat and the intern's live terminal on one screen: side by side (the
 * chat on the left) from STACK_BELOW_COLUMNS across, else stacked (the chat
 * on top). The chat is the chat screen itself, handed its pane and `active`
 * through the TUI context; the terminal pane is drawn by Ink from the
 * emulator (TerminalPane.tsx). The focus key (F6, the keymap's `splitFocus`)
 * moves the keyboard between them: with the terminal focused every other key
 * goes to the remote as typed, as attach does (read raw, ahead of Ink); with
 * the chat focused the chat's keys work, and F7/F8 move the split.
 */
import { Box, useStdin } from 'ink';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { decodeInput } from '../../attach/keys.js';
import type { Intern } from '../../contract/intern.js';
import { Text } from '../components/Text.js';
import { TuiContext, useTui, type TuiContextValue } from '../context.js';
import type { Scope } from '../keymap.js';
import { screen } from '../output.js';
import { routeKey, SPLIT_RATIO, splitLayout, stepRatio, terminalRead, type Focus } from '../splitLayout.js';
import { theme } from '../theme.js';
import { ChatScreen } from './ChatScreen.js';
import { TerminalPane, type TerminalPaneHandle } from './TerminalPane.js';

export function SplitScreen({ intern }: { intern: Intern }) {
  const tui = useTui();
  const { pane, active, setScopes, nav } = tui;
  const { internal_eventEmitter: inputEvents, setRawMode, isRawModeSupported } = useStdin();
  const [focus, setFocus] = useState<Focus>('chat');
  const [ratio, setRatio] = useState<number>(SPLIT_RATIO.initial);
  const layout = splitLayout(pane, ratio);
  const terminal = useRef<TerminalPaneHandle>(null);

  // The footer: the focus key first (the chat's keys fill the rest of the row, and what does not fit
  // is cut from the end), then the chat's and the split's own while the chat has focus; the focus
  // key alone else.
  const chatScopes = useRef<Scope[]>([]);
  const focusNow = useRef(focus);
  focusNow.current = focus;
  const chatSetScopes = useCallback(
    (scopes: Scope[]) => {
      chatScopes.current = scopes;
      if (focusNow.current === 'chat') setScopes(['split', 'splitChat', ...scopes]);
    },
    [setScopes],
  );
  useLayoutEffect(() => setScopes(focus === 'chat' ? ['split', 'splitChat', ...chatScopes.current] : ['split']), [focus, setScopes]);

  // Keys the split reads itself, raw: Ink reports no function keys. Set in a layout effect, so the
  // keys typed after F6 find the routing already changed.
  useLayoutEffect(() => {
    if (!active) return;
    if (focus === 'chat') {
      const onKey = (chunk: string) => {
        for (const event of decodeInput(chunk)) {
          const action = routeKey('chat', event);
          if (action === 'focus') setFocus('terminal');
          else if (action !== 'pane') setRatio((r) => stepRatio(r, action === 'grow'));
        }
      };
      inputEvents.on('input', onKey);
      return () => void inputEvents.off('input', onKey);
    }
    // The terminal has the keyboard: every read goes to it as it came, straight from the key
    // splitter, ahead of Ink (through Ink's input events where there is none, in component tests).
    const onRead = (chunk: string) => {
      const { focus: toChat, rest } = terminalRead(chunk);
      if (rest) terminal.current?.input(rest);
      if (toChat) setFocus('chat');
    };
    const keys = screen.keys;
    if (isRawModeSupported) setRawMode(true);
    if (keys) keys.attached = onRead;
    else inputEvents.on('input', onRead);
    return () => {
      if (keys) keys.attached = null;
      else inputEvents.off('input', onRead);
      if (isRawModeSupported) setRawMode(false);
    };
  }, [active, focus, inputEvents, isRawModeSupported, setRawMode]);

  const chatCtx = useMemo<TuiContextValue>(
    () => ({
      ...tui,
      active: active && focus === 'chat',
      setScopes: chatSetScopes,
      size: { columns: layout.chat.columns, rows: tui.size.rows },
      pane: { columns: layout.chat.columns, rows: layout.chat.rows, covered: pane.covered },
    }),
    [tui, active, focus, chatSetScopes, layout.chat.columns, layout.chat.rows, pane.covered],
  );

  const side = layout.direction === 'row';
  const rule = side ? (
    <Box flexDirection="column" width={1}>
      <Text color={theme.muted}>{'│\n'.repeat(Math.max(1, pane.rows)).trimEnd()}</Text>
    </Box>
  ) : (
    <Text color={theme.muted}>{'─'.repeat(Math.max(1, pane.columns))}</Text>
  );
  return (
    <Box flexDirection={layout.direction} width={pane.columns} height={pane.rows}>
      <Box flexDirection="column" width={layout.chat.columns} height={layout.chat.rows} overflow="hidden">
        <TuiContext.Provider value={chatCtx}>
          <ChatScreen id={intern.id} seed={intern} />
        </TuiContext.Provider>
      </Box>
      {rule}
      <TerminalPane intern={intern} size={layout.terminal} focused={active && focus === 'terminal'} onDetach={nav.pop} handle={terminal} />
    </Box>
  );
}
