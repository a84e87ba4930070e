/**
 * Prompt history: the chat prompts a person sent, per profile, for `up`/`ctrl+p` and `ctrl+r` in
 * the chat prompt. One file a profile under the state folder, `history/<profile>.jsonl`: one JSON
 * string a line, appended as each prompt is sent (two TUIs of the same profile append whole lines,
 * see `appendLines`), at most HISTORY_MAX kept: once the file holds twice that, it is read again
 * and rewritten with its newest HISTORY_MAX (atomically; a prompt another TUI appends between the
 * read and the rename is lost). Only what the chat prompt sends is kept: never a question's field
 * (a masked one least of all). A line that is not a JSON string is skipped and said once.
 * Loaded on first use, so the TUI's start does not read it.
 */
import { join } from 'node:path';
import { appendLines, writeFileAtomic } from '../../files.js';
import { notSaved, privateDir, readLines } from './stateFiles.js';

/** How many prompts a profile's history keeps (documented in README.md). */
export const HISTORY_MAX = 1000;

/** The file of a profile's history; a configuration with no profile (flags, environment) has its own. */
export function historyPath(stateDir: string, profile: string | null): string {
  return join(stateDir, 'history', profile === null ? 'no-profile.jsonl' : `profile-${encodeURIComponent(profile)}.jsonl`);
}

export interface PromptHistory {
  /** Oldest first. */
  entries(): readonly string[];
  /** Adds a sent prompt: not an empty one, nor the same as the newest. */
  add(prompt: string): void;
  /** What went wrong reading or writing it, once (a line for the flash), else null. */
  takeProblem(): string | null;
}

/** A history kept in memory only (no state folder; component tests). */
export function memoryHistory(initial: string[] = [], max = HISTORY_MAX): PromptHistory {
  const list = [...initial];
  return {
    entries: () => list,
    add: (prompt) => {
      if (prompt.trim() === '' || list.at(-1) === prompt) return;
      list.push(prompt);
      if (list.length > max) list.splice(0, list.length - max);
    },
    takeProblem: () => null,
  };
}

function parseEntries(lines: string[]): { entries: string[]; bad: number } {
  const entries: string[] = [];
  let bad = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'string' && v !== '') entries.push(v);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { entries, bad };
}

export function fileHistory(path: string, max = HISTORY_MAX): PromptHistory {
  let list: string[] | null = null;
  /** Lines in the file, as far as this process knows (its own appends counted). */
  let fileLines = 0;
  let problem: string | null = null;
  const say = (what: string) => {
    problem ??= `prompt history ${path}: ${what}`;
  };
  const load = (): string[] => {
    if (list) return list;
    const read = readLines(path);
    if (read.problem !== undefined) {
      say(`${read.problem}; not read`);
      list = [];
      return list;
    }
    const { entries, bad } = parseEntries(read.lines);
    if (bad) say(`${bad} unreadable line${bad === 1 ? '' : 's'} skipped`);
    fileLines = read.lines.length;
    list = entries.slice(-max);
    return list;
  };
  const compact = () => {
    const read = readLines(path);
    if (read.problem !== undefined) return;
    const { entries } = parseEntries(read.lines);
    const kept = entries.slice(-max);
    writeFileAtomic(path, kept.map((e) => JSON.stringify(e) + '\n').join(''));
    fileLines = kept.length;
  };
  return {
    entries: load,
    add(prompt) {
      const entries = load();
      if (prompt.trim() === '' || entries.at(-1) === prompt) return;
      entries.push(prompt);
      if (entries.length > max) entries.splice(0, entries.length - max);
      try {
        privateDir(join(path, '..'));
        appendLines(path, JSON.stringify(prompt) + '\n');
        fileLines++;
        if (fileLines >= 2 * max) compact();
      } catch (e) {
        say(notSaved(e));
      }
    },
    takeProblem() {
      load();
      const p = problem;
      problem = null;
      return p;
    },
  };
}
