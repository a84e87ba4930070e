/** The settings form: validated as you type, sends only what changed, loses nothing on an error. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { ApiError } from '../../client/errors.js';
import { type Model, perMillion } from '../../contract/catalog.js';
import type { Intern, InternUpdate } from '../../contract/intern.js';
import { LIMITS } from '../../contract/limits.js';
import { checkDescription, checkInstructions, checkModel, checkName } from '../../contract/rules.js';
import { ErrorView } from '../components/ErrorView.js';
import { Picker, type PickerItem } from '../components/Picker.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useExternalEditor } from '../hooks/useExternalEditor.js';
import { useKeys } from '../hooks/useKeys.js';
import { useResource } from '../hooks/useResource.js';
import { matches } from '../keymap.js';
import { sanitize } from '../sanitize.js';
import { theme } from '../theme.js';

type FieldName = 'name' | 'description' | 'model' | 'instructions';
const FIELDS: FieldName[] = ['name', 'description', 'model', 'instructions'];
const LONG: FieldName[] = ['description', 'instructions'];
type Values = Record<FieldName, string>;

export function valuesOf(intern: Intern): Values {
  return {
    name: sanitize(intern.name),
    description: sanitize(intern.description, { multiline: true }),
    model: sanitize(intern.model),
    instructions: sanitize(intern.instructions, { multiline: true }),
  };
}

/** Only changed fields; an emptied nullable field is null (model: back to the workspace default). */
export function patchOf(original: Values, current: Values): InternUpdate {
  const patch: InternUpdate = {};
  if (current.name !== original.name) patch.name = current.name;
  for (const f of ['description', 'model', 'instructions'] as const) {
    if (current[f] !== original[f]) patch[f] = current[f] === '' ? null : current[f];
  }
  return patch;
}

export function validate(v: Values): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {};
  const put = (f: FieldName, e: string | null) => {
    if (e) errors[f] = e;
  };
  put('name', checkName(v.name));
  put('description', checkDescription(v.description === '' ? null : v.description));
  put('model', checkModel(v.model === '' ? null : v.model));
  put('instructions', checkInstructions(v.instructions === '' ? null : v.instructions));
  return errors;
}

/** The model picker's rows: "workspace default" (null) first, then the catalogue with context and prices. */
export function modelItems(models: Model[]): PickerItem[] {
  return [
    { value: null, label: 'workspace default', detail: 'no model of its own (null)' },
    ...models.map((m) => ({
      value: m.id,
      label: m.id,
      detail: `${m.context_length ? `${Math.round(m.context_length / 1000)}k ctx` : '? ctx'} · ${perMillion(m.pricing.prompt)}/${perMillion(m.pricing.completion)} per M · ${m.name}`,
      search: m.name,
    })),
  ];
}

export function InternSettings({ id }: { id: string }) {
  const { api, nav, active, setCapture, setScopes, size } = useTui();
  const [picking, setPicking] = useState(false);
  const [models, setModels] = useState<Model[] | null>(null);
  const [modelsError, setModelsError] = useState<string | null>(null);
  const res = useResource((signal) => api.getIntern(id, { signal }), id);
  const [original, setOriginal] = useState<Values | null>(null);
  const [values, setValues] = useState<Values | null>(null);
  const [focus, setFocus] = useState(0);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<unknown>(undefined);
  const [nameTaken, setNameTaken] = useState<string | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const edit = useExternalEditor();

  useEffect(() => {
    if (res.data && !values) {
      setOriginal(valuesOf(res.data));
      setValues(valuesOf(res.data));
    }
  }, [res.data, values]);
  // The catalogue is read when the picker first opens; without it the field still takes a typed slug.
  useEffect(() => {
    if (!picking || models) return;
    const ctl = new AbortController();
    api.listModels({ signal: ctl.signal }).then(setModels, (e: unknown) => {
      if (ctl.signal.aborted) return;
      setModels([]);
      setModelsError(`the model catalogue is unavailable (${sanitize((e as Error).message)}): type a slug`);
    });
    return () => ctl.abort();
  }, [picking, models, api]);
  useLayoutEffect(() => {
    setCapture(true);
    return () => setCapture(false);
  }, [setCapture]);

  const errors = useMemo(() => (values ? validate(values) : {}), [values]);
  const patch = values && original ? patchOf(original, values) : {};
  const dirty = Object.keys(patch).length > 0;
  const field = FIELDS[focus]!;
  useLayoutEffect(() => setScopes(confirmDiscard ? ['confirm'] : picking ? ['chooser', 'text'] : field === 'model' ? ['form', 'pickField', 'text'] : field === 'instructions' ? ['form', 'text', 'textArea'] : ['form', 'text']), [setScopes, confirmDiscard, picking, field]);

  const save = async () => {
    if (!values || saving) return;
    if (Object.keys(errors).length > 0) {
      setFocus(FIELDS.findIndex((f) => errors[f]));
      return nav.flash('fix the marked fields first', 'error');
    }
    if (!dirty) return nav.flash('nothing changed');
    setSaving(true);
    setServerError(undefined);
    try {
      await api.updateIntern(id, patch);
      const note = patch.model !== undefined ? 'The model change takes effect on the next provision (p).' : undefined;
      nav.returnTo({ name: 'intern', id });
      nav.flash(note ? `saved · ${note}` : 'saved');
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'name_taken') {
        setNameTaken(values.name);
        setFocus(0);
      }
      setServerError(e);
    } finally {
      setSaving(false);
    }
  };

  useKeys((input, key) => {
    if (confirmDiscard) {
      if (matches('yes', input, key)) return nav.pop();
      if (matches('no', input, key)) return setConfirmDiscard(false);
      return;
    }
    if (picking) return;
    if (matches('formCancel', input, key)) return dirty ? setConfirmDiscard(true) : nav.pop();
    if (matches('save', input, key)) return void save();
    if (field === 'model' && matches('openPicker', input, key)) return setPicking(true);
    if (matches('nextField', input, key)) return setFocus((f) => (f + 1) % FIELDS.length);
    if (matches('prevField', input, key)) return setFocus((f) => (f + FIELDS.length - 1) % FIELDS.length);
    if (matches('editor', input, key) && values) {
      if (!LONG.includes(field)) return nav.flash('$EDITOR edits the description and the instructions');
      const out = edit(values[field]);
      if ('error' in out) return nav.flash(out.error, 'error');
      return setValues({ ...values, [field]: out.text });
    }
  }, active && !saving);

  if (!values || !original) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading settings" />;
  const set = (f: FieldName) => (v: string) => {
    setValues({ ...values, [f]: v });
    if (f === 'name') setNameTaken(null);
  };
  const nameError = errors.name ?? (nameTaken !== null && values.name === nameTaken ? 'already used by another of your interns here' : null);
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold>
        Settings of {original.name} {dirty ? <Text color={theme.warning}>· unsaved changes</Text> : null}
      </Text>
      <TextField label="name" value={values.name} onChange={set('name')} focused={active && !confirmDiscard && !picking && focus === 0} error={nameError} note={`${LIMITS.name.min}-${LIMITS.name.max} chars, a-z 0-9 -`} />
      <TextField label="description" value={values.description} onChange={set('description')} focused={active && !confirmDiscard && !picking && focus === 1} error={errors.description} note={`${values.description.length}/${LIMITS.description.max}`} placeholder="none" />
      <TextField label="model" value={values.model} onChange={set('model')} focused={active && !confirmDiscard && !picking && focus === 2} error={errors.model} note={values.model === '' ? 'empty: workspace default · enter/^p picks' : 'author/slug[:variant] · enter/^p picks'} placeholder="workspace default" />
      {picking ? (
        <Picker
          title="Model"
          items={modelItems(models ?? [])}
          loading={models === null}
          allowTyped
          note={modelsError}
          height={Math.max(3, size.rows - 14)}
          width={size.columns - 4}
          onClose={() => setPicking(false)}
          onPick={([p]) => {
            setPicking(false);
            if (p) set('model')(p.value ?? '');
          }}
        />
      ) : null}
      {picking ? null : (
        <TextField label="instructions" value={values.instructions} onChange={set('instructions')} focused={active && !confirmDiscard && !picking && focus === 3} error={errors.instructions} multiline height={6} placeholder="none" />
      )}
      {saving ? <Spinner label="Saving" /> : null}
      {serverError ? <ErrorView error={serverError} /> : null}
      {confirmDiscard ? <Text color={theme.warning}>Discard your changes? (y/n)</Text> : null}
      <Text color={theme.muted}>
        {dirty ? `will send: ${Object.keys(patch).join(', ')}` : 'no changes yet'} · ^s save · esc cancel
      </Text>
    </Box>
  );
}
