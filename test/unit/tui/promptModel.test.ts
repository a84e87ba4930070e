/** The chat prompt's model: editing lines, walking the history, ^r's search, and the rows it lays out. */
import { describe, expect, it } from 'vitest';
import * as P from '../../../src/tui/screens/chat/promptModel.js';

const at = (value: string, cursor = value.length): P.PromptState => ({ ...P.promptState(value), cursor });
const HISTORY = ['deploy staging', 'check\nlogs', 'deploy production'];

describe('editing', () => {
  it('inserts, breaks lines and erases by grapheme', () => {
    let s = P.insert(at('ab', 1), 'X');
    expect([s.value, s.cursor]).toEqual(['aXb', 2]);
    s = P.newline(s);
    expect(s.value).toBe('aX\nb');
    expect(P.erase(at('a👍🏽')).value).toBe('a');
    expect(P.killLineStart(at('one\ntwo three', 8)).value).toBe('one\nthree');
    expect(P.killWord(at('one two', 7)).value).toBe('one ');
    expect(P.killLine(at('one\ntwo', 1)).value).toBe('o\ntwo');
  });

  it('moves between lines keeping the column as far as the line allows', () => {
    const s = at('long line\nab\nlonger line', 8);
    const down = P.lineMove(s, 1);
    expect(down.cursor).toBe(12); // end of "ab"
    expect(P.lineMove(down, 1).cursor).toBe(15); // column 2 of the third line
    expect(P.lineMove(at('x\ny', 0), -1).cursor).toBe(0);
  });
});

describe('history', () => {
  it('up from the first line recalls the newest, then older; down walks forward and back to what was typed', () => {
    let s = at('draft');
    s = P.historyBack(s, HISTORY);
    expect(s.value).toBe('deploy production');
    s = P.historyBack(s, HISTORY);
    expect(s.value).toBe('check\nlogs');
    // The recalled prompt's cursor is on its first line: up goes on.
    expect(P.onFirstLine(s)).toBe(true);
    s = P.historyBack(s, HISTORY);
    expect(s.value).toBe('deploy staging');
    expect(P.historyBack(s, HISTORY).value).toBe('deploy staging'); // the oldest stays
    s = P.historyForward(s, HISTORY);
    expect(s.value).toBe('check\nlogs');
    expect(s.cursor).toBe(s.value.length);
    s = P.historyForward(P.historyForward(s, HISTORY), HISTORY);
    expect([s.value, s.browse]).toEqual(['draft', null]);
  });

  it('up on a later line moves up a line; down on an earlier line moves down; down typed without a walk does nothing', () => {
    expect(P.historyBack(at('a\nb'), HISTORY).value).toBe('a\nb');
    expect(P.historyForward(at('a\nb', 0), HISTORY).cursor).toBe(2);
    expect(P.historyForward(at('x'), HISTORY)).toEqual(at('x'));
    expect(P.historyBack(at(''), []).value).toBe('');
  });

  it('typing ends the walk: what was recalled is now the draft', () => {
    const s = P.insert(P.historyBack(at(''), HISTORY), '!');
    expect(s.browse).toBeNull();
    expect(P.historyForward(s, HISTORY).value).toBe('deploy production!');
  });
});

describe('^r search', () => {
  it('finds the newest match as typed, an older one with ^r again, and takes it or puts back the prompt', () => {
    let s = P.searchBack(at('typed'), HISTORY);
    expect(s.search).toMatchObject({ query: '', at: -1 });
    s = P.searchType(s, HISTORY, 'deploy');
    expect(s.search!.at).toBe(2);
    s = P.searchBack(s, HISTORY);
    expect(s.search!.at).toBe(0);
    expect(P.searchBack(s, HISTORY).search!.at).toBe(0); // no older one: stays
    expect(P.searchAccept(s, HISTORY)).toMatchObject({ value: 'deploy staging', search: null });
    expect(P.searchCancel(s)).toMatchObject({ value: 'typed', cursor: 5, search: null });
    const none = P.searchType(s, HISTORY, 'nowhere');
    expect(none.search!.at).toBe(-1);
    expect(P.searchAccept(none, HISTORY).value).toBe('typed');
    expect(P.searchType(s, HISTORY, 'logs').search!.at).toBe(1);
  });
});

describe('layout', () => {
  it('wraps lines to the width and shows at most PROMPT_ROWS_MAX rows around the cursor', () => {
    const { rows, total } = P.promptLayout('abcdefghij', 10, 5);
    expect(total).toBe(3);
    expect(rows.map((r) => r.text)).toEqual(['abcd', 'efgh', 'ij']);
    expect(rows[2]!.cursorAt).toBe(2);
    const many = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n');
    const end = P.promptLayout(many, many.length, 40);
    expect(end.rows).toHaveLength(P.PROMPT_ROWS_MAX);
    expect(end.rows.at(-1)!.text).toBe('l9');
    const start = P.promptLayout(many, 0, 40);
    expect(start.rows[0]).toEqual({ text: 'l0', cursorAt: 0 });
    expect(P.promptRows(P.promptState(many), 40)).toBe(P.PROMPT_ROWS_MAX);
    expect(P.promptRows(P.promptState(''), 40)).toBe(1);
  });

  it('measures wide characters by their cells', () => {
    // Five cells less one for the cursor: two wide characters a row.
    const { rows } = P.promptLayout('漢字漢字', 3, 5);
    expect(rows).toEqual([{ text: '漢字', cursorAt: -1 }, { text: '漢字', cursorAt: 1 }]);
  });
});
