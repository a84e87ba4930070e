import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useCallback } from 'react';
import { useTui } from '../context.js';
import type { TextFieldKind } from '../keymap.js';
import { fieldText } from '../components/TextField.js';
import { lendTerminal } from '../output.js';

/**
 * Edits text in $VISUAL/$EDITOR: the terminal lent to the editor as ctrl+z lends it to the shell
 * (an editor turns off the modes the TUI set: vi leaves the alternate screen and bracketed paste
 * off), then the text read back. Answers an error when the editor failed.
 */
export function useExternalEditor(): (text: string) => { text: string } | { error: string } {
  return useCallback((text: string) => {
    const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
    const dir = mkdtempSync(join(tmpdir(), 'intern-tui-edit-'));
    const file = join(dir, 'text.md');
    try {
      writeFileSync(file, text, { mode: 0o600 });
      const res = lendTerminal(() => spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit' }));
      if (res.error || res.status !== 0) return { error: `${editor} exited with ${res.status ?? res.error?.message}; nothing changed` };
      return { text: readFileSync(file, 'utf8').replace(/\n$/, '') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, []);
}

/**
 * What ^e does on a form, from how its fields edit (`kinds`, the same record that gives a focused
 * field its scopes): on a field that $EDITOR edits (those the footer offers ^e on), its text
 * edited there and handed to `apply` as the field takes typed text (fieldText: one line stays one
 * line, no control characters); on any other, a flash naming the fields it edits. One rule for
 * every form, so that none edits a field the footer does not offer it on. `verbatim` fields take
 * the editor's text as written (a secret's value, never drawn, whose line breaks may be its own).
 */
export function useFieldEditor<F extends string>(
  kinds: Partial<Record<F, TextFieldKind>>,
  verbatim: readonly F[] = [],
): (field: string, text: (f: F) => string, apply: (f: F, text: string) => void) => void {
  const { nav } = useTui();
  const edit = useExternalEditor();
  const long = (Object.keys(kinds) as F[]).filter((f) => kinds[f] !== undefined && kinds[f] !== 'line');
  return (field, text, apply) => {
    const f = long.find((l) => l === field);
    if (f === undefined) {
      const names = long.map((l) => `the ${l}`);
      return nav.flash(`$EDITOR edits ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`);
    }
    const out = edit(text(f));
    if ('error' in out) return nav.flash(out.error, 'error');
    apply(f, verbatim.includes(f) ? out.text : fieldText(out.text, kinds[f] === 'area'));
  };
}
