/**
 * Markdown for a terminal, from marked's lexer (never regular expressions over the text): headings,
 * paragraphs, lists, block quotes, code blocks, bold, italics, inline code and links. The output is
 * rows of styled segments already wrapped to a width, so a transcript can scroll by rows. Links are
 * OSC 8 hyperlinks when the terminal supports them, else `text (url)`. Every string is sanitised
 * before it becomes a segment; a link's target must be http(s) or mailto.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { sanitize } from '../text.js';
import { type CodeBlock, type Row, type Segment, wrapSegments } from './wrap.js';

export interface MarkdownOptions {
  width: number;
  hyperlinks: boolean;
  /** Colours a code block's line (the highlighter, once loaded); the text given is sanitised. */
  highlight?: (line: string, lang: string) => Segment[] | null;
}

/** Whether the terminal is known to draw OSC 8 hyperlinks (FORCE_HYPERLINK=1/0 decides outright). */
export function supportsHyperlinks(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== '0';
  if (env.TERM === 'dumb') return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.WEZTERM_PANE) return true;
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty'].includes(env.TERM_PROGRAM ?? '')) return true;
  const vte = Number(env.VTE_VERSION ?? 0);
  return vte >= 5000;
}

const SAFE_HREF = /^(https?:\/\/|mailto:)[^\s\x00-\x1f\x7f"<>\\^`{|}]+$/i;
export function safeHref(href: string): string | undefined {
  return SAFE_HREF.test(href) ? href : undefined;
}

/** Where a link leads, in a few words: its host (a mailto: link, its address). */
function hostOf(href: string): string {
  try {
    const url = new URL(href);
    return url.host || url.pathname;
  } catch {
    return href;
  }
}

/** The escape sequence that opens (or, with '', closes) an OSC 8 hyperlink. */
export function osc8(href: string): string {
  return `\x1b]8;;${href}\x07`;
}

function inline(tokens: Token[] | undefined, style: Omit<Segment, 'text'>, opts: MarkdownOptions): Segment[] {
  const out: Segment[] = [];
  for (const t of tokens ?? []) {
    switch (t.type) {
      case 'strong':
        out.push(...inline((t as Tokens.Strong).tokens, { ...style, bold: true }, opts));
        break;
      case 'em':
        out.push(...inline((t as Tokens.Em).tokens, { ...style, italic: true }, opts));
        break;
      case 'del':
        out.push(...inline((t as Tokens.Del).tokens, { ...style, dim: true }, opts));
        break;
      case 'codespan':
        out.push({ ...style, code: true, text: sanitize(decode((t as Tokens.Codespan).text)) });
        break;
      case 'br':
        out.push({ ...style, text: '\n' });
        break;
      case 'link': {
        const l = t as Tokens.Link;
        const href = safeHref(l.href);
        const label = inline(l.tokens, { ...style, href: opts.hyperlinks ? href : undefined }, opts);
        out.push(...label);
        const labelText = label.map((s) => s.text).join('');
        // A link's words can say one place and lead to another: without hyperlinks the target is
        // written after them; with them, its host, which the words cannot hide.
        if (href && labelText !== href) out.push({ ...style, dim: true, text: ` (${sanitize(opts.hyperlinks ? hostOf(href) : href)})` });
        break;
      }
      case 'image': {
        const i = t as Tokens.Image;
        out.push({ ...style, dim: true, text: `[image: ${sanitize(i.text)}]` });
        break;
      }
      case 'text': {
        const tt = t as Tokens.Text;
        if (tt.tokens && tt.tokens.length > 0) out.push(...inline(tt.tokens, style, opts));
        else out.push({ ...style, text: sanitize(decode(tt.text), { multiline: true }) });
        break;
      }
      default:
        out.push({ ...style, text: sanitize(decode('text' in t && typeof t.text === 'string' ? t.text : t.raw), { multiline: true }) });
    }
  }
  return out;
}

/** marked escapes &, <, >, " and ' in text; a terminal shows them as they are. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? _m);
}

export function codeTop(block: CodeBlock, indent: string): Row {
  return [{ text: indent, block }, { text: `┌─${block.lang ? ` ${block.lang} ` : ''}`, dim: true, block }];
}

export function codeBottom(block: CodeBlock, indent: string): Row {
  return [{ text: indent, block }, { text: '└─', dim: true, block }];
}

/** The rule at the left of a code block's rows, by block and indent: one segment for all its rows (segments are never changed). */
const RULES = new WeakMap<CodeBlock, Map<string, Segment>>();
function ruleOf(block: CodeBlock, indent: string): Segment {
  let byIndent = RULES.get(block);
  if (!byIndent) RULES.set(block, (byIndent = new Map()));
  let rule = byIndent.get(indent);
  if (!rule) byIndent.set(indent, (rule = { text: `${indent}│ `, block }));
  return rule;
}

/**
 * One line of a code block (sanitised) as rows: coloured by the highlighter when it is loaded and
 * knows the language. A line that fits (most do) is one row built directly: a long transcript is
 * mostly such rows, and each costs its two segments and nothing more.
 */
export function codeLine(line: string, block: CodeBlock, opts: MarkdownOptions, indent: string): Row[] {
  const rule = ruleOf(block, indent);
  const segs: Segment[] = (line && opts.highlight?.(line, block.lang)) || [{ text: line || ' ', code: true }];
  if (line.length <= opts.width - rule.text.length) return [[rule, ...segs]];
  return wrapSegments(segs, opts.width, rule.text).map((r) => [{ ...r[0]!, block }, ...r.slice(1)]);
}

export function block(tokens: Token[], opts: MarkdownOptions, indent: string): Row[] {
  const rows: Row[] = [];
  const w = opts.width;
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
        break;
      case 'heading': {
        const h = t as Tokens.Heading;
        const segs = inline(h.tokens, { bold: true, heading: true }, opts);
        // Bold (and underlined for the top two levels) rather than the hashes: they are markup, not text.
        rows.push(...wrapSegments(segs.map((s) => ({ ...s, underline: h.depth <= 2 })), w, indent));
        break;
      }
      case 'paragraph':
        rows.push(...wrapSegments(inline((t as Tokens.Paragraph).tokens, {}, opts), w, indent));
        break;
      case 'text': {
        const tt = t as Tokens.Text;
        rows.push(...wrapSegments(tt.tokens ? inline(tt.tokens, {}, opts) : [{ text: sanitize(decode(tt.text), { multiline: true }) }], w, indent));
        break;
      }
      case 'code': {
        const c = t as Tokens.Code;
        const block: CodeBlock = { text: sanitize(c.text, { multiline: true }), lang: c.lang ? sanitize(c.lang) : '' };
        rows.push(codeTop(block, indent));
        for (const line of block.text.split('\n')) rows.push(...codeLine(line, block, opts, indent));
        rows.push(codeBottom(block, indent));
        break;
      }
      case 'blockquote':
        rows.push(...block((t as Tokens.Blockquote).tokens, { ...opts, width: w }, `${indent}▏ `).map((r) => r.map((s) => ({ ...s, dim: true }))));
        break;
      case 'list': {
        const l = t as Tokens.List;
        const start = typeof l.start === 'number' ? l.start : 1;
        l.items.forEach((item, i) => {
          const bullet = l.ordered ? `${start + i}. ` : item.task ? (item.checked ? '[x] ' : '[ ] ') : '• ';
          const inner = block(item.tokens, opts, `${indent}${' '.repeat(bullet.length)}`);
          if (inner.length === 0) inner.push([{ text: `${indent}${' '.repeat(bullet.length)}` }]);
          // The first row's indent becomes the bullet.
          const first = inner[0]!;
          const pre = first[0]?.text ?? '';
          inner[0] = [{ text: `${pre.slice(0, pre.length - bullet.length)}${bullet}` }, ...first.slice(1)];
          rows.push(...inner);
        });
        break;
      }
      case 'hr':
        rows.push([{ text: indent }, { text: '─'.repeat(Math.max(3, Math.min(40, w - indent.length))), dim: true }]);
        break;
      case 'table': {
        const tb = t as Tokens.Table;
        const cell = (c: Tokens.TableCell) => inline(c.tokens, {}, opts).map((s) => s.text).join('');
        rows.push(...wrapSegments([{ text: tb.header.map(cell).join(' │ '), bold: true }], w, indent));
        for (const r of tb.rows) rows.push(...wrapSegments([{ text: r.map(cell).join(' │ ') }], w, indent));
        break;
      }
      default:
        rows.push(...wrapSegments([{ text: sanitize(t.raw, { multiline: true }).replace(/\n+$/, '') }], w, indent));
    }
    // A blank row between top-level blocks, not inside lists.
    if (indent === '' && t.type !== 'space' && t.type !== 'list') rows.push([]);
    if (indent === '' && t.type === 'list') rows.push([]);
  }
  return rows;
}

export function lex(text: string): Token[] | null {
  try {
    return new Lexer({ gfm: true }).lex(text);
  } catch {
    return null;
  }
}

export function trimEnd(rows: Row[]): Row[] {
  while (rows.length > 0 && rows[rows.length - 1]!.every((s) => s.text.trim() === '')) rows.pop();
  return rows;
}

/** Markdown text as wrapped, styled rows (trailing blank rows removed). */
export function renderMarkdown(text: string, opts: MarkdownOptions): Row[] {
  const tokens = lex(text);
  if (!tokens) return wrapSegments([{ text: sanitize(text, { multiline: true }) }], opts.width);
  return trimEnd(block(tokens, opts, ''));
}
