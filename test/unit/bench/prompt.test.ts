import { execFileSync } from 'node:child_process';
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { floodLine } from '../../../bench/flood.js';
import { PROMPT, PROMPT_LINE, setPromptCommand } from '../../../bench/prompt.js';

/** The cursor's line after `chunks` are parsed by a fresh terminal the size of the bench's. */
async function cursorLineAfter(...chunks: (string | Uint8Array)[]): Promise<string> {
  const t = new xterm.Terminal({ allowProposedApi: true, cols: 100, rows: 30, scrollback: 0 });
  try {
    for (const c of chunks) await new Promise<void>((r) => t.write(c, r));
    const b = t.buffer.active;
    return (b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '').trimEnd();
  } finally {
    t.dispose();
  }
}

/** A flood stopped by ctrl+c after `cut` bytes of its lines, then the echoed ^C, the shell's newline and `prompt`. */
async function stoppedAt(cut: number, text: string, prompt: string): Promise<string> {
  return cursorLineAfter('$ cat flood.txt\r\n' + text.slice(0, cut) + '^C\r\n' + prompt);
}

// Six lines cover every kind of flood line (n % 6); the tests cut them at every character.
const text = Array.from({ length: 6 }, (_, n) => floodLine(n)).join('\r\n') + '\r\n';

describe('the bench prompt after a flood cut by ctrl+c (bench flake, issue 9 item 6)', () => {
  it('a plain "$ " prompt is lost when the cut falls just after an ESC (ESC ^ opens a string)', async () => {
    const lost: number[] = [];
    for (let cut = 0; cut <= text.length; cut++) if ((await stoppedAt(cut, text, '$ ')) !== '$') lost.push(cut);
    expect(lost.length).toBeGreaterThan(0);
    for (const cut of lost) expect(text[cut - 1]).toBe('\x1b');
  });

  it('PROMPT is drawn on a line of its own wherever the cut falls', async () => {
    const wrong: string[] = [];
    for (let cut = 0; cut <= text.length; cut++) {
      const line = await stoppedAt(cut, text, PROMPT);
      if (line !== PROMPT_LINE) wrong.push(`cut after ${JSON.stringify(text.slice(Math.max(0, cut - 8), cut))}: ${JSON.stringify(line)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('PROMPT is drawn even when no ^C is echoed (echoctl off) and the cut is in a wide character', async () => {
    const wide = floodLine(3);
    for (let cut = 0; cut <= wide.length; cut++) {
      expect(await cursorLineAfter(wide.slice(0, cut) + PROMPT)).toBe(PROMPT_LINE);
    }
    const bytes = Buffer.from(wide);
    for (let cut = 0; cut <= bytes.length; cut++) expect(await cursorLineAfter(bytes.subarray(0, cut), PROMPT)).toBe(PROMPT_LINE);
  });

  it('on a clean line PROMPT looks like "$ "', async () => {
    expect(await cursorLineAfter('output\r\n' + PROMPT + 'abc')).toBe('$ abc');
  });

  it('the command the bench types sets PS1 to exactly PROMPT in /bin/sh, and is printable text', () => {
    const cmd = setPromptCommand();
    expect(cmd).toMatch(/^[\x20-\x7e]+$/);
    const ps1 = execFileSync('/bin/sh', ['-c', `${cmd}; printf %s "$PS1"`], { encoding: 'latin1' });
    expect(ps1).toBe(PROMPT);
  });
});
