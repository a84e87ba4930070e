/** A question (elicitation) as a form built from its fields, drawn under the transcript. */
import { Box } from 'ink';
import { useState } from 'react';
import { elicitationAnswer, type ElicitationField, type ElicitationRequest } from '../../../contract/chat.js';
import { pad, sanitize, widthOf } from '../../../text.js';
import { Text } from '../../components/Text.js';
import { TextField } from '../../components/TextField.js';
import { useTui } from '../../context.js';
import { counted } from '../../format.js';
import { useKeys } from '../../hooks/useKeys.js';
import { keyLabel, matches } from '../../keymap.js';
import { theme } from '../../theme.js';
import { type BodyWindow, BodyView } from './PermissionBox.js';

type FieldValue = string | boolean;

/** A question as a form: text and number fields typed, choices cycled with space or ←→, booleans toggled. */
export function QuestionForm({ request, body, onAnswer }: { request: ElicitationRequest; body: BodyWindow; onAnswer: (content: string, note: string) => void }) {
  const { active } = useTui();
  const fields = request.fields;
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.type === 'boolean' ? false : f.type === 'choice' ? (f.options?.[0] ?? '') : ''])),
  );
  const [focus, setFocus] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const field = fields[focus];

  const submit = () => {
    const content: Record<string, string | number | boolean> = {};
    for (const f of fields) {
      const v = values[f.name];
      if (f.type === 'number') {
        if (v === '' && !f.required) continue;
        const n = Number(v);
        if (!Number.isFinite(n)) return setError(`${labelOf(f)} must be a number`);
        content[f.name] = n;
      } else if (typeof v === 'string' && v === '' && f.required) return setError(`${labelOf(f)} is required`);
      else if (v !== undefined) content[f.name] = v;
    }
    onAnswer(elicitationAnswer({ action: 'accept', content }), `→ answered ${counted(Object.keys(content).length, 'field')}`);
  };

  useKeys((input, key) => {
    const count = Math.max(1, fields.length);
    if (matches('questionNext', input, key)) return setFocus((f) => (f + 1) % count);
    if (matches('questionPrev', input, key)) return setFocus((f) => (f + count - 1) % count);
    if (matches('questionSubmit', input, key)) return submit();
    if (matches('questionDecline', input, key)) return onAnswer(elicitationAnswer({ action: 'decline' }), '✖ declined the question');
    if (!field) {
      if (matches('questionEnter', input, key)) submit();
      return;
    }
    // Enter moves on (answers on the last field) on every kind of field, as the hint says; a
    // choice turns with space and the arrows (the keymap's toggle also takes enter elsewhere).
    if (matches('questionEnter', input, key)) return focus === fields.length - 1 ? submit() : setFocus(focus + 1);
    if (field.type === 'choice' && field.options?.length) {
      const opts = field.options;
      const i = opts.indexOf(String(values[field.name]));
      const step = matches('choicePrev', input, key) ? -1 : matches('choiceNext', input, key) || matches('toggle', input, key) ? 1 : 0;
      if (step) return setValues({ ...values, [field.name]: opts[(i + step + opts.length) % opts.length]! });
    }
    if (field.type === 'boolean' && (matches('toggle', input, key) || matches('choicePrev', input, key) || matches('choiceNext', input, key))) {
      return setValues({ ...values, [field.name]: !values[field.name] });
    }
  }, active);

  // One label column for every kind of field (the marker, the longest label and a space, 24 at
  // most): a choice's value started where its label ended, out of line with the text fields'.
  const labelWidth = Math.min(24, Math.max(8, ...fields.map((f) => widthOf(labelOf(f)))) + 3);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <BodyView body={body} color={theme.warning} />
      {fields.map((f, i) =>
        f.type === 'choice' || f.type === 'boolean' ? (
          <Text key={f.name} wrap="truncate-end">
            <Text color={i === focus ? theme.accent : undefined} bold={i === focus}>
              {pad(`${i === focus ? '› ' : '  '}${labelOf(f)}`, labelWidth)}
            </Text>
            {f.type === 'boolean'
              ? values[f.name] ? '[x] yes' : '[ ] no'
              : (f.options ?? []).map((o) => (o === values[f.name] ? `[${sanitize(o)}]` : sanitize(o))).join('  ')}
            {i === focus ? <Text color={theme.muted}> ({keyLabel('toggle')} / {keyLabel('choicePrev')})</Text> : null}
          </Text>
        ) : (
          <TextField
            key={f.name}
            label={labelOf(f)}
            labelWidth={labelWidth}
            value={String(values[f.name] ?? '')}
            onChange={(v) => {
              setValues({ ...values, [f.name]: v });
              setError(null);
            }}
            focused={active && i === focus}
            note={f.type === 'number' ? 'a number' : f.required ? 'required' : null}
          />
        ),
      )}
      {/* The last line is the hint, or the error in its place: the form's height never changes. */}
      {error ? (
        <Text color={theme.error} wrap="truncate-end">
          ✖ {error}
        </Text>
      ) : (
        <Text color={theme.muted} wrap="truncate-end">
          {keyLabel('questionNext')} next · {keyLabel('questionEnter')} on the last field or {keyLabel('questionSubmit')} answers · {keyLabel('questionDecline')} declines · {keyLabel('chatCancel')} cancels
        </Text>
      )}
    </Box>
  );
}

function labelOf(f: ElicitationField): string {
  const loose = f as ElicitationField & { title?: string; label?: string };
  return sanitize(loose.title ?? loose.label ?? f.name);
}
