/**
 * The model field's picker, one for every form that sets a model (an intern's settings, a new
 * intern): the catalogue, read when the picker first opens and kept for the client's life (a
 * failed read is not kept, so the next opening asks again), "workspace default" first, and a typed
 * slug taken when the contract's rule allows it.
 */
import { useEffect, useMemo, useState } from 'react';
import type { InternApi } from '../../client/types.js';
import { contextSize, type Model, perMillion } from '../../contract/catalog.js';
import { NO_MODEL } from '../../contract/intern.js';
import { checkModel } from '../../contract/rules.js';
import { sanitize } from '../../text.js';
import { useTui } from '../context.js';
import { keysOf } from '../keymap.js';
import type { Sortable } from '../state/sort.js';
import { Picker, type PickerItem } from './Picker.js';

/** The model picker's rows: "workspace default" (null) first, then the catalogue with context and prices. */
export function modelItems(models: Model[]): PickerItem[] {
  return [
    { value: null, label: NO_MODEL, detail: 'no model of its own (null)' },
    ...models.map((m) => ({
      value: m.id,
      label: m.id,
      detail: `${m.context_length ? contextSize(m.context_length) : '?'} ctx · ${perMillion(m.pricing.prompt)}/${perMillion(m.pricing.completion)} per M · ${m.name}`,
      search: m.name,
      sortBy: { context: m.context_length, price: Number(m.pricing.prompt), title: m.name },
    })),
  ];
}

/** What the model picker sorts by (^o): the slug, the context length (longest first), the prompt price (cheapest first), the model's name. */
const MODEL_SORTS: readonly Sortable<PickerItem>[] = [
  { header: 'ID', sort: { kind: 'text', by: (i) => i.label, name: 'id' } },
  { header: 'CONTEXT', sort: { kind: 'number', by: (i) => i.sortBy?.context, first: 'desc' } },
  { header: 'PRICE', sort: { kind: 'number', by: (i) => i.sortBy?.price } },
  { header: 'NAME', sort: { kind: 'text', by: (i) => i.sortBy?.title } },
];

/** What the model field says beside its value, the same in every form. */
export function modelFieldNote(value: string): string {
  return `${value === '' ? `empty: ${NO_MODEL}` : 'author/slug[:variant]'} · ${keysOf('openPicker')} picks`;
}

const catalogues = new WeakMap<InternApi, Promise<Model[]>>();

function catalogueOf(api: InternApi): Promise<Model[]> {
  let read = catalogues.get(api);
  if (!read) {
    read = api.listModels();
    catalogues.set(api, read);
    read.catch(() => catalogues.delete(api));
  }
  return read;
}

export interface ModelPickerProps {
  /** The field's value: '' is the workspace default. */
  value: string;
  height: number;
  width: number;
  onClose: () => void;
  /** The slug picked or typed, '' for the workspace default. */
  onPick: (model: string) => void;
}

export function ModelPicker({ value, height, width, onClose, onPick }: ModelPickerProps) {
  const { api } = useTui();
  const [models, setModels] = useState<Model[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Made once per catalogue: the picker sorts and indexes them when they change, not on every key.
  const items = useMemo(() => modelItems(models ?? []), [models]);
  // Without the catalogue the field still takes a typed slug.
  useEffect(() => {
    let live = true;
    catalogueOf(api).then(
      (m) => live && setModels(m),
      (e: unknown) => {
        if (!live) return;
        setModels([]);
        setError(`the model catalogue is unavailable (${sanitize((e as Error).message)}): type a slug`);
      },
    );
    return () => {
      live = false;
    };
  }, [api]);
  return (
    <Picker
      title="Model"
      items={items}
      sortList="models"
      sortColumns={MODEL_SORTS}
      loading={models === null}
      allowTyped={checkModel}
      current={value === '' ? null : value}
      note={error}
      height={height}
      width={width}
      onClose={onClose}
      onPick={([p]) => {
        onClose();
        if (p) onPick(p.value ?? '');
      }}
    />
  );
}
