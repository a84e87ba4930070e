import { describe, expect, it } from 'vitest';
import { fieldWidths, textFieldRows } from '../../../src/tui/components/TextField.js';

describe('fieldWidths', () => {
  it('gives both what they want when they fit', () => {
    expect(fieldWidths(80, { want: 30, keep: 20 }, { want: 10, keep: 10 }, 'message')).toEqual({ value: 30, message: 10 });
    expect(fieldWidths(80, { want: 30, keep: 20 }, null, 'message')).toEqual({ value: 30, message: 0 });
  });

  it('cuts a long note first, down to what it keeps, then the value, down to what it keeps', () => {
    // The model field at 79 columns: the note gives up one cell.
    expect(fieldWidths(64, { want: 26, keep: 20 }, { want: 39, keep: 12 }, 'message')).toEqual({ value: 26, message: 38 });
    // A short note keeps its whole width; the value gives up the difference.
    expect(fieldWidths(64, { want: 58, keep: 20 }, { want: 8, keep: 8 }, 'message')).toEqual({ value: 56, message: 8 });
    // A long value: the note keeps 12, the value the rest.
    expect(fieldWidths(50, { want: 400, keep: 20 }, { want: 39, keep: 12 }, 'message')).toEqual({ value: 38, message: 12 });
  });

  it('leaves a note out when it cannot keep its cells beside the value', () => {
    expect(fieldWidths(25, { want: 58, keep: 20 }, { want: 8, keep: 8 }, 'message')).toEqual({ value: 25, message: 0 });
  });

  it('gives a message the value yields to what the value can spare, and none when too little is left', () => {
    expect(fieldWidths(60, { want: 30, keep: 20 }, { want: 70, keep: 16 }, 'value')).toEqual({ value: 20, message: 40 });
    expect(fieldWidths(30, { want: 30, keep: 20 }, { want: 70, keep: 16 }, 'value')).toEqual({ value: 30, message: 0 });
    // TextField's errors: whole beside the whole value, or not beside it at all.
    expect(fieldWidths(60, { want: 30, keep: 30 }, { want: 30, keep: 30 }, 'value')).toEqual({ value: 30, message: 30 });
    expect(fieldWidths(60, { want: 30, keep: 30 }, { want: 31, keep: 31 }, 'value')).toEqual({ value: 30, message: 0 });
  });

  it('lets a placeholder give way down to the cursor', () => {
    expect(fieldWidths(30, { want: 18, keep: 1 }, { want: 40, keep: 12 }, 'value')).toEqual({ value: 1, message: 29 });
  });

  it('never hands out more than the room, nor a negative width', () => {
    for (let avail = -5; avail <= 120; avail++) {
      for (const yields of ['message', 'value'] as const) {
        for (const [vw, vk, mw, mk] of [[58, 20, 8, 8], [400, 20, 39, 12], [18, 1, 40, 12], [7, 7, 61, 12], [30, 20, 70, 16], [0, 0, 5, 5]]) {
          const w = fieldWidths(avail, { want: vw!, keep: vk! }, { want: mw!, keep: mk! }, yields);
          expect(w.value + w.message).toBeLessThanOrEqual(Math.max(0, avail));
          expect(Math.min(w.value, w.message)).toBeGreaterThanOrEqual(0);
          expect(w.value).toBeLessThanOrEqual(vw!);
          expect(w.message).toBeLessThanOrEqual(mw!);
        }
      }
    }
  });
});

describe('textFieldRows', () => {
  const field = { label: 'models', value: 'bad model, another bad one', onChange: () => {}, focused: true, labelWidth: 19 };
  const error = '"bad model" (and 1 more) must look like author/slug (letters, digits and ~ . _ : @ + -), with an optional :variant';

  it('counts one row for a field whose error or note fits beside its value', () => {
    expect(textFieldRows({ ...field }, 60)).toBe(1);
    expect(textFieldRows({ ...field, note: 'a note that is cut rather than wrapped, however long it is' }, 60)).toBe(1);
    expect(textFieldRows({ ...field, error: 'too short' }, 60)).toBe(1);
  });

  it('counts the lines of an error that goes below the value, wrapped to the row', () => {
    // At 60 columns the error wraps under the value to three lines (as the BYOK form draws it).
    expect(textFieldRows({ ...field, error }, 60)).toBe(4);
    // Wider, fewer; wide enough, beside the value.
    expect(textFieldRows({ ...field, error }, 100)).toBe(3);
    expect(textFieldRows({ ...field, error }, 200)).toBe(1);
  });

  it("adds a multi-line field's box: its lines (one at least, the height at most) and two rules", () => {
    expect(textFieldRows({ ...field, value: '', multiline: true, height: 4 }, 80)).toBe(4);
    expect(textFieldRows({ ...field, value: 'a\nb', multiline: true, height: 4 }, 80)).toBe(5);
    expect(textFieldRows({ ...field, value: 'a\nb\nc\nd\ne\nf', multiline: true, height: 4 }, 80)).toBe(7);
  });
});
