/** The settings form: validated as you type, sends only what changed, loses nothing on an error. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useMemo, useState } from 'react';
import { ApiError } from '../../client/errors.js';
import { NO_MODEL, type Intern } from '../../contract/intern.js';
import { LIMITS } from '../../contract/limits.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView, StaleNote, errorViewRows } from '../components/ErrorView.js';
import { FieldWindow, windowedTextField, type WindowedField } from '../components/FieldWindow.js';
import { ModelPicker, modelFieldNote } from '../components/ModelPicker.js';
import { Spinner } from '../components/Spinner.js';
import { useTui } from '../context.js';
import { useFieldEditor } from '../hooks/useExternalEditor.js';
import { useForm } from '../hooks/useForm.js';
import { useKeys } from '../hooks/useKeys.js';
import { retryLoadKey, useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { matches, TEXT_FIELD_SCOPES } from '../keymap.js';
import { theme } from '../theme.js';
import {
  SETTINGS_FIELDS,
  SETTINGS_KINDS,
  type SettingsField,
  nameErrorOf,
  patchOf,
  savedNote,
  validateSettings,
  valuesOf,
} from './settingsFormModel.js';

/**
 * `seed`: the intern as the screen that opened the form had it: the form is drawn from it at once,
 * so that keys typed straight after `e` land in it (they were lost while it loaded), and the fresh
 * copy the form still asks for updates the fields nobody has edited yet (useForm).
 */
export function InternSettings({ id, seed }: { id: string; seed?: Intern }) {
  const { api, nav, active, size, pane, options } = useTui();
  const [picking, setPicking] = useState(false);
  const res = useResource((signal) => api.getIntern(id, { signal }), id, seed);
  const [nameTaken, setNameTaken] = useState<string | null>(null);
  const editField = useFieldEditor(SETTINGS_KINDS);
  const initial = useMemo(() => (res.data ? valuesOf(res.data) : null), [res.data]);
  const form = useForm({
    initial,
    fields: SETTINGS_FIELDS,
    validate: validateSettings,
    onLeave: nav.pop,
    onInvalid: () => nav.flash('fix the marked fields first', 'error'),
    onSubmit: async (values, original) => {
      const patch = patchOf(original, values);
      if (Object.keys(patch).length === 0) return nav.flash('nothing changed');
      try {
        await api.updateIntern(id, patch);
      } catch (e) {
        if (e instanceof ApiError && e.reason === 'name_taken') {
          setNameTaken(values.name);
          form.focusField('name');
        }
        throw e;
      }
      nav.returnTo({ name: 'intern', id });
      nav.flash(savedNote(patch, res.data?.status));
    },
  });
  useScreen(
    form.confirmingDiscard
      ? ['confirm']
      : picking
        ? ['chooser', 'text']
        : form.field === 'model'
          ? ['formSave', 'form', 'pickField', 'text']
          : ['formSave', 'form', ...TEXT_FIELD_SCOPES[SETTINGS_KINDS[form.field]]],
    true,
  );
  const { values, original } = form;

  useKeys((input, key) => {
    if (picking) return;
    if (!values) return void retryLoadKey(res, input, key);
    if (form.field === 'model' && matches('openPicker', input, key)) return setPicking(true);
    if (form.handleKey(input, key)) return;
    if (matches('editor', input, key)) return editField(form.field, (f) => values[f], (f, text) => form.update({ [f]: text }));
  }, active && !form.submitting && !form.confirmingDiscard);

  if (!values || !original) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading settings" />;
  const patch = patchOf(original, values);
  const set = (f: SettingsField) => (v: string) => {
    form.update({ [f]: v });
    if (f === 'name') setNameTaken(null);
  };
  const focused = (f: SettingsField) => active && !form.submitting && !form.confirmingDiscard && !picking && form.field === f;
  const { errors } = form;
  // The instructions take what the pane leaves (its title, three fields, the box's header and
  // rules, the status line), six lines at most. On a pane too short even for one line of them, the
  // fields scroll with the focus (FieldWindow), so the field being edited is always on screen.
  const instructionLines = Math.max(1, Math.min(6, pane.rows - 8));
  const nameError = nameErrorOf(errors, values.name, nameTaken, res.data?.created_by_you !== false);
  const fields: WindowedField[] = [
    windowedTextField('name', { label: 'name', value: values.name, onChange: set('name'), focused: focused('name'), error: nameError, note: `${LIMITS.name.min}-${LIMITS.name.max} chars, a-z 0-9 -` }, pane.columns),
    windowedTextField('description', { label: 'description', value: values.description, onChange: set('description'), focused: focused('description'), error: errors.description, note: `${values.description.length}/${LIMITS.description.max}`, placeholder: 'none' }, pane.columns),
    windowedTextField(
      'model',
      { label: 'model', value: values.model, onChange: set('model'), focused: focused('model'), error: errors.model, note: modelFieldNote(values.model), placeholder: NO_MODEL },
      pane.columns,
    ),
    windowedTextField(
      'instructions',
      { label: 'instructions', value: values.instructions, onChange: set('instructions'), focused: focused('instructions'), error: errors.instructions, multiline: true, height: instructionLines, placeholder: 'none' },
      pane.columns,
    ),
  ];
  // The title and the status line, and whatever shows below the fields.
  const around = 2 + (form.submitting ? 1 : 0) + (form.serverError ? errorViewRows(form.serverError, pane.columns, pane.rows, options.refusedFix) : 0) + (form.confirmingDiscard ? 1 : 0);
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold>
        Settings of {original.name} {form.dirty ? <Text color={theme.warning}>· unsaved changes</Text> : null}
      </Text>
      {/* While the model picker is open, it stands where the instructions were. */}
      <FieldWindow fields={picking ? fields.slice(0, 3) : fields} focus={SETTINGS_FIELDS.indexOf(form.field)} room={picking ? Infinity : pane.rows - around} />
      {picking ? (
        <ModelPicker value={values.model} height={Math.max(3, size.rows - 13)} width={size.columns - 4} onClose={() => setPicking(false)} onPick={set('model')} />
      ) : null}
      {form.submitting ? <Spinner label="Saving" /> : null}
      {form.serverError ? <ErrorView error={form.serverError} retry="save" /> : null}
      {/* Drawn from what the previous screen had: a fresh copy that could not be read is said. */}
      {res.error && !form.serverError ? <StaleNote error={res.error} /> : null}
      <Confirm open={form.confirmingDiscard} question="Discard your changes?" onAnswer={form.answerDiscard} active={active} />
      <Text color={theme.muted}>
        {form.dirty ? `will send: ${Object.keys(patch).join(', ')}` : 'no changes yet'}
      </Text>
    </Box>
  );
}
