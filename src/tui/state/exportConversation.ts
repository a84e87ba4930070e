/**
 * A saved conversation as a file for people or programs: Markdown that reads well on GitHub, or
 * JSON Lines with one event a line. The text is what the store read (sanitised); a prompt or a tool
 * call's arguments go in a quote or a fence that their own text cannot close.
 */
import { jsonText } from '../../text.js';
import { costText, counted } from '../format.js';
import { usageLine } from '../screens/chatModel.js';
import type { SavedConversation, SavedTurn } from './conversations.js';

export const EXPORT_FORMATS = ['md', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const when = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** A fence longer than any run of backticks in `text`. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** Inline code whose text cannot close it. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${longest ? ' ' : ''}${text}${longest ? ' ' : ''}${ticks}`;
}

/** Each line quoted; Markdown in a prompt stays Markdown, inside the quote. */
const quoted = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');

/** Escapes what would make a heading's text Markdown of its own. */
const plain = (text: string) => text.replace(/([\\`*_[\]<>#|])/g, '\\$1');

const STATUS_WORDS: Partial<Record<SavedTurn['status'], string>> = {
  cancelled: 'cancelled',
  failed: 'failed',
  waiting: 'waiting for an answer when it was saved',
  running: 'interrupted (the client ended while it ran)',
};

function turnMarkdown(t: SavedTurn, n: number): string {
  const parts = [`## ${n}. You · ${when(t.at)}`, '', quoted(t.prompt), ''];
  if (t.reasoning) parts.push('<details><summary>Reasoning</summary>', '', fenced(t.reasoning, 'text'), '', '</details>', '');
  for (const tool of t.tools) parts.push(`Tool call ${code(tool.name)}:`, '', fenced(tool.args, 'json'), '');
  for (const r of t.replies) parts.push(`*${plain(r)}*`, '');
  if (t.answer) parts.push(t.answer.trimEnd(), '');
  for (const note of t.notes) parts.push(`*${plain(note)}*`, '');
  const status = STATUS_WORDS[t.status];
  const foot = [status && `turn ${status}`, t.error && `error: ${t.error}`, t.usage && usageLine(t.usage)].filter(Boolean);
  if (foot.length) parts.push(`<sub>${plain(foot.join(' · '))}</sub>`, '');
  return parts.join('\n');
}

export function toMarkdown(c: SavedConversation): string {
  const facts = [
    `- Intern: ${plain(c.intern.name)} (${code(c.intern.id)})`,
    `- Service: ${plain(c.host)}${c.profile !== null ? `, profile ${plain(c.profile)}` : ''}`,
    `- Conversation: ${code(c.id)}${c.sessionId ? `, service session ${code(c.sessionId)}` : ''}`,
    `- Started ${when(c.created)}, last turn ${when(c.updated)}: ${counted(c.turns, 'turn')}${c.cost !== null ? `, ${costText(c.cost)}` : ''}`,
  ];
  return [`# ${plain(c.title)}`, '', ...facts, '', ...c.turnList.map((t, i) => turnMarkdown(t, i + 1))].join('\n').trimEnd() + '\n';
}

/** One event a line: the conversation, then each turn's prompt, reasoning, tool calls, replies, answer, notes and end. */
export function toJsonl(c: SavedConversation): string {
  const events: object[] = [
    { type: 'conversation', id: c.id, title: c.title, intern: c.intern, profile: c.profile, host: c.host, session_id: c.sessionId, created: when(c.created), turns: c.turns, cost: c.cost },
  ];
  c.turnList.forEach((t, i) => {
    const turn = i + 1;
    events.push({ type: 'prompt', turn, at: when(t.at), text: t.prompt });
    if (t.reasoning) events.push({ type: 'reasoning', turn, text: t.reasoning });
    for (const tool of t.tools) events.push({ type: 'tool_call', turn, name: tool.name, arguments: tool.args });
    for (const r of t.replies) events.push({ type: 'reply', turn, text: r });
    if (t.answer) events.push({ type: 'answer', turn, text: t.answer });
    for (const n of t.notes) events.push({ type: 'note', turn, text: n });
    events.push({ type: 'end', turn, status: t.status, ...(t.usage ? { usage: t.usage } : {}), ...(t.error ? { error: t.error } : {}) });
  });
  return events.map((e) => jsonText(e) + '\n').join('');
}
