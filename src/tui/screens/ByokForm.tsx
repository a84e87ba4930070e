/** Create or edit a BYOK credential. Key rotation is its own explicit action (ctrl+r) in the edit form. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ByokCredential } from '../../contract/byok.js';
import { PROVIDERS } from '../../contract/providers.js';
import { REGIONS } from '../../contract/rules.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView, StaleNote, errorViewRows } from '../components/ErrorView.js';
import { FieldWindow } from '../components/FieldWindow.js';
import { Spinner } from '../components/Spinner.js';
import { TextField, textFieldRows, type TextFieldProps } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useForm } from '../hooks/useForm.js';
import { useKeys } from '../hooks/useKeys.js';
import { retryLoadKey, useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { keyLabel, matches } from '../keymap.js';
import { wrapText } from '../wrap.js';
import { sanitize, widthOf } from '../../text.js';
import { theme } from '../theme.js';
import {
  type ByokField,
  type ByokFormValues,
  createBody,
  emptyByokForm,
  formOf,
  regionHelp,
  updateBody,
  validateByok,
} from './byokFormModel.js';

const TEXT_FIELDS: Partial<Record<ByokField, { label: string; placeholder: string }>> = {
  provider: { label: 'provider', placeholder: 'type to filter the catalogue' },
  key: { label: 'key', placeholder: 'the raw provider key (never shown)' },
  name: { label: 'name', placeholder: 'optional' },
  workspace_id: { label: 'workspace', placeholder: 'empty: the default workspace' },
  allowed_api_key_hashes: { label: 'api key hashes', placeholder: 'none: no restriction (64-hex SHA-256, comma separated)' },
  allowed_models: { label: 'models', placeholder: 'none: no restriction (author/slug, comma separated)' },
  allowed_user_ids: { label: 'user ids', placeholder: 'none: no restriction (comma separated)' },
};
const REGION_CYCLE = ['unset', ...REGIONS] as const;
const ZDR_CYCLE = ['unset', 'true', 'false'] as const;
/** Room for the longest label ("› declared region") and a space. */
const LABEL_WIDTH = 19;
const FLAG_HELP: Record<string, string> = {
  disabled: 'create or keep the credential switched off',
  is_byok_only: 'never fall back to shared endpoints for this provider (not with fallback)',
  is_fallback: 'used only after non-fallback keys of this provider (not with byok-only)',
  is_required: 'the allowed models run only on your keys',
};

/** `seed`: the credential as the screen that opened the form had it, drawn at once (see InternSettings). */
export function ByokForm({ id, seed }: { id?: string; seed?: ByokCredential }) {
  const { api, nav, active, pane, options } = useTui();
  const create = id === undefined;
  const res = useResource<ByokCredential | null>(async (signal) => (id ? api.getByok(id, { signal }) : null), id ?? 'new', seed);
  const [rotating, setRotating] = useState(false);
  const [pick, setPick] = useState(0);
  const [flagNote, setFlagNote] = useState<string | null>(null);
  // The service's provider list (GET /providers) when it has one; the bundled catalogue otherwise.
  const [catalogue, setCatalogue] = useState<{ slugs: readonly { slug: string }[]; source: 'service' | 'bundled' }>({ slugs: PROVIDERS, source: 'bundled' });
  useEffect(() => {
    if (!create) return;
    const ctl = new AbortController();
    api.listProviders({ signal: ctl.signal }).then(
      (list) => {
        if (list.length > 0) setCatalogue({ slugs: list.map((p) => ({ slug: sanitize(p.slug) })), source: 'service' });
      },
      () => undefined,
    );
    return () => ctl.abort();
  }, [api, create]);

  const fields: ByokField[] = [
    ...(create ? (['provider', 'key'] as const) : rotating ? (['key'] as const) : []),
    'name',
    ...(create ? (['workspace_id'] as const) : []),
    'allowed_api_key_hashes',
    'allowed_models',
    'allowed_user_ids',
    'declared_region',
    'declared_zdr',
    'disabled',
    'is_byok_only',
    'is_fallback',
    'is_required',
  ];
  const [empty] = useState(emptyByokForm);
  const initial = useMemo(() => (create ? empty : res.data ? formOf(res.data) : null), [create, empty, res.data]);
  const stored = create ? undefined : initial?.declared_region;
  const validate = useCallback((v: ByokFormValues) => validateByok(v, { create, rotating, stored }), [create, rotating, stored]);
  const form = useForm({
    initial,
    fields,
    validate,
    isDirty: (o, v) => JSON.stringify(o) !== JSON.stringify(v) || rotating,
    onLeave: nav.pop,
    onInvalid: () => nav.flash('fix the marked fields first', 'error'),
    onSubmit: async (values, original) => {
      const request = create ? createBody(values) : updateBody(original, values, rotating);
      // As on the settings form: an edit that changes nothing sends nothing.
      if (!create && Object.keys(request).length === 0) return nav.flash('nothing changed');
      // The raw key leaves the form's state as soon as it is sent.
      form.setValues({ ...values, key: '' });
      try {
        const saved = create ? await api.createByok(request as Parameters<typeof api.createByok>[0]) : await api.updateByok(id!, request);
        nav.returnTo({ name: 'byokDetails', id: saved.id });
        // The list shows one workspace's keys: one made in a named workspace is found with w there.
        const where = create && values.workspace_id.trim() ? ` in workspace ${sanitize(values.workspace_id.trim())} (the list's ${keyLabel('byokWorkspace')} shows its keys)` : '';
        nav.flash(create ? `credential created${where}` : rotating ? 'saved; the key was rotated' : 'saved');
      } catch (e) {
        if (create || rotating) nav.flash('not saved; the key is never kept, so enter it again', 'error');
        throw e;
      }
    },
  });
  useScreen(form.confirmingDiscard ? ['confirm'] : create ? ['formCreate', 'form'] : ['formSave', 'form', 'byokEdit'], true);
  const { values, original, errors, field, update } = form;
  const suggestions = useMemo(() => {
    const q = values?.provider.trim().toLowerCase() ?? '';
    return catalogue.slugs.filter((p) => p.slug.includes(q)).slice(0, 6);
  }, [values?.provider, catalogue]);

  const toggleFlag = (f: 'disabled' | 'is_byok_only' | 'is_fallback' | 'is_required') => {
    if (!values) return;
    const next = !values[f];
    if (next && f === 'is_byok_only' && values.is_fallback) return setFlagNote('byok-only is only valid on non-fallback credentials: turn fallback off first');
    if (next && f === 'is_fallback' && values.is_byok_only) return setFlagNote('a fallback credential cannot be byok-only: turn byok-only off first');
    setFlagNote(null);
    update({ [f]: next });
  };

  useKeys((input, key) => {
    if (!values) return void retryLoadKey(res, input, key);
    if (form.handleKey(input, key)) return;
    if (matches('rotate', input, key)) {
      if (create) return;
      // Cancelled, it says so: that replaces a flash about the key's field, which is gone now.
      if (rotating) nav.flash('rotation cancelled: the stored key stays');
      setRotating((r) => !r);
      update({ key: '' });
      // A rotation started again asks for a key anew: no "required" before anything is typed.
      form.untouch('key');
      return form.setFocus(0);
    }
    if (field === 'provider') {
      if (matches('pickDown', input, key)) return setPick((p) => Math.min(suggestions.length - 1, p + 1));
      if (matches('pickUp', input, key)) return setPick((p) => Math.max(0, p - 1));
      if (matches('pick', input, key) && suggestions[pick]) {
        update({ provider: suggestions[pick]!.slug });
        return form.setFocus((f) => f + 1);
      }
      return;
    }
    const cycle = matches('choicePrev', input, key) ? -1 : matches('choiceNext', input, key) || matches('toggle', input, key) ? 1 : 0;
    if (cycle === 0) return;
    if (field === 'declared_region') {
      const i = REGION_CYCLE.indexOf(values.declared_region);
      return update({ declared_region: REGION_CYCLE[(i + cycle + REGION_CYCLE.length) % REGION_CYCLE.length] });
    }
    if (field === 'declared_zdr') {
      const i = ZDR_CYCLE.indexOf(values.declared_zdr);
      return update({ declared_zdr: ZDR_CYCLE[(i + cycle + ZDR_CYCLE.length) % ZDR_CYCLE.length] });
    }
    if (field === 'disabled' || field === 'is_byok_only' || field === 'is_fallback' || field === 'is_required') {
      if (matches('toggle', input, key)) toggleFlag(field);
    }
  }, active && !form.submitting && !form.confirmingDiscard);

  if (!values || !original) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading the credential" />;
  const focused = (f: ByokField) => active && !form.submitting && !form.confirmingDiscard && field === f;
  // On a short terminal the fields scroll with the focus (FieldWindow) in what the pane leaves: the
  // title, the provider's line when editing, the note, and whatever shows below. (The keys are the
  // footer's: the form writes no line of them.)
  const around =
    1 + (create ? 0 : 1) + (flagNote ? wrapText(flagNote, pane.columns).length : 0) + (form.submitting ? 1 : 0) + (form.serverError ? errorViewRows(form.serverError, pane.columns, pane.rows, options.refusedFix) : 0) + (form.confirmingDiscard ? 1 : 0);
  /** A choice's or a flag's value as drawn, and the help beside it. */
  const choiceOf = (f: ByokField) => ({
    value: f === 'declared_region' ? values.declared_region : f === 'declared_zdr' ? values.declared_zdr : (values[f] as boolean) ? '[x]' : '[ ]',
    help: f === 'declared_region' ? regionHelp(values.provider) : f === 'declared_zdr' ? '(unset inherits the data policy; true declares zero retention)' : FLAG_HELP[f],
  });
  /**
   * Text wrapped beside a choice's label and value, by the form, so the window counts its lines:
   * Ink measured a focused help as one line in the row and drew its second line over the next
   * field ("...declares zero" lost "retention)"), and an error it wrapped was counted as one row.
   */
  const besideLines = (f: ByokField, text: string): string[] => wrapText(text, Math.max(1, pane.columns - LABEL_WIDTH - widthOf(choiceOf(f).value) - 1));
  /** What a choice says in full beside its value: its error, else its help while focused (null: its help on one line). */
  const noteOf = (f: ByokField): { lines: string[]; color: string | undefined } | null =>
    errors[f]
      ? { lines: besideLines(f, `✖ ${errors[f]}`), color: theme.error }
      : focused(f)
        ? { lines: besideLines(f, choiceOf(f).help ?? ''), color: theme.muted }
        : null;
  /** A text field's props: one set for the field as drawn and for the count of its rows. */
  const textProps = (f: ByokField, spec: { label: string; placeholder: string }): TextFieldProps => ({
    label: f === 'key' && rotating ? 'new key' : spec.label,
    value: values[f] as string,
    onChange: (v) => update({ [f]: v }),
    focused: focused(f),
    masked: f === 'key',
    placeholder: spec.placeholder,
    error: errors[f],
    labelWidth: LABEL_WIDTH,
  });
  /** The rows a field takes: an error under a text field's value, the provider's suggestions, a focused choice's help. */
  const rowsOf = (f: ByokField): number => {
    const spec = TEXT_FIELDS[f];
    if (spec) return textFieldRows(textProps(f, spec), pane.columns) + (f === 'provider' && focused('provider') ? 1 : 0);
    return noteOf(f)?.lines.length ?? 1;
  };
  /** One field's row (a text field with, on the provider, its suggestions; or a choice or a flag). */
  const row = (f: ByokField) => {
    const spec = TEXT_FIELDS[f];
    if (spec) {
      return (
        <Box flexDirection="column">
          <TextField {...textProps(f, spec)} />
          {f === 'provider' && focused('provider') ? (
            <Text color={theme.muted} wrap="truncate-end">
              {' '.repeat(LABEL_WIDTH)}
              {suggestions.length === 0
                ? `"${sanitize(values.provider)}" is not in the catalogue: it will be sent as typed and the service will judge`
                : // One line: the window starts near the pick, so the pick stays in view at any width.
                  `${catalogue.source === 'service' ? 'providers' : 'bundled list'} ${keyLabel('pickDown')} ${keyLabel('pick')}: ` +
                  suggestions
                    .map((s, i) => (i === pick ? `[${s.slug}]` : s.slug))
                    .slice(Math.max(0, pick - 2))
                    .join('  ')}
            </Text>
          ) : null}
        </Box>
      );
    }
    const { value, help } = choiceOf(f);
    const note = noteOf(f);
    return (
      <Box>
        <Box width={LABEL_WIDTH} flexShrink={0}>
          <Text color={focused(f) ? theme.accent : undefined} bold={focused(f)}>
            {focused(f) ? '› ' : '  '}
            {f.replace(/^is_/, '').replace(/_/g, ' ')}
          </Text>
        </Box>
        <Box flexShrink={0}>
          <Text inverse={focused(f)}>{value}</Text>
        </Box>
        {note ? (
          // An error, or the focused row's help, in full; the others keep to one line.
          <Box flexDirection="column" marginLeft={1}>
            {note.lines.map((line, i) => (
              <Text key={i} color={note.color}>
                {line}
              </Text>
            ))}
          </Box>
        ) : (
          <Text color={theme.muted} wrap="truncate-end">
            {' '}
            {help}
          </Text>
        )}
      </Box>
    );
  };
  return (
    <Box flexDirection="column" flexGrow={1}>
      {/* The title and the provider's line keep to one row each (cut at the edge): the window counts them so. */}
      <Text bold wrap="truncate-end">
        {create ? 'New BYOK credential' : `Edit ${sanitize(values.provider)} credential`}
        {form.dirty ? <Text color={theme.warning}> · unsaved changes</Text> : null}
        {!create ? <Text color={theme.muted}> · {keyLabel('rotate')} {rotating ? 'cancel rotation' : 'rotate the key'}</Text> : null}
      </Text>
      {!create ? <Text color={theme.muted} wrap="truncate-end">provider {sanitize(values.provider)} · workspace {sanitize(values.workspace_id || '—')} (not editable)</Text> : null}
      <FieldWindow
        focus={fields.indexOf(field)}
        room={pane.rows - around}
        fields={fields.map((f) => ({
          key: f,
          rows: rowsOf(f),
          node: row(f),
        }))}
      />
      {flagNote ? <Text color={theme.warning}>{flagNote}</Text> : null}
      {form.submitting ? <Spinner label={create ? 'Creating' : 'Saving'} /> : null}
      {form.serverError ? <ErrorView error={form.serverError} retry="save" /> : null}
      {/* Drawn from what the previous screen had: a fresh copy that could not be read is said. */}
      {res.error && !form.serverError ? <StaleNote error={res.error} /> : null}
      <Confirm open={form.confirmingDiscard} question="Discard your changes?" onAnswer={form.answerDiscard} active={active} />
    </Box>
  );
}
