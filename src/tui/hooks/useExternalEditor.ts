import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useStdin, useStdout } from 'ink';
import { CLEAR_SCREEN } from '../terminal.js';
import { useCallback } from 'react';

/**
 * Edits text in $VISUAL/$EDITOR: raw mode off, the editor on the real
 * terminal, then the text read back. Answers null when the editor failed.
 */
export function useExternalEditor(): (text: string) => { text: string } | { error: string } {
  const { setRawMode, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  return useCallback(
    (text: string) => {
      const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
      const dir = mkdtempSync(join(tmpdir(), 'intern-tui-edit-'));
      const file = join(dir, 'text.md');
      writeFileSync(file, text, { mode: 0o600 });
      if (isRawModeSupported) setRawMode(false);
      try {
        const res = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit' });
        if (res.error || res.status !== 0) return { error: `${editor} exited with ${res.status ?? res.error?.message}; nothing changed` };
        return { text: readFileSync(file, 'utf8').replace(/\n$/, '') };
      } finally {
        rmSync(dir, { recursive: true, force: true });
        if (isRawModeSupported) setRawMode(true);
        // The editor drew over the screen: clear it so the next frame is whole.
        stdout.write(CLEAR_SCREEN);
      }
    },
    [setRawMode, isRawModeSupported, stdout],
  );
}
