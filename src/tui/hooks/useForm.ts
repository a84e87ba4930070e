/**
 * The one form hook: values and the original they started from, dirty, the
 * focused field with its tab cycle, the discard confirmation, and the submit
 * state. Rules stay in a React-free model (byokFormModel.ts, settingsFormModel.ts);
 * the screen draws the fields and passes its keys to `handleKey` first.
 */
import type { Key } from 'ink';
import { useMemo, useRef, useState } from 'react';
import { matches } from '../keymap.js';

export interface FormOptions<V, F extends string> {
  /**
   * The values to start from; null while they load. Taken when first non-null; values that arrive
   * later (a fresh copy of what the form was drawn from) replace the fields not edited yet, and
   * become the original the edits are compared with.
   */
  initial: V | null;
  /** The fields in tab order (may change between renders; the focus is kept in range). */
  fields: readonly F[];
  validate: (values: V) => Partial<Record<F, string>>;
  /** Default: any difference from the original. */
  isDirty?: (original: V, values: V) => boolean;
  /** Sends the form; a throw becomes `serverError` (until a value changes) and the values are kept. */
  onSubmit: (values: V, original: V) => Promise<void>;
  /** Called when the form is left (esc with no edits, or a confirmed discard). */
  onLeave: () => void;
  /** Called when a submit is refused because a field is marked (the first marked one gets the focus). */
  onInvalid?: () => void;
}

export interface Form<V, F extends string> {
  /** Null while loading. */
  values: V | null;
  original: V | null;
  setValues: (values: V) => void;
  update: (patch: Partial<V>) => void;
  /**
   * What is wrong, field by field, as the form shows it: a field's error once it was edited, holds
   * something, or a save was tried; an empty field nobody has reached yet is not marked (a fresh
   * create form opened with "✖ the key is required" beside every required field).
   */
  errors: Partial<Record<F, string>>;
  dirty: boolean;
  focus: number;
  field: F;
  setFocus: (f: number | ((f: number) => number)) => void;
  focusField: (field: F) => void;
  /** Marks `field` as not edited (emptied and offered anew): its error waits for an edit again. */
  untouch: (field: F) => void;
  /** True while the discard question is asked. */
  confirmingDiscard: boolean;
  /** The answer to the discard question (wire it to a `Confirm`). */
  answerDiscard: (yes: boolean) => void;
  /** esc: leave, or ask first when there are edits. */
  cancel: () => void;
  submit: () => Promise<void>;
  submitting: boolean;
  serverError: unknown;
  /** Handles the form keys (cancel, save, next/previous field); true when the key was one of them. */
  handleKey: (input: string, key: Key) => boolean;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A form value's field (forms name their fields after their values' keys). */
const valueOf = (values: unknown, field: string): unknown => (values === null || typeof values !== 'object' ? undefined : (values as Record<string, unknown>)[field]);
/** Nothing in it: what a field holds before anyone has filled it. */
const blank = (v: unknown) => v === undefined || v === null || v === '' || v === false;

/**
 * The discard rule on its own, for a form that keeps its values itself (the secret and new-intern forms): esc
 * leaves at once when nothing was edited, and asks first when something was. `useForm` is built
 * on it, so every form asks the same way.
 */
export function useDiscard(dirty: boolean, onLeave: () => void) {
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const cancel = () => (dirty ? setConfirmingDiscard(true) : onLeave());
  const answerDiscard = (yes: boolean) => {
    setConfirmingDiscard(false);
    if (yes) onLeave();
  };
  return { confirmingDiscard, answerDiscard, cancel };
}

export function useForm<V, F extends string>(opts: FormOptions<V, F>): Form<V, F> {
  const [values, setValuesState] = useState<V | null>(opts.initial);
  const [original, setOriginal] = useState<V | null>(opts.initial);
  const [focusRaw, setFocus] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<unknown>(undefined);
  const [touched, setTouched] = useState<ReadonlySet<F>>(() => new Set());
  const [attempted, setAttempted] = useState(false);
  // The latest values for callbacks that run between renders (a submit right after an edit).
  const latest = useRef(values);
  latest.current = values;

  // Loaded values are taken during render, so the first drawn frame already has them. `initial`
  // is compared by its JSON only when it is another object than last render's (callers memoise
  // it on what it is made from), not serialised at every render and keystroke.
  const seen = useRef(opts.initial === null ? null : JSON.stringify(opts.initial));
  const lastInitial = useRef(opts.initial);
  const freshInitial = opts.initial !== lastInitial.current;
  lastInitial.current = opts.initial;
  if (values === null && opts.initial !== null) {
    seen.current = JSON.stringify(opts.initial);
    setValuesState(opts.initial);
    setOriginal(opts.initial);
  } else if (freshInitial && values !== null && original !== null && opts.initial !== null && JSON.stringify(opts.initial) !== seen.current) {
    // Fresher values than the form was drawn from: each field still as it was drawn takes the
    // fresh one; an edited field keeps the edit, now compared with the fresh value.
    seen.current = JSON.stringify(opts.initial);
    const fresh = opts.initial;
    const next = { ...values } as Record<string, unknown>;
    for (const k of Object.keys(fresh as object)) if (sameJson(valueOf(values, k), valueOf(original, k))) next[k] = valueOf(fresh, k);
    latest.current = next as V;
    setValuesState(next as V);
    setOriginal(fresh);
  }

  const { fields } = opts;
  const focus = Math.min(focusRaw, Math.max(0, fields.length - 1));
  const field = fields[focus]!;
  const { validate } = opts;
  const errors = useMemo<Partial<Record<F, string>>>(() => (values ? validate(values) : {}), [values, validate]);
  const shown = useMemo<Partial<Record<F, string>>>(() => {
    const out: Partial<Record<F, string>> = {};
    for (const f of Object.keys(errors) as F[]) if (attempted || touched.has(f) || !blank(valueOf(values, f))) out[f] = errors[f];
    return out;
  }, [errors, attempted, touched, values]);
  const dirty = values !== null && original !== null && (opts.isDirty ?? ((o, v) => !sameJson(o, v)))(original, values);

  const setValues = (v: V) => {
    latest.current = v;
    setValuesState(v);
    // What the service refused was the values sent: once they change, its error is about a form that
    // is no longer there (a taken name stays marked on its field: nameErrorOf).
    if (serverError !== undefined) setServerError(undefined);
    // Edited once, a field stays edited (typed and erased again, it is still marked).
    const edited = fields.filter((f) => !touched.has(f) && !sameJson(valueOf(v, f), valueOf(original, f)));
    if (edited.length > 0) setTouched((t) => new Set([...t, ...edited]));
  };
  const update = (patch: Partial<V>) => {
    if (latest.current !== null) setValues({ ...latest.current, ...patch });
  };
  const { confirmingDiscard, answerDiscard, cancel } = useDiscard(dirty, opts.onLeave);
  const submit = async () => {
    if (values === null || original === null || submitting) return;
    setAttempted(true);
    const bad = fields.find((f) => errors[f]);
    if (bad !== undefined) {
      setFocus(fields.indexOf(bad));
      opts.onInvalid?.();
      return;
    }
    setSubmitting(true);
    setServerError(undefined);
    try {
      await opts.onSubmit(values, original);
    } catch (e) {
      setServerError(e);
    } finally {
      setSubmitting(false);
    }
  };
  const handleKey = (input: string, key: Key): boolean => {
    if (matches('formCancel', input, key)) return cancel(), true;
    // ^s saves an edit and creates a new one: one key, named for the footer by the form's scope.
    if (matches('save', input, key) || matches('create', input, key)) return void submit(), true;
    if (matches('nextField', input, key)) return setFocus((f) => (Math.min(f, fields.length - 1) + 1) % fields.length), true;
    if (matches('prevField', input, key)) return setFocus((f) => (Math.min(f, fields.length - 1) + fields.length - 1) % fields.length), true;
    return false;
  };
  return {
    values,
    original,
    setValues,
    update,
    errors: shown,
    dirty,
    focus,
    field,
    setFocus,
    focusField: (f: F) => setFocus(Math.max(0, fields.indexOf(f))),
    untouch: (f: F) => setTouched((t) => new Set([...t].filter((x) => x !== f))),
    confirmingDiscard,
    answerDiscard,
    cancel,
    submit,
    submitting,
    serverError,
    handleKey,
  };
}
