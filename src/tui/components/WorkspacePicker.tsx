/**
 * The BYOK list's workspace picker: "default workspace" first, then the account's workspaces from
 * the service's listing (every page, up to MAX_PAGES), by name with their slug and id to filter on.
 * A typed id is still taken (a workspace the listing cannot show, or a key that may not list them),
 * so the picker never stands between a person who knows the id and the keys.
 */
import { useEffect, useState } from 'react';
import { workspacePages } from '../../client/pages.js';
import type { InternApi } from '../../client/types.js';
import type { Workspace } from '../../contract/workspace.js';
import { sanitize } from '../../text.js';
import { useTui } from '../context.js';
import { Picker, type PickerItem } from './Picker.js';

/** At 100 a page, ten pages: an account with more is asked for an id. */
const MAX_PAGES = 10;

export async function allWorkspaces(api: Pick<InternApi, 'listWorkspaces'>, signal?: AbortSignal): Promise<{ workspaces: Workspace[]; more: boolean }> {
  const workspaces: Workspace[] = [];
  let pages = 0;
  for await (const page of workspacePages(api, signal)) {
    workspaces.push(...page);
    if (++pages === MAX_PAGES) return { workspaces, more: true };
  }
  return { workspaces, more: false };
}

/** A typed workspace id: anything but blanks (the service says whether it names a workspace). */
const typedId = (text: string): string | null => (text.trim() === '' ? 'is blank' : null);

export function workspaceItems(workspaces: readonly Workspace[]): PickerItem[] {
  return [
    { value: null, label: 'default workspace', detail: "the account's default (no workspace_id)" },
    ...workspaces.map((w) => ({ value: w.id, label: sanitize(w.name), detail: `${sanitize(w.slug)} · ${w.id}`, search: `${w.slug} ${w.id} ${w.description ?? ''}` })),
  ];
}

export interface WorkspacePickerProps {
  /** The workspace listed now: '' is the default one. */
  current: string;
  height: number;
  width: number;
  onClose: () => void;
  /** The id picked or typed ('' for the default workspace), and its name when it came from the listing. */
  onPick: (id: string, name: string | null) => void;
}

export function WorkspacePicker({ current, height, width, onClose, onPick }: WorkspacePickerProps) {
  const { api } = useTui();
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    allWorkspaces(api, ctl.signal).then(
      ({ workspaces: found, more }) => {
        setWorkspaces(found);
        if (more) setNote(`more than ${found.length} workspaces: type an id for one not listed`);
      },
      (e: unknown) => {
        if (ctl.signal.aborted) return;
        setWorkspaces([]);
        setNote(`the workspaces could not be listed (${sanitize((e as Error).message)}): type an id`);
      },
    );
    return () => ctl.abort();
  }, [api]);
  return (
    <Picker
      title="Workspace"
      items={workspaceItems(workspaces ?? [])}
      loading={workspaces === null}
      allowTyped={typedId}
      typedDetail="not in the listing"
      current={current === '' ? null : current}
      note={note}
      height={height}
      width={width}
      onClose={onClose}
      onPick={([p]) => {
        onClose();
        if (!p) return;
        const id = (p.value ?? '').trim();
        onPick(id, workspaces?.find((w) => w.id === id)?.name ?? null);
      }}
    />
  );
}
