/** Code colours: loaded on first use, given sanitised text, and giving back exactly that text in coloured segments. */
import { describe, expect, it } from 'vitest';
import { loadedHighlighter, wantHighlighter } from '../../../src/tui/highlightLoader.js';
import { TranscriptLayout } from '../../../src/tui/screens/chat/transcript.js';
import { newTurn } from '../../../src/tui/screens/chatModel.js';
import { theme } from '../../../src/tui/theme.js';

describe('highlightLine', () => {
  it('is nothing until loaded, then colours a known language and gives back its text unchanged', async () => {
    expect(loadedHighlighter()).toBeNull();
    await wantHighlighter();
    const highlightLine = loadedHighlighter()!;
    const segs = highlightLine('const a = "x<y & z"; // <span>', 'js')!;
    expect(segs.map((s) => s.text).join('')).toBe('const a = "x<y & z"; // <span>');
    expect(segs.find((s) => s.text === 'const')?.color).toBe(theme.accent);
    expect(segs.find((s) => s.text.includes('"x<y'))?.color).toBe(theme.success);
    expect(segs.find((s) => s.text.includes('// <span>'))?.dim).toBe(true);
    expect(highlightLine('whatever', 'no-such-language')).toBeNull();
    expect(highlightLine('echo "$HOME"', 'sh')!.map((s) => s.text).join('')).toBe('echo "$HOME"');
  });

  it('colours the rows of a laid-out code block once given to the layout, and asks for it before', async () => {
    const turn = { ...newTurn('p'), answer: '```python\ndef f():\n    return 1\n```', status: 'done' as const };
    const asked: string[] = [];
    const plain = new TranscriptLayout().update([turn], { width: 40, folded: false, hyperlinks: false, onLang: (l) => asked.push(l) });
    const row = (l: TranscriptLayout) => l.slice(0, l.total).map((r) => r.row).find((r) => r.some((s) => s.text.includes('def')))!;
    expect(row(plain).every((s) => s.color === undefined)).toBe(true);
    expect(asked).toContain('python');
    await wantHighlighter();
    const coloured = new TranscriptLayout().update([turn], { width: 40, folded: false, hyperlinks: false, highlight: loadedHighlighter()! });
    expect(row(coloured).find((s) => s.text === 'def')?.color).toBe(theme.accent);
    // The code block is still the one `c` copies.
    expect(row(coloured).find((s) => s.block)?.block?.text).toBe('def f():\n    return 1');
  });
});
