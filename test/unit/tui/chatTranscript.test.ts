/** The transcript as rows, and the window a pane shows of it. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/tui/markdown.js';
import { MarkdownStream, allRows } from '../../../src/tui/markdownStream.js';
import { TranscriptLayout, follow, keepPlace, nextOf, scrollWindow, transcriptRows, turnStep } from '../../../src/tui/screens/chat/transcript.js';
import { marked } from '../../../src/tui/screens/chat/TranscriptView.js';
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

describe('TranscriptLayout', () => {
  const opts = { width: 30, folded: false, hyperlinks: false };
  const done = (prompt: string, answer: string) => ({ ...newTurn(prompt), answer, status: 'done' as const });

  it('draws what laying every turn out from scratch draws, a window at a time', () => {
    const turns = [done('a', '# Head\n\nsome text that wraps over a row or two\n\n```js\nx = 1\n```'), done('b', '- one\n- two')];
    const layout = new TranscriptLayout().update(turns, opts);
    const whole = text(transcriptRows(turns, opts));
    expect(layout.total).toBe(whole.length);
    expect(text(layout.slice(0, layout.total).map((r) => r.row))).toEqual(whole);
    expect(text(layout.slice(3, 7).map((r) => r.row))).toEqual(whole.slice(3, 7));
    expect(layout.turnOf(layout.startOf(1))).toBe(1);
    expect(layout.at(0)?.piece).toMatchObject({ kind: 'prompt', text: 'a' });
  });

  it('keeps the rows of turns that did not change (the same objects), and lays all out again at a new width', () => {
    const turns = [done('a', 'first'), done('b', 'second')];
    const layout = new TranscriptLayout().update(turns, opts);
    const row = layout.at(0)!.row;
    layout.update([...turns, done('c', 'third')], opts);
    expect(layout.at(0)!.row).toBe(row);
    layout.update(turns, { ...opts, width: 31 });
    expect(layout.at(0)!.row).not.toBe(row);
  });

  it('finds the rows that hold a text, whatever its case', () => {
    const layout = new TranscriptLayout().update([done('find me', 'nothing\n\nFIND here')], opts);
    expect(layout.find('find').map((i) => text([layout.at(i)!.row])[0])).toEqual(['you › find me', 'FIND here']);
  });
});

describe('MarkdownStream', () => {
  it('lays out text that grows as laying it out whole does, an open code block line by line', () => {
    const full = 'Running `seq`:\n\n```\n1\n2\n3\n' + 'x'.repeat(30) + '\n```\n\nExit status 0.\n\n- a\n- b';
    const md = new MarkdownStream({ width: 20, hyperlinks: false });
    for (let i = 1; i <= full.length; i++) {
      const grown = text(allRows(md.parts(full.slice(0, i))));
      expect(grown, `after ${i} characters`).toEqual(text(renderMarkdown(full.slice(0, i), { width: 20, hyperlinks: false })));
    }
  });
});

describe('moving in the transcript', () => {
  it('follow keeps the cursor row in the window, and leaves a window that shows it alone', () => {
    // 100 rows, 10 high, at the bottom: rows 90-99 show.
    expect(follow(95, 100, 10, 0)).toBe(0);
    expect(follow(89, 100, 10, 0)).toBe(1);
    expect(follow(0, 100, 10, 0)).toBe(90);
    expect(follow(99, 100, 10, 90)).toBe(0);
  });

  it('nextOf goes to the next or previous match, wrapping round', () => {
    expect(nextOf([3, 8, 20], 8, 1)).toBe(20);
    expect(nextOf([3, 8, 20], 20, 1)).toBe(3);
    expect(nextOf([3, 8, 20], 8, -1)).toBe(3);
    expect(nextOf([3, 8, 20], 3, -1)).toBe(20);
    expect(nextOf([], 3, 1)).toBeUndefined();
  });

  it('turnStep goes to the start of the next turn, or of its own (then the one before) backwards', () => {
    const layout = new TranscriptLayout().update([{ ...newTurn('a'), answer: 'x\n\ny', status: 'done' }, { ...newTurn('b'), answer: 'z', status: 'done' }], { width: 30, folded: false, hyperlinks: false });
    const second = layout.startOf(1);
    expect(turnStep(layout, 1, 1)).toBe(second);
    expect(turnStep(layout, second + 1, -1)).toBe(second);
    expect(turnStep(layout, second, -1)).toBe(0);
    expect(turnStep(layout, second, 1)).toBe(second);
  });

  it('marks every match of a search in a row, whatever its case and across segments', () => {
    const row = marked([{ text: 'an Answer, ' }, { text: 'answ', bold: true }, { text: 'er' }], 'answer');
    expect(row.map((s) => [s.text, Boolean(s.match)])).toEqual([['an ', false], ['Answer', true], [', ', false], ['answ', true], ['er', true]]);
    expect(row[3]!.bold).toBe(true);
  });
});
