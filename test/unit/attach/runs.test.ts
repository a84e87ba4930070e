import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { lineRuns } from '../../../src/attach/runs.js';

async function terminal(data: string, cols = 20): Promise<xterm.Terminal> {
  const term = new xterm.Terminal({ cols, rows: 4, allowProposedApi: true });
  await new Promise<void>((r) => term.write(data, r));
  return term;
}

const runsOf = (term: xterm.Terminal, y: number, cursorX?: number) => lineRuns(term, y, term.buffer.active.getNullCell(), cursorX);

describe('a row as styled runs', () => {
  it('joins cells of one look into a run, in the colour words Ink takes, and drops trailing default blanks', async () => {
    const term = await terminal('ab\x1b[1;31mcd\x1b[0m \x1b[38;5;200me\x1b[38;2;1;2;3mf\x1b[44;92mg\x1b[0m   ');
    expect(runsOf(term, 0)).toEqual([
      { text: 'ab', style: {} },
      { text: 'cd', style: { color: 'red', bold: true } },
      { text: ' ', style: {} },
      { text: 'e', style: { color: 'ansi256(200)' } },
      { text: 'f', style: { color: '#010203' } },
      { text: 'g', style: { color: 'greenBright', backgroundColor: 'blue' } },
    ]);
  });

  it('keeps a coloured blank, and gives an empty row no runs', async () => {
    const term = await terminal('\x1b[41m  \x1b[0m');
    expect(runsOf(term, 0)).toEqual([{ text: '  ', style: { backgroundColor: 'red' } }]);
    expect(runsOf(term, 1)).toEqual([]);
  });

  it('draws the cursor as an inverse cell, past the text too, and turns an inverse cell back', async () => {
    const term = await terminal('$ ls\r\n\x1b[7mx\x1b[0m');
    expect(runsOf(term, 0, 1)).toEqual([{ text: '$', style: {} }, { text: ' ', style: { inverse: true } }, { text: 'ls', style: {} }]);
    expect(runsOf(term, 0, 6)).toEqual([{ text: '$ ls  ', style: {} }, { text: ' ', style: { inverse: true } }]);
    expect(runsOf(term, 1, 0)).toEqual([{ text: 'x', style: {} }]);
  });

  it('writes a wide character once, and one cut by the right edge as a blank', async () => {
    const term = await terminal('a界b');
    expect(runsOf(term, 0)).toEqual([{ text: 'a界b', style: {} }]);
    const narrow = await terminal('abc界', 4);
    expect(runsOf(narrow, 0).map((r) => r.text).join('')).not.toContain('界');
  });
});
