/**
 * A text field with a cursor: single-line or multi-line, optionally masked (a
 * masked field never draws what was typed). It handles its own keys while
 * focused; tab, escape and ctrl combos are left to the form.
 */
import { Box } from 'ink';
import { Text } from './Text.js';
import { useState } from 'react';
import { useKeys } from '../hooks/useKeys.js';
import { pastedText } from '../keyParse.js';
import { isTyped, matches } from '../keymap.js';
import { theme } from '../theme.js';
import { widthOf } from '../sanitize.js';

/** The width a single-line value keeps beside its message on a narrow terminal (less if it is shorter). */
const VALUE_MIN = 20;

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  focused: boolean;
  multiline?: boolean;
  masked?: boolean;
  placeholder?: string;
  error?: string | null;
  note?: string | null;
  width?: number;
  /** Visible lines of a multi-line field. */
  height?: number;
  labelWidth?: number;
  /** Enter in a single-line field (ink-text-input's `onSubmit`). */
  onSubmit?: (value: string) => void;
}

export function TextField(props: TextFieldProps) {
  const { value, onChange, focused, multiline = false, masked = false } = props;
  const [rawCursor, setCursor] = useState(value.length);
  // Clamped where it is read, not by an effect: an effect would run after the next key and undo it.
  // A masked field's cursor is pinned to the end: an invisible cursor cannot be moved by sight.
  const cursor = masked ? value.length : Math.min(rawCursor, value.length);

  useKeys((input, key) => {
    if (matches('cursorLeft', input, key)) return setCursor(prevPoint(value, cursor));
    if (matches('cursorRight', input, key)) return setCursor(nextPoint(value, cursor));
    if (masked && (matches('lineStart', input, key) || matches('lineEnd', input, key))) return;
    if (matches('lineStart', input, key)) return setCursor(multiline ? value.lastIndexOf('\n', cursor - 1) + 1 : 0);
    if (matches('lineEnd', input, key)) return setCursor(multiline ? endOfLine(value, cursor) : value.length);
    if (matches('killLine', input, key)) {
      const end = multiline ? endOfLine(value, cursor) : value.length;
      return onChange(value.slice(0, cursor) + value.slice(end));
    }
    if (multiline && (matches('lineUp', input, key) || matches('lineDown', input, key))) {
      return setCursor(moveVertical(value, cursor, matches('lineUp', input, key) ? -1 : 1));
    }
    // Several backspaces read at once arrive as one unparsed chunk of DEL/BS bytes.
    const erase = matches('erase', input, key) ? 1 : /^[\x7f\b]+$/.test(input) ? input.length : 0;
    if (erase > 0) {
      // By code point: an emoji goes whole.
      let from = cursor;
      for (let i = 0; i < erase; i++) from = prevPoint(value, from);
      if (from === cursor) return;
      onChange(value.slice(0, from) + value.slice(cursor));
      return setCursor(from);
    }
    if (!multiline && props.onSubmit && matches('accept', input, key)) return props.onSubmit(value);
    if (multiline && matches('newline', input, key)) {
      onChange(value.slice(0, cursor) + '\n' + value.slice(cursor));
      return setCursor(cursor + 1);
    }
    // A bracketed paste is text, its line breaks too (never an enter).
    const pasted = pastedText(input);
    // Anything else with a name (tab, esc, arrows, ctrl keys) belongs to the form; only text is typed.
    if (pasted === null && !isTyped(input, key)) return;
    // Pasted text arrives as one chunk: keep newlines only in multi-line fields.
    let text = (pasted ?? input).replace(/\r\n?/g, '\n');
    if (!multiline) text = text.replace(/\n/g, ' ');
    text = text.replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');
    if (!text) return;
    onChange(value.slice(0, cursor) + text + value.slice(cursor));
    setCursor(cursor + text.length);
  }, focused, { text: true });

  const points = [...value].length;
  const shown = masked ? '•'.repeat(Math.min(points, 40)) + (points > 40 ? '…' : '') : value;
  const labelWidth = props.labelWidth ?? 15;
  const label = (
    <Box width={labelWidth} flexShrink={0}>
      <Text color={focused ? theme.accent : undefined} bold={focused}>
        {focused ? '› ' : '  '}
        {props.label}
      </Text>
    </Box>
  );
  // Beside the value on a narrow terminal, a note gives up width first (cut), an error only what
  // the value cannot (it wraps, to be read whole); a placeholder gives way to either.
  const message = props.error ? (
    <Box flexShrink={1}>
      <Text color={theme.error}>{` ✖ ${props.error}`}</Text>
    </Box>
  ) : props.note ? (
    <Box flexShrink={4}>
      <Text color={theme.muted} wrap="truncate-end">{` ${props.note}`}</Text>
    </Box>
  ) : null;

  if (multiline) {
    const lines = value.split('\n');
    const height = props.height ?? 5;
    const { line: cursorLine } = position(value, cursor);
    const first = Math.max(0, Math.min(cursorLine - height + 1, lines.length - height));
    const visible = lines.slice(first, first + height);
    return (
      <Box flexDirection="column">
        <Box>
          {label}
          <Text color={theme.muted}>
            {lines.length} line{lines.length === 1 ? '' : 's'}, {value.length} chars{focused ? ' · enter: new line · ^e: $EDITOR' : ''}
          </Text>
          {message}
        </Box>
        <Box flexDirection="column" borderStyle="single" borderColor={focused ? theme.accent : theme.muted} paddingX={1}>
          {visible.length === 0 || (visible.length === 1 && visible[0] === '') ? (
            <Text color={theme.muted}>{focused ? <Text inverse> </Text> : null}{props.placeholder ?? ''}</Text>
          ) : (
            visible.map((l, i) => <Line key={first + i} text={l} cursorAt={focused && first + i === cursorLine ? position(value, cursor).col : -1} />)
          )}
        </Box>
      </Box>
    );
  }
  // A short value is never cut for its message; a long one can give up width down to VALUE_MIN.
  // A placeholder is only a hint: it gives way (cut) to the message.
  const valueMin = Math.min(widthOf(shown) + (focused ? 1 : 0), VALUE_MIN);
  const placeholder = value.length === 0 && props.placeholder;
  return (
    <Box>
      {label}
      <Box flexShrink={placeholder ? 100 : 1} minWidth={valueMin}>
        {placeholder ? (
          // Empty: the placeholder, dim, after the cursor when focused (what to type goes on showing).
          <Text color={theme.muted} wrap="truncate-end">
            {focused ? <Text inverse> </Text> : null}
            {placeholder}
          </Text>
        ) : (
          <Line text={shown} cursorAt={focused ? (masked ? shown.length : cursor) : -1} />
        )}
      </Box>
      {message}
    </Box>
  );
}

function Line({ text, cursorAt }: { text: string; cursorAt: number }) {
  if (cursorAt < 0) return <Text wrap="truncate-end">{text || ' '}</Text>;
  const before = text.slice(0, cursorAt);
  const atEnd = nextPoint(text, cursorAt);
  const at = text.slice(cursorAt, atEnd) || ' ';
  const after = text.slice(atEnd);
  return (
    <Text wrap="truncate-start">
      {before}
      <Text inverse>{at}</Text>
      {after}
    </Text>
  );
}

/** The index of the code point before `i` (a surrogate pair is one step). */
export function prevPoint(value: string, i: number): number {
  if (i <= 0) return 0;
  const low = value.charCodeAt(i - 1);
  const high = value.charCodeAt(i - 2);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? i - 2 : i - 1;
}

/** The index of the code point after `i`. */
export function nextPoint(value: string, i: number): number {
  if (i >= value.length) return value.length;
  const cp = value.codePointAt(i)!;
  return i + (cp > 0xffff ? 2 : 1);
}

function position(value: string, cursor: number): { line: number; col: number } {
  const before = value.slice(0, cursor).split('\n');
  return { line: before.length - 1, col: before[before.length - 1]!.length };
}

function endOfLine(value: string, cursor: number): number {
  const nl = value.indexOf('\n', cursor);
  return nl === -1 ? value.length : nl;
}

function moveVertical(value: string, cursor: number, dir: -1 | 1): number {
  const lines = value.split('\n');
  const { line, col } = position(value, cursor);
  const target = line + dir;
  if (target < 0 || target >= lines.length) return cursor;
  let offset = 0;
  for (let i = 0; i < target; i++) offset += lines[i]!.length + 1;
  return offset + Math.min(col, lines[target]!.length);
}
