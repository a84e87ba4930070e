/**
 * A form's fields on a pane too short for all of them: the focused field and as many of its
 * neighbours as fit, with a line saying how many fields are above and below. Every form that
 * can outgrow its pane draws its fields through this, so each one scrolls the same way.
 */
import { Fragment, type ReactNode } from 'react';
import { Text } from './Text.js';
import { TextField, textFieldRows, type TextFieldProps } from './TextField.js';
import { theme } from '../theme.js';
import { counted } from '../format.js';

export interface WindowedField {
  key: string;
  /** The rows the field takes as drawn. */
  rows: number;
  node: ReactNode;
}

/** A text field for the window: drawn from its props, its rows counted from the same props in a row `rowWidth` cells wide. */
export function windowedTextField(key: string, props: TextFieldProps, rowWidth: number): WindowedField {
  return { key, rows: textFieldRows(props, rowWidth), node: <TextField {...props} /> };
}

/**
 * The fields to draw, [from, to): all of them when they fit in `room` rows; otherwise the focused
 * one, then its neighbours one at a time (the next field first, then the one before), as long as
 * they and the lines saying how many are left out above and below still fit. The focused field
 * is always drawn, even alone on a pane too short for it.
 */
export function fieldWindow(rows: number[], focus: number, room: number): [number, number] {
  const n = rows.length;
  if (n === 0) return [0, 0];
  if (windowRows(rows, 0, n) <= room) return [0, n];
  const at = Math.min(Math.max(0, focus), n - 1);
  const fits = (from: number, to: number) => windowRows(rows, from, to) <= room;
  let from = at;
  let to = at + 1;
  for (let grew = true; grew; ) {
    grew = false;
    if (to < n && fits(from, to + 1)) {
      to++;
      grew = true;
    }
    if (from > 0 && fits(from - 1, to)) {
      from--;
      grew = true;
    }
  }
  return [from, to];
}

/** The rows the fields [from, to) take, with a line for each side that leaves fields out. */
function windowRows(rows: number[], from: number, to: number): number {
  return rows.slice(from, to).reduce((a, b) => a + b, 0) + (from > 0 ? 1 : 0) + (to < rows.length ? 1 : 0);
}

const fieldsWord = (n: number) => counted(n, 'more field');

/** Draws `fields` in `room` rows around the focused one (see fieldWindow). */
export function FieldWindow({ fields, focus, room }: { fields: WindowedField[]; focus: number; room: number }) {
  const rows = fields.map((f) => f.rows);
  const [from, to] = fieldWindow(rows, focus, room);
  // A focused field that fills the pane alone is drawn without the lines about the others.
  const counted = windowRows(rows, from, to) <= room;
  return (
    <>
      {counted && from > 0 ? <Text color={theme.muted}>  ↑ {fieldsWord(from)}</Text> : null}
      {fields.slice(from, to).map((f) => (
        <Fragment key={f.key}>{f.node}</Fragment>
      ))}
      {counted && to < fields.length ? <Text color={theme.muted}>  ↓ {fieldsWord(fields.length - to)}</Text> : null}
    </>
  );
}
