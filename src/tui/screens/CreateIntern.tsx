/**
 * Creating an intern: the name checked live with the contract's rule, a description, a model (typed,
 * or from the model picker the settings form uses), instructions (long text in $EDITOR), "provision now", and an optional vault borrowed from another intern.
 * Each submit carries an Idempotency-Key, kept while the form is unchanged, so a retry after a
 * dropped connection never creates two interns.
 */
import { randomUUID } from 'node:crypto';
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useEffect, useRef, useState } from 'react';
import { createInternWithModel } from '../../client/create.js';
import { ApiError } from '../../client/errors.js';
import { NO_MODEL, type Intern, type InternCreate } from '../../contract/intern.js';
import { LIMITS } from '../../contract/limits.js';
import { checkDescription, checkInstructions, checkModel, checkName } from '../../contract/rules.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView, errorViewRows, explain } from '../components/ErrorView.js';
import { FieldWindow, windowedTextField, type WindowedField } from '../components/FieldWindow.js';
import { ModelPicker, modelFieldNote } from '../components/ModelPicker.js';
import { Picker } from '../components/Picker.js';
import { Spinner } from '../components/Spinner.js';
import { useTui } from '../context.js';
import { useFieldEditor } from '../hooks/useExternalEditor.js';
import { useForm } from '../hooks/useForm.js';
import { nameErrorOf } from './settingsFormModel.js';
import { useKeys } from '../hooks/useKeys.js';
import { useScreen } from '../hooks/useScreen.js';
import { keyLabel, keysOf, matches, type Scope, TEXT_FIELD_SCOPES, type TextFieldKind } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';

/** The labels' column: the longest ("provision now") behind the focus marker, and a space. */
const LABEL_WIDTH = 16;

const FIELDS = ['name', 'description', 'model', 'instructions', 'provision', 'vault'] as const;
type Field = (typeof FIELDS)[number];
type TextField = 'name' | 'description' | 'model' | 'instructions';
/** How the text fields edit (their scopes, and whether $EDITOR edits them). */
const KINDS: Record<TextField, TextFieldKind> = { name: 'line', description: 'long', model: 'line', instructions: 'area' };
export interface CreateValues {
  name: string;
  description: string;
  /** A model slug; empty: the workspace default (no `model` sent). */
  model: string;
  instructions: string;
  provision: boolean;
  /** The vault to borrow, and whose it is (for the label). */
  vault: { id: string; owner: string } | null;
}

export function createBody(v: CreateValues): InternCreate {
  const body: InternCreate = { name: v.name, provision: v.provision };
  if (v.description !== '') body.description = v.description;
  if (v.instructions !== '') body.instructions = v.instructions;
  if (v.vault) body.vault_id = v.vault.id;
  return body;
}

export function createErrors(v: CreateValues): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  const n = checkName(v.name);
  if (n) out.name = n;
  const d = checkDescription(v.description === '' ? null : v.description);
  if (d) out.description = d;
  const m = checkModel(v.model === '' ? null : v.model);
  if (m) out.model = m;
  const i = checkInstructions(v.instructions === '' ? null : v.instructions);
  if (i) out.instructions = i;
  return out;
}

const EMPTY: CreateValues = { name: '', description: '', model: '', instructions: '', provision: true, vault: null };
/** Edits worth asking about before leaving: anything typed or picked (the provision toggle alone is not). */
const isDirty = (_original: CreateValues, v: CreateValues) => v.name !== '' || v.description !== '' || v.model !== '' || v.instructions !== '' || v.vault !== null;

export function CreateIntern() {
  const { api, nav, active, size, pane, options } = useTui();
  // The picker open under its field, if any.
  const [picking, setPicking] = useState<'vault' | 'model' | null>(null);
  const [vaults, setVaults] = useState<Intern[] | null>(null);
  const [vaultsError, setVaultsError] = useState<unknown>(undefined);
  // The key of the last submit and the body it was for: a retry of the same body reuses it.
  const idem = useRef<{ body: string; key: string } | null>(null);
  const editField = useFieldEditor(KINDS);
  // The name the service said is taken: marked on the field while it is still the name typed.
  const [nameTaken, setNameTaken] = useState<string | null>(null);
  const form = useForm<CreateValues, Field>({
    initial: EMPTY,
    fields: FIELDS,
    validate: createErrors,
    isDirty,
    onLeave: nav.pop,
    onInvalid: () => nav.flash('fix the marked fields first', 'error'),
    onSubmit: async (v) => {
      const body = createBody(v);
      const model = v.model === '' ? null : v.model;
      const text = JSON.stringify([body, model]);
      if (!idem.current || idem.current.body !== text) idem.current = { body: text, key: randomUUID() };
      setVaultsError(undefined);
      try {
        const { intern: created, failed } = await createInternWithModel(api, body, model, { idempotencyKey: idem.current.key });
        nav.replace({ name: 'intern', id: created.id, seed: created });
        // Created all the same: the details say the rest, and the flash what did not happen.
        if (failed) nav.flash(`created ${sanitize(created.name)}, but ${failed.step === 'model' ? 'its model was not set' : 'it was not provisioned'}: ${explain(failed.error).message}`, 'error');
        else nav.flash(`created ${sanitize(created.name)}${v.provision ? ' · provisioning' : ''}`);
      } catch (e) {
        if (e instanceof ApiError && e.reason === 'name_taken') {
          setNameTaken(v.name);
          form.focusField('name');
        }
        throw e;
      }
    },
  });
  const values = form.values ?? EMPTY;
  const { field, errors } = form;
  const confirmDiscard = form.confirmingDiscard;
  const serverError = form.serverError ?? vaultsError;

  const own: readonly Scope[] = field === 'provision' ? ['choice'] : field === 'vault' ? ['pickField'] : field === 'model' ? ['pickField', 'text'] : TEXT_FIELD_SCOPES[KINDS[field]];
  useScreen(confirmDiscard ? ['confirm'] : picking ? ['chooser', 'text'] : ['formCreate', 'form', ...own], true);

  // Interns whose vault can be borrowed: those that have one (a provisioned intern).
  useEffect(() => {
    if (picking !== 'vault' || vaults) return;
    const ctl = new AbortController();
    api.listInterns({ limit: 500 }, { signal: ctl.signal }).then(
      (page) => setVaults(page.data.filter((i) => i.vault_id)),
      (e: unknown) => {
        if (!ctl.signal.aborted) {
          setPicking(null);
          setVaultsError(e);
        }
      },
    );
    return () => ctl.abort();
  }, [picking, vaults, api]);

  useKeys((input, key) => {
    if (confirmDiscard || picking) return;
    if (field === 'model' && matches('openPicker', input, key)) return setPicking('model');
    if (form.handleKey(input, key)) return;
    if (field === 'provision' && (matches('toggle', input, key) || matches('choicePrev', input, key) || matches('choiceNext', input, key))) {
      return form.update({ provision: !values.provision });
    }
    if (field === 'vault') {
      if (matches('openPicker', input, key)) return setPicking('vault');
      if (matches('erase', input, key) || matches('eraseForward', input, key)) return form.update({ vault: null });
    }
    if (matches('editor', input, key)) return editField(field, (f) => values[f], (f, text) => form.update({ [f]: text }));
  }, active && !form.submitting);

  const on = (f: Field) => active && !form.submitting && !confirmDiscard && !picking && field === f;
  const set = (f: TextField) => (v: string) => form.update({ [f]: v });
  const short = size.rows < 30;
  // The instructions take what the pane leaves (the title, the other fields, the box's header and
  // rules), six lines at most; on a pane too short for all the fields, they scroll with
  // the focus (FieldWindow), so the field being edited is always on screen.
  const instructionLines = Math.max(1, Math.min(6, pane.rows - 8));
  const vaultField: WindowedField = {
    key: 'vault',
    rows: 1,
    node: (
      <Choice
        label="borrow vault"
        focused={on('vault')}
        value={values.vault ? `the vault of ${sanitize(values.vault.owner)}` : 'none: its own vault'}
        hint={values.vault ? `${keysOf('openPicker')} picks · ${keyLabel('erase')} clears` : `${keysOf('openPicker')} picks an intern`}
        muted={!values.vault}
      />
    ),
  };
  const fields: WindowedField[] = [
    windowedTextField('name', { labelWidth: LABEL_WIDTH, label: 'name', value: values.name, onChange: set('name'), focused: on('name'), error: nameErrorOf(errors, values.name, nameTaken), note: `${LIMITS.name.min}-${LIMITS.name.max} chars: a-z 0-9, hyphen-separated, starts with a letter` }, pane.columns),
    windowedTextField('description', { labelWidth: LABEL_WIDTH, label: 'description', value: values.description, onChange: set('description'), focused: on('description'), error: errors.description, note: `${values.description.length}/${LIMITS.description.max}`, placeholder: 'none' }, pane.columns),
    windowedTextField('model', { labelWidth: LABEL_WIDTH, label: 'model', value: values.model, onChange: set('model'), focused: on('model'), error: errors.model, note: modelFieldNote(values.model), placeholder: NO_MODEL }, pane.columns),
    windowedTextField(
      'instructions',
      { labelWidth: LABEL_WIDTH, label: 'instructions', value: values.instructions, onChange: set('instructions'), focused: on('instructions'), error: errors.instructions, multiline: true, height: instructionLines, placeholder: `none (${keyLabel('editor')} opens $EDITOR)` },
      pane.columns,
    ),
    {
      key: 'provision',
      rows: 1,
      node: <Choice label="provision now" focused={on('provision')} value={values.provision ? '[x] yes: start it right away' : '[ ] no: create it stopped'} hint="space or ←/→ toggles" />,
    },
    vaultField,
  ];
  // The title, and whatever shows above the fields. (The keys are the footer's.)
  const around = 1 + (serverError ? (short ? 1 : errorViewRows(serverError, pane.columns, pane.rows, options.refusedFix)) : 0) + (form.submitting ? 1 : 0) + (confirmDiscard ? 1 : 0);
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold>New intern</Text>
      {serverError ? <ErrorView error={serverError} compact={short} retry="save" /> : null}
      {form.submitting ? <Spinner label="Creating" /> : null}
      <Confirm open={confirmDiscard} question="Discard this new intern?" onAnswer={form.answerDiscard} active={active} />
      {/* While a picker is open, it stands under the field it fills. */}
      <FieldWindow fields={picking ? [fields[FIELDS.indexOf(picking)]!] : fields} focus={picking ? 0 : FIELDS.indexOf(field)} room={picking ? Infinity : pane.rows - around} />
      {picking === 'model' ? <ModelPicker value={values.model} height={Math.max(3, Math.min(12, pane.rows - around - 6))} width={size.columns - 4} onClose={() => setPicking(null)} onPick={(model) => form.update({ model })} /> : null}
      {picking === 'vault' ? (
        <Picker
          title="Borrow the vault of"
          items={(vaults ?? []).map((i) => ({ value: i.vault_id, label: sanitize(i.name), detail: i.status, search: i.id }))}
          loading={vaults === null}
          current={values.vault?.id}
          height={Math.max(3, Math.min(8, pane.rows - around - 6))}
          width={size.columns - 4}
          onClose={() => setPicking(null)}
          onPick={([p]) => {
            const owner = vaults?.find((i) => i.vault_id === p?.value);
            form.update({ vault: p?.value && owner ? { id: p.value, owner: owner.name } : null });
            setPicking(null);
          }}
        />
      ) : null}
    </Box>
  );
}

function Choice({ label, value, hint, focused, muted = false }: { label: string; value: string; hint: string; focused: boolean; muted?: boolean }) {
  return (
    <Box>
      <Box width={LABEL_WIDTH} flexShrink={0}>
        <Text color={focused ? theme.accent : undefined} bold={focused}>
          {focused ? '› ' : '  '}
          {label}
        </Text>
      </Box>
      <Text color={muted ? theme.muted : undefined} inverse={focused}>
        {value}
      </Text>
      {focused ? <Text color={theme.muted}> {hint}</Text> : null}
    </Box>
  );
}
