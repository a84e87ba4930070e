/**
 * A text field with a cursor: single-line or multi-line, optionally masked (a
 * masked field never draws what was typed). It handles its own keys while
 * focused; tab, escape and ctrl combos are left to the form.
 */
import { Box, measureElement, useStdout, type DOMElement } from 'ink';
import { Text } from './Text.js';
import { useLayoutEffect, useRef, useState } from 'react';
import { useKeys } from '../hooks/useKeys.js';
import { pastedText } from '../keyParse.js';
import { isTyped, keyLabel, matches } from '../keymap.js';
import { theme } from '../theme.js';
import { counted } from '../format.js';
import { sanitize, widthOf } from '../../text.js';
import { wrapText } from '../wrap.js';

/** The width a single-line value keeps beside its message on a narrow terminal (less if it is shorter). */
const VALUE_MIN = 20;
/** The width a note keeps before the value gives up any (less if it is shorter): `57/2000` whole. */
const NOTE_KEEP = 12;

/** A part of a field's row: the cells it would take, and the cells it keeps before the other part gives up any. */
export interface FieldPart {
  want: number;
  keep: number;
}

/**
 * Whole cells for a field's value and its message in `avail` (the row less the label); never more
 * than `avail` between them, so the row cannot run past the terminal's edge. (Ink's flex layout
 * shares a shortfall in fractions and rounds each box on its own: a row came out a cell wider
 * than the terminal, which wrapped it and pushed the top line off the screen.) When both do not
 * fit, the part that `yields` gives up width first, down to what it keeps, then the other; a
 * message that cannot keep its `keep` gets 0 (a note is left out, an error goes below).
 */
export function fieldWidths(avail: number, value: FieldPart, message: FieldPart | null, yields: 'message' | 'value'): { value: number; message: number } {
  const room = Math.max(0, avail);
  const alone = Math.min(value.want, room);
  if (!message) return { value: alone, message: 0 };
  if (value.want + message.want <= room) return { value: value.want, message: message.want };
  const valueKeeps = Math.min(value.keep, room);
  const m = yields === 'message' ? Math.min(Math.max(message.keep, room - value.want), room - valueKeeps) : Math.min(message.want, room - valueKeeps);
  return m > 0 && m >= message.keep ? { value: room - m, message: m } : { value: alone, message: 0 };
}

/**
 * How a field's row shares `avail` cells (the row less its label) between the value and its
 * message (an error or a note), in a terminal `room` cells wide; and the error as drawn
 * (`said`). One computation for the field as drawn and for the count of its rows.
 */
function rowParts(props: TextFieldProps, avail: number, room: number): { said: string | null; messageText: string | null; info: string; shown: string; placeholder: string; widths: { value: number; message: number } } {
  const { value, focused, multiline = false, masked = false } = props;
  // The error as the terminal gets it (sanitised once, here, for both its places and their widths).
  const said = props.error ? `✖ ${sanitize(props.error)}` : null;
  const messageText = said ? ` ${said}` : props.note ? ` ${sanitize(props.note)}` : null;
  const messageWant = messageText === null ? 0 : widthOf(messageText);
  const messagePart = messageText === null ? null : { want: messageWant, keep: props.error ? messageWant : Math.min(messageWant, NOTE_KEEP) };
  if (multiline) {
    const lines = value.split('\n');
    const info = `${counted(lines.length, 'line')}, ${counted(value.length, 'char')}${focused ? ` · ${keyLabel('newline')}: new line · ${keyLabel('editor')}: $EDITOR` : ''}`;
    const widths = fieldWidths(avail, { want: info.length, keep: Math.min(info.length, VALUE_MIN) }, messagePart, props.error ? 'value' : 'message');
    return { said, messageText, info, shown: '', placeholder: '', widths };
  }
  const points = masked ? [...value].length : 0;
  // A line break in a one-line field's value (a pasted line kept, or a description the service
  // holds with one) is drawn as one cell, ⏎: drawn as it is, it took a second row the form did not
  // count. A CR is a space, as sanitize makes it; one cell each keeps the cursor over its character.
  const shown = masked ? '•'.repeat(Math.min(points, 40)) + (points > 40 ? '…' : '') : value.replace(/\n/g, PASTED_BREAK).replace(/\r/g, ' ');
  // A short value is never cut for a note; a long one can give up width down to VALUE_MIN. A
  // placeholder is only a hint: it gives way (cut) to the message, down to the cursor.
  const placeholder = value.length === 0 && props.placeholder ? props.placeholder : '';
  const cursorCell = focused ? 1 : 0;
  const valueWant = (placeholder ? widthOf(placeholder) : widthOf(shown.slice(tailStart(shown, room)))) + cursorCell;
  const widths = fieldWidths(
    avail,
    { want: valueWant, keep: placeholder ? cursorCell : props.error ? valueWant : Math.min(valueWant, VALUE_MIN) },
    messagePart,
    placeholder || props.error ? 'value' : 'message',
  );
  return { said, messageText, info: '', shown, placeholder, widths };
}

/** Where an error that goes below the row starts: under the value where that leaves room to read it, else near the row's start. */
const belowMargin = (avail: number, labelWidth: number) => (avail >= 30 ? labelWidth : 2);

/** An error below the row, wrapped to the row's width, its lines after the first under its words. */
const belowLines = (said: string, rowWidth: number, margin: number) => wrapText(said, Math.max(10, rowWidth - margin), '  ', '');

/**
 * The rows a field takes in a row `rowWidth` cells wide, as a form counts them (FieldWindow): its
 * row, a multi-line field's box (its lines, `height` at most, and its rules), and an error's lines
 * when it goes under the row (beside the value it takes none).
 */
export function textFieldRows(props: TextFieldProps, rowWidth: number): number {
  const labelWidth = props.labelWidth ?? 15;
  const avail = rowWidth - labelWidth;
  const { said, widths } = rowParts(props, avail, Math.max(rowWidth, VALUE_MIN));
  const below = said && widths.message === 0 ? belowLines(said, rowWidth, belowMargin(avail, labelWidth)).length : 0;
  // A multi-line field's box holds its lines, one at least (the placeholder), `height` at most.
  const boxLines = Math.max(1, Math.min(props.height ?? 5, props.value.split('\n').length));
  return 1 + (props.multiline ? boxLines + 2 : 0) + below;
}

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
  /** Visible lines of a multi-line field. */
  height?: number;
  labelWidth?: number;
  /** Enter in a single-line field (ink-text-input's `onSubmit`). */
  onSubmit?: (value: string) => void;
  /**
   * A single-line field that keeps the line breaks of a bracketed paste (the chat prompt: pasted code
   * or a log keeps its lines) and shows each as ⏎; typed, enter still submits. Other fields join a
   * pasted text's lines with spaces.
   */
  keepPastedLines?: boolean;
}

/**
 * Text as a field takes it, typed, pasted or written in $EDITOR: line endings as line feeds, a tab
 * as a space, line breaks as spaces unless the field keeps lines, no other control character.
 */
export function fieldText(text: string, keepLines: boolean): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ');
  return (keepLines ? lines : lines.replace(/\n/g, ' ')).replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');
}

/** How a line break in a single-line field's value is drawn: one cell, visibly not a space. */
export const PASTED_BREAK = '⏎';

export function TextField(props: TextFieldProps) {
  const { value, onChange, focused, multiline = false, masked = false } = props;
  const [rawCursor, setCursor] = useState(value.length);
  // Clamped where it is read, not by an effect: an effect would run after the next key and undo it;
  // and on a grapheme's start, should the value have changed under it.
  // A masked field's cursor is pinned to the end: an invisible cursor cannot be moved by sight.
  // A value set from outside (the form's $EDITOR, a pick, a reset) puts the cursor at its end, where
  // typing goes on, as after a paste: it was left where it stood in the old text.
  const [ownValue, setOwnValue] = useState(value);
  if (value !== ownValue) {
    setOwnValue(value);
    setCursor(value.length);
  }
  /** A change of the field's own (a key): its cursor is set with it. */
  const change = (next: string) => {
    setOwnValue(next);
    onChange(next);
  };
  const cursor = masked ? value.length : graphemeStart(value, Math.min(rawCursor, value.length));
  // Typed without bracketed paste (a script, a terminal without it), a CR LF line ending comes as two
  // keys: enter, then a line feed, which is typed text. Both are one line break.
  const afterEnter = useRef(false);
  // Ink measures and cuts all the text it is given on every frame, so a field hands it only what a
  // line of the terminal can show: typing into a long value cost more with every key it had.
  const columns = useStdout().stdout.columns || 80;
  const room = Math.max(columns, VALUE_MIN);
  // The row's own width, read after each layout (a field sits in a border, a padded panel, a
  // palette); until the first, the terminal's. After every render, since any may move it; the state
  // changes only with the width, so the render it brings measures the same and stops there.
  const row = useRef<DOMElement>(null);
  const [measured, setMeasured] = useState<{ width: number; columns: number } | null>(null);
  const rowWidth = measured?.width ?? null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately after every layout (see above)
  useLayoutEffect(() => {
    if (!row.current) return;
    const width = Math.floor(measureElement(row.current).width);
    setMeasured((was) => (was?.width === width && was.columns === columns ? was : { width, columns }));
  });
  // The row clips only the frames drawn before it was measured at this terminal's width (the first,
  // and the first after a resize); measured, its parts fit it. Clipping for good would undo the
  // pane's clip: Ink clips by the innermost clipping box alone, so a field below the pane's edge
  // was drawn over the footer.
  const clipRow = measured?.columns === columns ? 'visible' : 'hidden';

  useKeys((input, key) => {
    const lineFeedOfEnter = afterEnter.current;
    afterEnter.current = matches(multiline ? 'newline' : 'accept', input, key);
    if (matches('cursorLeft', input, key)) return setCursor(prevGrapheme(value, cursor));
    if (matches('cursorRight', input, key)) return setCursor(nextGrapheme(value, cursor));
    if (masked && (matches('lineStart', input, key) || matches('lineEnd', input, key))) return;
    if (matches('lineStart', input, key)) return setCursor(multiline ? value.lastIndexOf('\n', cursor - 1) + 1 : 0);
    if (matches('lineEnd', input, key)) return setCursor(multiline ? endOfLine(value, cursor) : value.length);
    if (matches('killLine', input, key)) {
      const end = multiline ? endOfLine(value, cursor) : value.length;
      return change(value.slice(0, cursor) + value.slice(end));
    }
    // Readline's ^u and ^w. A hidden value's cursor is at its end, so ^u clears it all: the way to
    // take back a wrong paste without a backspace per character.
    if (matches('killLineStart', input, key)) {
      const start = multiline ? value.lastIndexOf('\n', cursor - 1) + 1 : 0;
      change(value.slice(0, start) + value.slice(cursor));
      return setCursor(start);
    }
    if (matches('killWord', input, key)) {
      const start = wordStart(value, cursor);
      change(value.slice(0, start) + value.slice(cursor));
      return setCursor(start);
    }
    if (multiline && (matches('lineUp', input, key) || matches('lineDown', input, key))) {
      return setCursor(moveVertical(value, cursor, matches('lineUp', input, key) ? -1 : 1));
    }
    // Several backspaces read at once arrive as one unparsed chunk of DEL/BS bytes.
    const erase = matches('erase', input, key) ? 1 : /^[\x7f\b]+$/.test(input) ? input.length : 0;
    if (erase > 0) {
      // By grapheme: an emoji (joined ones and flags too) and a letter with its accents go whole.
      let from = cursor;
      for (let i = 0; i < erase; i++) from = prevGrapheme(value, from);
      if (from === cursor) return;
      change(value.slice(0, from) + value.slice(cursor));
      return setCursor(from);
    }
    if (matches('eraseForward', input, key)) {
      const to = nextGrapheme(value, cursor);
      if (to > cursor) change(value.slice(0, cursor) + value.slice(to));
      return;
    }
    if (!multiline && props.onSubmit && matches('accept', input, key)) return props.onSubmit(value);
    if (multiline && matches('newline', input, key)) {
      change(value.slice(0, cursor) + '\n' + value.slice(cursor));
      return setCursor(cursor + 1);
    }
    // A bracketed paste is text, its line breaks too (never an enter).
    const pasted = pastedText(input);
    // Anything else with a name (tab, esc, arrows, ctrl keys) belongs to the form; only text is typed.
    if (pasted === null && !isTyped(input, key)) return;
    // Pasted text arrives as one chunk: keep newlines only in multi-line fields.
    let text = (pasted ?? input).replace(/\r\n?/g, '\n');
    if (lineFeedOfEnter && pasted === null) text = text.replace(/^\n/, '');
    text = fieldText(text, multiline || Boolean(props.keepPastedLines && pasted !== null));
    if (!text) return;
    change(value.slice(0, cursor) + text + value.slice(cursor));
    setCursor(cursor + text.length);
  }, focused, { text: true });

  const labelWidth = props.labelWidth ?? 15;
  const label = (
    <Box width={labelWidth} flexShrink={0}>
      <Text color={focused ? theme.accent : undefined} bold={focused}>
        {focused ? '› ' : '  '}
        {props.label}
      </Text>
    </Box>
  );
  // Beside the value on a narrow terminal, a note gives up width first (cut); an error is never cut
  // nor the value for it: it goes beside the whole value when it fits whole, else on the lines
  // below, under the value. A placeholder gives way to either.
  const avail = (rowWidth ?? room) - labelWidth;
  const { said, messageText, info, shown, placeholder, widths } = rowParts(props, avail, room);
  const messageBox = (cells: number) =>
    messageText === null || cells === 0 ? null : (
      <Box width={cells} flexShrink={0}>
        <Text color={props.error ? theme.error : theme.muted} wrap="truncate-end">
          {messageText}
        </Text>
      </Box>
    );
  // Under the value where that leaves room to read it, else from the row's start; wrapped here,
  // its lines after the first under its words (Ink's wrap starts a line with the space it broke at).
  const errorBelow = (cells: number) => {
    if (!said || cells > 0) return null;
    const margin = belowMargin(avail, labelWidth);
    // Before the row is measured, Ink wraps it (to the width it lays out, which this cannot know
    // yet), and so it does text whose characters are not one cell each (wrapText counts them).
    if (rowWidth === null || widthOf(said) !== [...said].length) {
      return (
        <Box marginLeft={margin}>
          <Text color={theme.error}>{said}</Text>
        </Box>
      );
    }
    const lines = belowLines(said, rowWidth, margin);
    return (
      <Box marginLeft={margin} flexDirection="column">
        {lines.map((line, i) => (
          <Text key={i} color={theme.error} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </Box>
    );
  };

  if (multiline) {
    const lines = value.split('\n');
    const height = props.height ?? 5;
    const { line: cursorLine, col: cursorCol } = position(lines, cursor);
    const first = Math.max(0, Math.min(cursorLine - height + 1, lines.length - height));
    const visible = lines.slice(first, first + height);
    return (
      <Box flexDirection="column" width="100%">
        <Box ref={row} overflowX={clipRow}>
          {label}
          <Box width={widths.value} flexShrink={0}>
            <Text color={theme.muted} wrap="truncate-end">
              {info}
            </Text>
          </Box>
          {messageBox(widths.message)}
        </Box>
        {errorBelow(widths.message)}
        <Box flexDirection="column" borderStyle="single" borderColor={focused ? theme.accent : theme.muted} paddingX={1}>
          {visible.length === 0 || (visible.length === 1 && visible[0] === '') ? (
            <Text color={theme.muted}>{focused ? <Text inverse> </Text> : null}{props.placeholder ?? ''}</Text>
          ) : (
            visible.map((l, i) => <Line key={first + i} text={l} cursorAt={focused && first + i === cursorLine ? cursorCol : -1} room={room} />)
          )}
        </Box>
      </Box>
    );
  }
  return (
    // The whole width of what holds it (a row, a border, a padded panel), measured as the row's.
    <Box flexDirection="column" width="100%">
      <Box ref={row} overflowX={clipRow}>
        {label}
        <Box width={widths.value} flexShrink={0}>
          {placeholder ? (
            // Empty: the placeholder, dim, after the cursor when focused (what to type goes on showing).
            <Text color={theme.muted} wrap="truncate-end">
              {focused ? <Text inverse> </Text> : null}
              {placeholder}
            </Text>
          ) : (
            <Line text={shown} cursorAt={focused ? (masked ? shown.length : cursor) : -1} room={room} />
          )}
        </Box>
        {messageBox(widths.message)}
      </Box>
      {errorBelow(widths.message)}
    </Box>
  );
}

/**
 * One line of the value; with the cursor, its end is what shows (cut at the start). Ink is given
 * only as much of it as is wider than `room` (the terminal's width), cut at a grapheme boundary:
 * what Ink cuts of that to fit the field, with its ellipsis, is what it made of the whole line.
 */
function Line({ text, cursorAt, room }: { text: string; cursorAt: number; room: number }) {
  if (cursorAt < 0) return <Text wrap="truncate-end">{text.slice(0, headEnd(text, room)) || ' '}</Text>;
  const atEnd = nextGrapheme(text, cursorAt);
  const at = text.slice(cursorAt, atEnd) || ' ';
  // Far from the end, the end cannot show with the cursor in a field narrower than the line: the
  // line shows from a little before the cursor instead (cut at the end), as a shell's line editor
  // scrolls, so the cursor is never cut off.
  if (widthOf(text.slice(atEnd, atEnd + 2 * CURSOR_AFTER)) > CURSOR_AFTER) {
    const start = tailStart(text.slice(0, cursorAt), CURSOR_BEFORE);
    const rest = text.slice(atEnd);
    return (
      <Text wrap="truncate-end">
        {text.slice(start, cursorAt)}
        <Text inverse>{at}</Text>
        {rest.slice(0, headEnd(rest, room))}
      </Text>
    );
  }
  const from = Math.min(tailStart(text, room), cursorAt);
  return (
    <Text wrap="truncate-start">
      {text.slice(from, cursorAt)}
      <Text inverse>{at}</Text>
      {text.slice(atEnd)}
    </Text>
  );
}

/** How much of the line shows after the cursor before the line stops showing its end; and before the cursor, then. */
const CURSOR_AFTER = 20;
const CURSOR_BEFORE = 10;

// Made on first use, as in src/text.ts: creating a segmenter loads ICU's break rules.
let graphemes: Intl.Segmenter | undefined;

const printableAscii = (c: number) => c >= 0x20 && c < 0x7f;

/**
 * Whether `i` is a grapheme boundary whatever the text around it: the ends, after a line feed,
 * before one (but after a CR), and between two printable ASCII characters, which no rule of
 * UAX #29 joins and no rule looks back across.
 */
function hardBoundary(value: string, i: number): boolean {
  if (i <= 0 || i >= value.length) return true;
  const before = value.charCodeAt(i - 1);
  const after = value.charCodeAt(i);
  return before === 0x0a || (after === 0x0a && before !== 0x0d) || (printableAscii(before) && printableAscii(after));
}

/**
 * The grapheme holding the code unit at `i` (0 <= i < length), as [start, end). Only the text
 * between the hard boundaries around it is segmented, so a step in a long text costs what it
 * does in a short one (typed ASCII needs no segmenting at all).
 */
function grapheme(value: string, i: number): [number, number] {
  let from = i;
  while (!hardBoundary(value, from)) from--;
  let to = i + 1;
  while (!hardBoundary(value, to)) to++;
  if (to - from === 1) return [from, to];
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const { index, segment } = graphemes.segment(value.slice(from, to)).containing(i - from)!;
  return [from + index, from + index + segment.length];
}

/** The start of the grapheme `i` falls in (`i` itself on a boundary). */
export function graphemeStart(value: string, i: number): number {
  return i >= value.length ? value.length : grapheme(value, Math.max(0, i))[0];
}

/** Where the grapheme before `i` starts: one step left, or one backspace. */
export function prevGrapheme(value: string, i: number): number {
  return i <= 0 ? 0 : grapheme(value, Math.min(i, value.length) - 1)[0];
}

/** Where the grapheme at `i` ends: one step right. */
export function nextGrapheme(value: string, i: number): number {
  return i >= value.length ? value.length : grapheme(value, i)[1];
}

/** Where a start of `text` wider than `cells` ends, at a grapheme boundary (all of a narrower text); it grows by doubling. */
function headEnd(text: string, cells: number): number {
  for (let units = cells + 1; ; units *= 2) {
    if (units >= text.length) return text.length;
    const end = graphemeStart(text, units);
    if (widthOf(text.slice(0, end)) > cells) return end;
  }
}

/** Where an end of `text` wider than `cells` starts, at a grapheme boundary (0 for a narrower text); it grows by doubling. */
function tailStart(text: string, cells: number): number {
  for (let units = cells + 1; ; units *= 2) {
    if (units >= text.length) return 0;
    const start = graphemeStart(text, text.length - units);
    if (widthOf(text.slice(start)) > cells) return start;
  }
}

function position(lines: string[], cursor: number): { line: number; col: number } {
  let line = 0;
  let start = 0;
  while (line < lines.length - 1 && cursor > start + lines[line]!.length) start += lines[line++]!.length + 1;
  return { line, col: cursor - start };
}

/** Where ^w's word starts: back over spaces, then over what is not a space (readline's unix-word-rubout). */
export function wordStart(value: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(value[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(value[i - 1]!)) i--;
  return i;
}

function endOfLine(value: string, cursor: number): number {
  const nl = value.indexOf('\n', cursor);
  return nl === -1 ? value.length : nl;
}

function moveVertical(value: string, cursor: number, dir: -1 | 1): number {
  const lines = value.split('\n');
  const { line, col } = position(lines, cursor);
  const target = line + dir;
  if (target < 0 || target >= lines.length) return cursor;
  let offset = 0;
  for (let i = 0; i < target; i++) offset += lines[i]!.length + 1;
  // The same column in code units may fall inside a grapheme of the other line.
  return graphemeStart(value, offset + Math.min(col, lines[target]!.length));
}
