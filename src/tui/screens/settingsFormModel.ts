/** The settings form's state and rules, without React: values from an intern, checks, and the patch to send. */
import { SUSPENDABLE_STATUSES, type Intern, type InternUpdate } from '../../contract/intern.js';
import { checkDescription, checkInstructions, checkModel, checkName } from '../../contract/rules.js';
import { keyLabel, type TextFieldKind } from '../keymap.js';
import { sanitize } from '../../text.js';

export type SettingsField = 'name' | 'description' | 'model' | 'instructions';
export const SETTINGS_FIELDS: readonly SettingsField[] = ['name', 'description', 'model', 'instructions'];
/** How each field edits (its scopes, and whether $EDITOR edits it); the model is a line with a picker behind it. */
export const SETTINGS_KINDS: Record<SettingsField, TextFieldKind> = { name: 'line', description: 'long', model: 'line', instructions: 'area' };
export type SettingsValues = Record<SettingsField, string>;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

export function valuesOf(intern: Intern): SettingsValues {
  return {
    name: sanitize(intern.name),
    description: sanitize(intern.description, { multiline: true }),
    model: sanitize(intern.model),
    instructions: sanitize(intern.instructions, { multiline: true }),
  };
}

/** Only changed fields; an emptied nullable field is null (model: back to the workspace default). */
export function patchOf(original: SettingsValues, current: SettingsValues): InternUpdate {
  const patch: InternUpdate = {};
  if (current.name !== original.name) patch.name = current.name;
  for (const f of ['description', 'model', 'instructions'] as const) {
    if (current[f] !== original[f]) patch[f] = current[f] === '' ? null : current[f];
  }
  return patch;
}

export function validateSettings(v: SettingsValues): SettingsErrors {
  const errors: SettingsErrors = {};
  const put = (f: SettingsField, e: string | null) => {
    if (e) errors[f] = e;
  };
  put('name', checkName(v.name));
  put('description', checkDescription(v.description === '' ? null : v.description));
  put('model', checkModel(v.model === '' ? null : v.model));
  put('instructions', checkInstructions(v.instructions === '' ? null : v.instructions));
  return errors;
}

/**
 * The name error to show: the rule's, else "taken" while the name is still the one the service
 * refused. Names are unique per creator: renaming another user's intern (`yours` false) clashes with
 * that user's interns, not the caller's.
 */
export function nameErrorOf(errors: { name?: string }, name: string, takenName: string | null, yours = true): string | null {
  if (errors.name) return errors.name;
  if (takenName === null || name !== takenName) return null;
  return yours ? 'already used by another of your interns here' : "already used by another intern of this intern's creator here";
}

/** The flash after a save: a model change only applies at the next provision. */
export function savedNote(patch: InternUpdate, status?: string): string {
  if (patch.model === undefined) return 'saved';
  // A running intern is provisioned again only once suspended (lifecycle.ts). One line of the footer
  // at 80 columns: the flash is cut at the edge, and the keys were what was cut.
  return SUSPENDABLE_STATUSES.includes(status ?? '')
    ? `saved · The model applies once provisioned again: suspend (${keyLabel('suspend')}), provision (${keyLabel('provision')})`
    : `saved · The model applies at the next provision (${keyLabel('provision')})`;
}
