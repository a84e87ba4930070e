/** The transcript as rows, and the window a pane shows of it. */
import { describe, expect, it } from 'vitest';
import { keepPlace, scrollWindow, transcriptRows } from '../../../src/tui/screens/chat/transcript.js';
import { newTurn } from '../../../src/tui/screens/chatModel.js';

const text = (rows: { text: string }[][]) => rows.map((r) => r.map((s) => s.text).join(''));

describe('transcript rows', () => {
  it('lays a turn out as its prompt, reasoning, answer, status and a blank row', () => {
    const t = { ...newTurn('hello'), reasoning: 'think', answer: '**Hi** there', status: 'done' as const };
    expect(text(transcriptRows([t], { width: 40, folded: false, hyperlinks: false }))).toEqual(['you › hello', '┆ think', 'Hi there', '']);
    expect(text(transcriptRows([t], { width: 40, folded: true, hyperlinks: false }))[1]).toBe('▸ reasoning, 5 chars (^o unfolds)');
  });
});

describe('scrollWindow and keepPlace', () => {
  it('shows the last rows at the bottom and clamps a scroll past the top', () => {
    expect(scrollWindow(100, 10, 0)).toEqual({ top: 90, maxScroll: 90, scroll: 0 });
    expect(scrollWindow(100, 10, 25)).toEqual({ top: 65, maxScroll: 90, scroll: 25 });
    expect(scrollWindow(100, 10, 500)).toEqual({ top: 0, maxScroll: 90, scroll: 90 });
    expect(scrollWindow(5, 10, 3)).toEqual({ top: 0, maxScroll: 0, scroll: 0 });
  });

  it('scrolled back, grows with the rows added below; at the bottom, follows them', () => {
    expect(keepPlace(10, 100, 120)).toBe(30);
    expect(keepPlace(0, 100, 120)).toBe(0);
    expect(keepPlace(10, 120, 100)).toBe(10);
  });
});
