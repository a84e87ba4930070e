/**
 * Syntax colours for the chat's code blocks, by highlight.js (its core and a few common languages;
 * it knows their usual aliases: sh, js, ts, py, yml...). This module is heavy and loaded on first
 * use only (highlightLoader.ts: the first code block that names a language asks for it); until
 * then blocks are drawn plain, and neither the TUI's start nor opening the chat pays for it. A
 * line is highlighted after it was sanitised (the Markdown renderer hands sanitised text only),
 * and what comes back is turned into segments by the highlighter's own tokens, so nothing reaches
 * the terminal but the text it was given. Lines are highlighted one at a time, when drawn: a
 * construct over several lines (a block comment) is coloured line by line.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { type Token, theme } from './theme.js';
import type { Segment } from './wrap.js';

for (const [name, fn] of Object.entries({ bash, c, cpp, css, diff, go, java, javascript, json, python, ruby, rust, shell, sql, typescript, xml, yaml })) hljs.registerLanguage(name, fn);

/** Theme tokens by highlight.js's scope (the first part of its class: `hljs-title function_` is `title`), read when drawn (the theme is chosen at start). */
const TOKENS: Record<string, Token> = {
  keyword: 'accent',
  built_in: 'key',
  type: 'key',
  literal: 'warning',
  number: 'warning',
  string: 'success',
  regexp: 'success',
  symbol: 'success',
  title: 'badge',
  attr: 'key',
  attribute: 'key',
  meta: 'muted',
  comment: 'muted',
  addition: 'success',
  deletion: 'error',
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/**
 * `line` (sanitised) in coloured segments, or null when the highlighter is not loaded or does not
 * know `lang`. Text outside any scope is the terminal's own colour.
 */
export function highlightLine(line: string, lang: string): Segment[] | null {
  if (!lang || !hljs.getLanguage(lang)) return null;
  let html: string;
  try {
    html = hljs.highlight(line, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
  const out: Segment[] = [];
  const scopes: string[] = [];
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (m[1] !== undefined) scopes.push(m[1].replace(/^hljs-/, '').split(/[\s.]/)[0]!);
    else if (m[0] === '</span>') scopes.pop();
    else {
      const text = m[0].replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);
      const scope = [...scopes].reverse().find((s) => s in TOKENS);
      // Not `code`: text outside any scope is the terminal's own colour, not the plain code colour.
      out.push({ text, color: scope ? theme[TOKENS[scope]!] : undefined, dim: scope === 'comment' });
    }
  }
  return out.length > 0 ? out : null;
}
