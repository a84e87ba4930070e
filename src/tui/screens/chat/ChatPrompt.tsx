/**
 * The chat's prompt: several lines (^j, alt+enter, shift+enter where the terminal reports it), up
 * to PROMPT_ROWS_MAX rows and then scrolled; up/^p and down/^n walk the prompt history from its
 * first and last line, ^r searches it backwards; enter sends, ^e opens $EDITOR. Its own editor,
 * not TextField: a field is one line or a boxed text area with enter for a new line, and the
 * prompt is neither (docs/architecture.md, "ink-text-input and ink-select-input"). The editing is
 * a React-free model (promptModel.ts); this draws it and maps keys to it.
 */
import { Box } from 'ink';
import { useRef } from 'react';
import { Text } from '../../components/Text.js';
import { PASTED_BREAK, fieldText, nextGrapheme } from '../../components/TextField.js';
import { useTui } from '../../context.js';
import { useExternalEditor } from '../../hooks/useExternalEditor.js';
import { useKeys } from '../../hooks/useKeys.js';
import { pastedText } from '../../keyParse.js';
import { isTyped, keyLabel, matches } from '../../keymap.js';
import { theme } from '../../theme.js';
import * as P from './promptModel.js';

export interface ChatPromptProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter: the text as typed (the chat trims it and decides what sending means). */
  onSubmit: (value: string) => void;
  /** Whether the prompt takes keys (not while a question or a permission is asked, nor in the transcript). */
  focus: boolean;
  /** The columns the prompt may take. */
  width: number;
  /** A turn is running: what is sent steers it (the prompt is marked ↪). */
  steering?: boolean;
  placeholder?: string;
  /** Earlier prompts, oldest first (the profile's history). */
  history?: () => readonly string[];
  /** The prompt as the model holds it, for the chat to count its rows and its keys' scopes. */
  state: P.PromptState;
  onState: (state: P.PromptState) => void;
}

/** The label's cells before the prompt's text. */
export const promptLabelWidth = (steering: boolean): number => (steering ? 4 : 2);

/**
 * The rows the prompt takes at `width` (the chat takes them from the transcript): its lines as
 * wrapped, PROMPT_ROWS_MAX at most; `value` set from outside goes before the model's state.
 */
export const promptHeight = (state: P.PromptState, value: string, width: number, steering: boolean): number =>
  P.promptRows(state.value === value ? state : P.promptState(value), width - promptLabelWidth(steering));

export function ChatPrompt({ value, onChange, onSubmit, focus, width, steering = false, placeholder, history, state, onState }: ChatPromptProps) {
  const { nav } = useTui();
  const editor = useExternalEditor();
  // The value set from outside (sent and cleared, given back, $EDITOR): the model follows it.
  const s = state.value === value ? state : P.withValue(value);
  const current = useRef(s);
  current.current = s;
  const entries = () => history?.() ?? [];
  // Typed without bracketed paste, a CR LF is enter and then a line feed (^j): one enter.
  const afterEnter = useRef(false);
  const set = (next: P.PromptState) => {
    current.current = next;
    onState(next);
    if (next.value !== value) onChange(next.value);
  };

  useKeys((ch, key) => {
    const st = current.current;
    const lineFeedOfEnter = afterEnter.current;
    afterEnter.current = false;
    if (st.search) {
      if (matches('searchOlder', ch, key)) return set(P.searchBack(st, entries()));
      if (matches('searchAccept', ch, key)) return set(P.searchAccept(st, entries()));
      if (matches('searchCancel', ch, key)) return set(P.searchCancel(st));
      if (matches('erase', ch, key)) return set(P.searchType(st, entries(), [...st.search.query].slice(0, -1).join('')));
      const text = pastedText(ch) ?? (isTyped(ch, key) && !matches('promptNewline', ch, key) ? ch : null);
      if (text) set(P.searchType(st, entries(), st.search.query + fieldText(text, false)));
      return;
    }
    if (matches('chatEditor', ch, key)) {
      const out = editor(st.value);
      if ('error' in out) return nav.flash(out.error, 'error');
      return set(P.withValue(out.text));
    }
    if (matches('promptNewline', ch, key)) return lineFeedOfEnter && ch === '\n' ? undefined : set(P.newline(st));
    if (matches('send', ch, key)) {
      afterEnter.current = true;
      return onSubmit(st.value);
    }
    if (matches('promptHistorySearch', ch, key)) return set(P.searchBack(st, entries()));
    if (matches('historyBack', ch, key)) return set(P.historyBack(st, entries()));
    if (matches('historyForward', ch, key)) return set(P.historyForward(st, entries()));
    if (matches('cursorLeft', ch, key)) return set(P.left(st));
    if (matches('cursorRight', ch, key)) return set(P.right(st));
    if (matches('lineStart', ch, key)) return set(P.home(st));
    if (matches('lineEnd', ch, key)) return set(P.end(st));
    if (matches('killLine', ch, key)) return set(P.killLine(st));
    if (matches('killLineStart', ch, key)) return set(P.killLineStart(st));
    if (matches('killWord', ch, key)) return set(P.killWord(st));
    // Several backspaces read at once arrive as one chunk of DEL/BS bytes.
    const erase = matches('erase', ch, key) ? 1 : /^[\x7f\b]+$/.test(ch) ? ch.length : 0;
    if (erase > 0) return set(P.erase(st, erase));
    if (matches('eraseForward', ch, key)) return set(P.eraseForward(st));
    // A paste keeps its lines; typed text is one key's worth.
    const pasted = pastedText(ch);
    if (pasted === null && !isTyped(ch, key)) return;
    const text = fieldText(pasted ?? ch, pasted !== null);
    if (text) set(P.insert(st, text));
  }, focus, { text: true });

  const labelWidth = promptLabelWidth(steering);
  const label = (first: boolean) => (
    <Box width={labelWidth} flexShrink={0}>
      <Text color={focus ? theme.accent : theme.muted} bold={focus}>
        {first ? (steering ? '↪ ' : '› ') : ''}
      </Text>
    </Box>
  );
  const room = Math.max(4, width - labelWidth);

  if (s.search) {
    const found = s.search.at >= 0 ? entries()[s.search.at] : undefined;
    const shown = (found ?? '').replace(/\n/g, PASTED_BREAK);
    return (
      <Box>
        <Text wrap="truncate-end">
          <Text color={theme.accent}>search: </Text>
          <Text inverse>{s.search.query || ' '}</Text>
          <Text color={theme.muted}>{found === undefined ? (s.search.query ? '  no earlier prompt holds it' : `  type to search earlier prompts · ${keyLabel('searchOlder')} older · ${keyLabel('searchCancel')} cancels`) : '  '}</Text>
          {found !== undefined ? shown.slice(0, room * 2) : ''}
        </Text>
      </Box>
    );
  }
  if (s.value === '') {
    return (
      <Box>
        {label(true)}
        <Text color={theme.muted} wrap="truncate-end">
          {focus ? <Text inverse> </Text> : null}
          {placeholder ?? ''}
        </Text>
      </Box>
    );
  }
  const { rows, first } = P.promptLayout(s.value, s.cursor, room);
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Box key={first + i}>
          {label(first + i === 0)}
          <Text wrap="truncate-end">
            {focus && r.cursorAt >= 0 ? (
              <>
                {r.text.slice(0, r.cursorAt)}
                <Text inverse>{r.text.slice(r.cursorAt, nextGrapheme(r.text, r.cursorAt)) || ' '}</Text>
                {r.text.slice(nextGrapheme(r.text, r.cursorAt))}
              </>
            ) : (
              r.text || ' '
            )}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
