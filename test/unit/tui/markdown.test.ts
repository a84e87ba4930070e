/** Markdown for terminals: structure from marked's lexer, wrapping, links, and nothing raw from the server. */
import { describe, expect, it } from 'vitest';
import { osc8, renderMarkdown, safeHref, supportsHyperlinks } from '../../../src/tui/markdown.js';
import { wrapSegments } from '../../../src/tui/wrap.js';

const text = (rows: ReturnType<typeof renderMarkdown>) => rows.map((r) => r.map((s) => s.text).join(''));

describe('renderMarkdown', () => {
  it('renders headings, lists, code blocks, bold and inline code without their markup', () => {
    const rows = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n  1. nested\n\n```js\nconst a = 1;\n```', { width: 40, hyperlinks: false });
    expect(text(rows)).toEqual(['Title', '', 'Some bold and code.', '', '• one', '• two', '  1. nested', '', '┌─ js ', '│ const a = 1;', '└─']);
    const bold = rows[2]!.find((s) => s.text.includes('bold'));
    expect(bold?.bold).toBe(true);
    expect(rows[2]!.find((s) => s.text === 'code')?.code).toBe(true);
    expect(rows[0]![0]!.bold).toBe(true);
  });

  it('keeps the columns of a code block that aligns them with tabs (ls), the stops counted from the code\'s own line start', () => {
    const rows = renderMarkdown('```\nbin\tetc\nlost+found\tz\n```', { width: 40, hyperlinks: false });
    expect(text(rows)).toEqual(['┌─', '│ bin     etc', '│ lost+found      z', '└─']);
  });

  it('wraps to the width, words whole', () => {
    const rows = renderMarkdown('alpha beta gamma delta epsilon', { width: 12, hyperlinks: false });
    expect(text(rows)).toEqual(['alpha beta ', 'gamma delta ', 'epsilon']);
    expect(text(wrapSegments([{ text: 'x'.repeat(25) }], 10))).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    // A width not known yet (NaN) or under a cell wraps a cell a row rather than never ending.
    expect(text(wrapSegments([{ text: 'abc' }], Number.NaN))).toEqual(['a', 'b', 'c']);
    expect(text(wrapSegments([{ text: 'ab' }], 0))).toEqual(['a', 'b']);
  });

  it('shows links as OSC 8 targets when supported, else with the address after the text', () => {
    const md = 'see [the docs](https://example.com/a) and [bad](javascript:alert(1))';
    const plain = text(renderMarkdown(md, { width: 80, hyperlinks: false }))[0];
    expect(plain).toBe('see the docs (https://example.com/a) and bad');
    const linked = renderMarkdown(md, { width: 80, hyperlinks: true })[0]!;
    expect(linked.find((s) => s.text.startsWith('docs'))?.href).toBe('https://example.com/a');
    expect(linked.find((s) => s.text === 'bad')?.href).toBeUndefined();
    // With hyperlinks the words hide the address: the host is written after them, so a link
    // saying one bank and leading elsewhere shows where it leads.
    expect(text(renderMarkdown(md, { width: 80, hyperlinks: true }))[0]).toBe('see the docs (example.com) and bad');
    const phish = renderMarkdown('[https://bank.example](https://evil.example/login)', { width: 80, hyperlinks: true })[0]!;
    expect(text([phish])[0]).toBe('https://bank.example (evil.example)');
    expect(text(renderMarkdown('<https://bank.example>', { width: 80, hyperlinks: true }))[0]).toBe('https://bank.example');
    expect(safeHref('https://x.test/\x1b]0;')).toBeUndefined();
    expect(osc8('https://x.test')).toBe('\x1b]8;;https://x.test\x07');
    expect(supportsHyperlinks({ FORCE_HYPERLINK: '1' })).toBe(true);
    expect(supportsHyperlinks({ TERM: 'dumb' })).toBe(false);
  });

  it('removes escape sequences, controls and bidi overrides from every string', () => {
    const rows = renderMarkdown('a \x1b[31mred\x1b[0m \x1b]0;title\x07b\u202e `c\x07` &amp; <b>', { width: 80, hyperlinks: false });
    const all = text(rows).join('\n');
    expect(all).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(all).toContain('a red b');
    expect(all).toContain('& <b>');
  });
});
