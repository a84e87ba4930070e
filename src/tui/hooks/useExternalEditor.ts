import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useCallback } from 'react';
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
