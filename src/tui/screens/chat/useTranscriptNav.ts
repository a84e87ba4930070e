/**
 * The transcript as a place to move in: pgup leaves the prompt for it, and there a cursor row
 * moves (j/k, pgup/pgdn, g/G, [ and ] by turn), `/` or ^f searches (n/N between the matches, each
 * drawn marked), `y` copies the message under the cursor, `c` the code block under it (OSC 52),
 * enter expands or folds a tool call, and esc or any typed key goes back to the prompt (the key
 * into it). The rules are the layout's and transcript.ts's; this keeps the state and reads keys.
 */
import type { Key } from 'ink';
import { useMemo, useState } from 'react';
import { isTyped, matches } from '../../keymap.js';
import { type TranscriptLayout, follow, nextOf, turnStep } from './transcript.js';

export type ChatMode = 'prompt' | 'transcript' | 'search';

export interface TranscriptNavDeps {
  layout: TranscriptLayout;
  /** The transcript window's height, and its scroll (rows up from the end). */
  height: number;
  scroll: number;
  setScroll: (scroll: number) => void;
  /** A typed key that leaves the transcript goes into the prompt. */
  type: (text: string) => void;
  copy: (text: string, what: string) => void;
  flash: (text: string) => void;
  toggleTool: (id: string) => void;
}

export function useTranscriptNav({ layout, height, scroll, setScroll, type, copy, flash, toggleTool }: TranscriptNavDeps) {
  const [mode, setMode] = useState<ChatMode>('prompt');
  const [cursor, setCursor] = useState(0);
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const total = layout.total;
  const version = layout.version;
  // Searched again when the transcript changes (a streamed row may match), never on a key that moves.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the layout is one object; its version says it changed
  const found = useMemo(() => layout.find(query), [layout, version, query]);
  const at = Math.max(0, Math.min(cursor, total - 1));

  const moveTo = (row: number) => {
    const c = Math.max(0, Math.min(row, total - 1));
    setCursor(c);
    setScroll(follow(c, total, height, scroll));
  };
  const page = Math.max(1, height - 1);

  /** Into the transcript a page up from where the prompt left it (pgup), the cursor on the window's top row. */
  const enter = () => {
    const next = scroll + page;
    const top = Math.max(0, total - height - next);
    setScroll(Math.min(next, Math.max(0, total - height)));
    setCursor(top);
    setMode('transcript');
  };

  const search = (q: string) => {
    setMode('transcript');
    setQuery(q);
    const hits = layout.find(q);
    if (!q) return;
    if (hits.length === 0) return flash(`no match for "${q}"`);
    moveTo(hits.find((r) => r >= at) ?? hits[0]!);
  };

  /** Handles a key in the transcript or its search field; false when the key is not the transcript's. */
  const handle = (ch: string, key: Key): boolean => {
    if (mode === 'search') {
      if (matches('accept', ch, key)) search(draft);
      else if (matches('dismiss', ch, key)) setMode('transcript');
      return true;
    }
    if (mode !== 'transcript') return false;
    if (matches('chatCancel', ch, key)) return (setMode('prompt'), true);
    if (matches('transcriptDown', ch, key)) moveTo(at + 1);
    else if (matches('transcriptUp', ch, key)) moveTo(at - 1);
    else if (matches('scrollDown', ch, key)) moveTo(at + page);
    else if (matches('scrollUp', ch, key)) moveTo(at - page);
    else if (matches('transcriptTop', ch, key)) moveTo(0);
    else if (matches('transcriptBottom', ch, key)) moveTo(total - 1);
    else if (matches('prevTurn', ch, key)) moveTo(turnStep(layout, at, -1));
    else if (matches('nextTurn', ch, key)) moveTo(turnStep(layout, at, 1));
    else if (matches('transcriptSearch', ch, key)) {
      setDraft(query);
      setMode('search');
    } else if (matches('nextMatch', ch, key) || matches('prevMatch', ch, key)) {
      const next = nextOf(found, at, matches('nextMatch', ch, key) ? 1 : -1);
      if (next === undefined) flash(query ? `no match for "${query}"` : `nothing searched yet (${'/'})`);
      else moveTo(next);
    } else if (matches('copyMessage', ch, key)) {
      const piece = layout.at(at)?.piece;
      if (piece) copy(piece.text, `the ${piece.kind === 'answer' ? 'answer' : piece.kind === 'prompt' ? 'prompt' : piece.kind === 'tool' ? 'tool call' : piece.kind}`);
      else flash('no message under the cursor');
    } else if (matches('copyCode', ch, key)) {
      const block = layout.at(at)?.row.find((s) => s.block)?.block;
      if (block) copy(block.text, 'the code block');
      else flash('no code block under the cursor');
    } else if (matches('foldTool', ch, key)) {
      const piece = layout.at(at)?.piece;
      if (piece?.kind === 'tool' && piece.toolId) toggleTool(piece.toolId);
      else flash('no tool call under the cursor');
    } else if (isTyped(ch, key)) {
      setMode('prompt');
      type(ch);
    } else return false;
    return true;
  };

  return { mode, cursor: at, query, found, draft, setDraft, enter, handle };
}
