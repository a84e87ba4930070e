/** The chat's first line (the intern, where the transcript is scrolled or searched, the approval mode, the reasoning's fold, the session) and what the empty transcript says. */
import { PROVISIONABLE_STATUSES, STARTING_STATUSES, type Intern } from '../../../contract/intern.js';
import type { ApprovalMode } from '../../../contract/chat.js';
import { sanitize } from '../../../text.js';
import { Text } from '../../components/Text.js';
import { keyLabel } from '../../keymap.js';
import { theme } from '../../theme.js';

export interface ChatHeaderProps {
  name: string;
  /** Rows scrolled up from the end (0: at the bottom). */
  scrolled: number;
  mode: ApprovalMode;
  folded: boolean;
  session?: string;
  /** The search applied in the transcript, with its matches and the one under the cursor (0: none). */
  search?: { query: string; count: number; at: number };
}

export function ChatHeader({ name, scrolled, mode, folded, session, search }: ChatHeaderProps) {
  return (
    <Text wrap="truncate-end">
      <Text bold>Chat with {name}</Text>
      {/* First after the name: at 80 columns the end of this line is cut. */}
      {search?.query ? <Text color={theme.accent}>{` · /${sanitize(search.query)} ${search.at ? `${search.at} of ` : ''}${search.count} (${keyLabel('nextMatch')})`}</Text> : null}
      {scrolled > 0 ? <Text color={theme.warning}>{` · scrolled ${scrolled} up (${keyLabel('scrollDown')})`}</Text> : null}
      <Text color={theme.muted}> · mode </Text>
      <Text color={mode === 'manual' ? theme.warning : theme.accent}>{mode}</Text>
      <Text color={theme.muted}>
        {' '}({keyLabel('approval')}) · reasoning {folded ? 'folded' : 'shown'} ({keyLabel('reasoning')}){session ? ` · session ${sanitize(session).slice(0, 12)}` : ''}
      </Text>
    </Text>
  );
}

/** What an empty transcript says: what to do, or why a prompt cannot be sent yet. */
export function emptyHint(intern: Intern | undefined, name: string): string {
  if (intern && intern.status !== 'running') {
    const why = PROVISIONABLE_STATUSES.includes(intern.status)
      ? `${keyLabel('provision')} provisions it on the details screen`
      : STARTING_STATUSES.includes(intern.status)
        ? 'it is on its way: wait until it runs'
        : 'it cannot run now';
    return `${name} is ${sanitize(intern.status)}: a prompt needs it running (${why}).`;
  }
  return `Type a prompt and press ${keyLabel('send')}. Markdown answers are rendered; ${keyLabel('chatCancel')} cancels a running turn.`;
}
