/**
 * What ChatScreen needs of saved conversations and the prompt history (saved.ts): the stores of
 * this profile and host, the intern's latest conversation on the chat's first opening, a turn
 * saved when it changes, the service's session checked against the saved one, and the keys that
 * start a new conversation (^l) and open the list (^g).
 */
import type { Key } from 'ink';
import { useEffect, useMemo } from 'react';
import type { Intern } from '../../../contract/intern.js';
import { sanitize } from '../../../text.js';
import { useTui } from '../../context.js';
import { keyLabel, matches } from '../../keymap.js';
import type { Conversation } from '../chatModel.js';
import { chatStores, restoreLatest, saveTurn, sessionReplaced, startNew } from './saved.js';

/** The first of several problems, and how many more (one line for the flash). */
const oneLine = (problems: string[]) => `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;

export function useSavedChat(convo: Conversation, id: string, intern: Intern | undefined) {
  const { api, nav, options } = useTui();
  const stores = useMemo(() => chatStores(options.stateDir, options.profile, options.host, api), [options.stateDir, options.profile, options.host, api]);
  const skipped = useMemo(() => (stores.conversations ? restoreLatest(convo, stores.conversations, id) : []), [convo, stores, id]);
  useEffect(() => {
    const problems = [...skipped, stores.history.takeProblem()].filter((p): p is string => Boolean(p));
    if (problems.length) nav.flash(oneLine(problems), 'error');
  }, [skipped, stores, nav]);

  /** Saves the turn at `at` as it now stands (one the service took). */
  const save = (at: number): void => {
    const problem = saveTurn(convo, stores.conversations, { id, name: intern?.name ?? id }, at);
    if (problem) nav.flash(problem, 'error');
  };
  return {
    stores,
    save,
    /** The turn at `at`, still running as the chat is left, as cancelled (saved so). */
    cancelled(at: number): void {
      convo.turns[at] = { ...convo.turns[at]!, status: 'cancelled' };
      save(at);
    },
    /**
     * A session id the service named, answered back: said when it is not the saved one (the
     * service no longer knew that one).
     */
    sessionNamed(sessionId: string): string {
      const gone = sessionReplaced(convo, sessionId);
      if (gone) nav.flash(`the service no longer knows session ${sanitize(gone).slice(0, 24)}: the conversation goes on in a new one (the intern does not remember the earlier turns)`, 'error');
      return sessionId;
    },
    /** ^l and ^g; answers whether the key was one of them. `busy`: a turn runs or waits. */
    handleKey(ch: string, key: Key, busy: boolean, fresh: () => void): boolean {
      const list = matches('conversations', ch, key);
      if (!list && !matches('newConversation', ch, key)) return false;
      if (busy) nav.flash(`the turn is still running or waiting: ${keyLabel('chatCancel')} cancels it first`, 'error');
      else if (list) {
        if (stores.conversations) nav.push({ name: 'chatSessions', id, seed: intern });
        else nav.flash('no state folder (HOME or XDG_STATE_HOME): conversations are not saved', 'error');
      } else if (convo.turns.length === 0) nav.flash('this conversation is new already');
      else {
        startNew(convo);
        fresh();
        nav.flash(stores.conversations ? `a new conversation (the last one is saved: ${keyLabel('conversations')} lists them)` : 'a new conversation');
      }
      return true;
    },
  };
}
