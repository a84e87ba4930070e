/** Long output on a terminal goes through a pager ($PAGER, `less -FRX` by default). */
import type * as ChildProcess from 'node:child_process';
import { importExternal } from '../../importExternal.js';

/**
 * The pager for long output on a terminal: INTERN_TUI_PAGER, else PAGER, else `less -FRX` (quits
 * when the text fits, keeps colours, leaves it on the screen); none when set empty or to `cat`.
 */
export function pagerOf(env: NodeJS.ProcessEnv): string | null {
  const chosen = (env.INTERN_TUI_PAGER ?? env.PAGER)?.trim();
  if (chosen === undefined) return 'less -FRX';
  return chosen === '' || chosen === 'cat' ? null : chosen;
}

export const lineCount = (text: string) => (text.match(/\n/g) ?? []).length;

/**
 * Runs the pager (through the shell, as git and gh run $PAGER) on the terminal with `text` on its
 * stdin. Answers whether it was shown: one that cannot be run (not installed: the shell's 127)
 * leaves the text to be printed as it is.
 */
export async function runPager(pager: string, text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const { spawn } = await importExternal<typeof ChildProcess>('node:child_process');
  return new Promise<boolean>((resolve) => {
    const child = spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code !== 127 && code !== 126));
    // q before the end: the rest is not wanted.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
}
