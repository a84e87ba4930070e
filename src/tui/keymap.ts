/**
 * The one keymap: every binding with its keys, its description and its scope.
 * Every key test in the TUI goes through `matches` (a unit test checks that each
 * binding is matched somewhere and that scopes active together share no key);
 * the footer, the `?` overlay and the README's key table list from it.
 */
import type { Key } from 'ink';
import { DETACH_NAME } from '../attach/detach.js';
import { widthOf } from '../text.js';

export type Scope =
  | 'always'
  | 'global'
  | 'overlay'
  | 'cursor'
  | 'list'
  | 'paged'
  | 'intern'
  | 'provisionable'
  | 'suspendable'
  | 'byok'
  | 'form'
  | 'formSave'
  | 'formCreate'
  | 'byokEdit'
  | 'choice'
  | 'picker'
  | 'text'
  | 'textArea'
  | 'longField'
  | 'prompt'
  | 'palette'
  | 'confirm'
  | 'attach'
  | 'history'
  | 'replay'
  | 'recordings'
  | 'internList'
  | 'sortable'
  | 'pickField'
  | 'chooser'
  | 'chooserMulti'
  | 'hostField'
  | 'vault'
  | 'vaultIntern'
  | 'chat'
  | 'chatPrompt'
  | 'promptSearch'
  | 'chatSessions'
  | 'transcript'
  | 'permission'
  | 'question'
  | 'questionText'
  | 'split'
  | 'splitChat'
  | 'marking'
  | 'bulkRunning'
  | 'bulkDone';

export interface Binding {
  id: string;
  keys: string[];
  /** The keys as the footer shows them; '' keeps the binding out of the footer (its pair carries it). */
  label: string;
  /** What it does; '' keeps it out of the help too (its pair's help says it). */
  help: string;
  /**
   * What the footer says it does, where the help's words are too long for one line of keys (the
   * default is the help up to its first parenthesis); false keeps a key out of the footer, and in
   * the help: one everyone knows (the text fields' editing keys), or one the footer has no room
   * for (copying an id).
   */
  footer?: string | false;
  scope: Scope;
}

export const KEYMAP = [
  { id: 'interrupt', keys: ['ctrl+c'], label: '^c', help: 'quit', scope: 'always' },
  { id: 'toShell', keys: ['ctrl+z'], label: '^z', help: 'suspend to the shell (fg comes back)', footer: 'suspend', scope: 'always' },
  { id: 'help', keys: ['?'], label: '?', help: 'help', scope: 'global' },
  { id: 'back', keys: ['q'], label: 'q', help: 'back / quit', scope: 'global' },
  { id: 'cancel', keys: ['escape'], label: 'esc', help: 'back / cancel (a filter, then marks)', scope: 'global' },
  { id: 'palette', keys: [':'], label: ':', help: 'command palette (commands below)', scope: 'global' },
  { id: 'interns', keys: ['i'], label: 'i', help: 'interns', scope: 'global' },
  { id: 'byok', keys: ['b'], label: 'b', help: 'BYOK credentials', scope: 'global' },
  { id: 'refresh', keys: ['r'], label: 'r', help: 'refresh / retry', scope: 'global' },
  { id: 'exactTimes', keys: ['T'], label: 'T', help: 'exact times / how long ago', footer: 'times: exact', scope: 'global' },
  { id: 'closeOverlay', keys: ['escape', '?', 'q'], label: 'esc', help: 'close the help', scope: 'overlay' },
  { id: 'down', keys: ['j', 'down'], label: 'j/k', help: 'move down / up', footer: 'move', scope: 'cursor' },
  { id: 'up', keys: ['k', 'up'], label: '', help: '', scope: 'cursor' },
  { id: 'top', keys: ['g', 'home'], label: 'g/G', help: 'top / bottom', footer: false, scope: 'cursor' },
  { id: 'bottom', keys: ['G', 'end'], label: '', help: '', scope: 'cursor' },
  { id: 'pageDown', keys: ['pagedown', 'ctrl+d'], label: '', help: 'page down', scope: 'cursor' },
  { id: 'pageUp', keys: ['pageup', 'ctrl+u'], label: '', help: 'page up', scope: 'cursor' },
  { id: 'open', keys: ['return'], label: 'enter', help: 'open', scope: 'list' },
  { id: 'filter', keys: ['/'], label: '/', help: 'filter', scope: 'internList' },
  { id: 'statusFilter', keys: ['f'], label: 'f/F', help: 'next / previous status filter', footer: 'status', scope: 'internList' },
  { id: 'statusFilterBack', keys: ['F'], label: '', help: '', scope: 'internList' },
  { id: 'byokFilter', keys: ['/'], label: '/', help: 'filter this page (fuzzy)', footer: 'filter', scope: 'paged' },
  { id: 'byokProvider', keys: ['p'], label: 'p', help: "a provider's keys (asks the service)", footer: 'provider', scope: 'paged' },
  { id: 'byokWorkspace', keys: ['w'], label: 'w', help: "a workspace's keys", footer: 'workspace', scope: 'paged' },
  { id: 'prevPage', keys: ['left'], label: '←/→', help: 'previous / next page', footer: 'pages', scope: 'paged' },
  { id: 'nextPage', keys: ['right'], label: '', help: '', scope: 'paged' },
  { id: 'newIntern', keys: ['n'], label: 'n', help: 'new intern', scope: 'internList' },
  { id: 'edit', keys: ['e'], label: 'e', help: 'edit settings', footer: 'edit', scope: 'intern' },
  { id: 'chat', keys: ['t'], label: 't', help: 'chat (talk)', scope: 'intern' },
  { id: 'vault', keys: ['v'], label: 'v', help: 'vault secrets', footer: 'vault', scope: 'intern' },
  { id: 'connections', keys: ['c'], label: 'c', help: 'connections', scope: 'intern' },
  { id: 'attach', keys: ['a'], label: 'a', help: 'attach', scope: 'intern' },
  { id: 'provision', keys: ['p'], label: 'p', help: 'provision', scope: 'provisionable' },
  { id: 'suspend', keys: ['s'], label: 's', help: 'suspend', scope: 'suspendable' },
  { id: 'delete', keys: ['D'], label: 'D', help: 'delete (type the name, or the count)', scope: 'intern' },
  { id: 'split', keys: ['w'], label: 'w', help: 'chat and terminal side by side', footer: 'side by side', scope: 'suspendable' },
  { id: 'copyId', keys: ['y'], label: 'y', help: 'copy its id (OSC 52)', footer: false, scope: 'intern' },
  { id: 'new', keys: ['n'], label: 'n', help: 'new credential', footer: 'new', scope: 'byok' },
  { id: 'byokEdit', keys: ['e'], label: 'e', help: 'edit credential', footer: 'edit', scope: 'byok' },
  { id: 'byokDelete', keys: ['D'], label: 'D', help: 'delete credential (asks first)', footer: 'delete', scope: 'byok' },
  { id: 'byokCopyId', keys: ['y'], label: 'y', help: 'copy its id (OSC 52)', footer: false, scope: 'byok' },
  { id: 'nextField', keys: ['tab'], label: 'tab', help: 'next / previous field', footer: 'next field', scope: 'form' },
  { id: 'prevField', keys: ['shift+tab'], label: '', help: '', scope: 'form' },
  { id: 'save', keys: ['ctrl+s'], label: '^s', help: 'save', scope: 'formSave' },
  { id: 'create', keys: ['ctrl+s'], label: '^s', help: 'create', scope: 'formCreate' },
  { id: 'editor', keys: ['ctrl+e'], label: '^e', help: 'edit the field in $EDITOR', footer: '$EDITOR', scope: 'longField' },
  { id: 'formCancel', keys: ['escape'], label: 'esc', help: 'cancel (asks before discarding edits)', scope: 'form' },
  { id: 'rotate', keys: ['ctrl+r'], label: '^r', help: 'rotate or keep the key', footer: 'key rotation', scope: 'byokEdit' },
  { id: 'toggle', keys: ['space', 'return'], label: 'space', help: 'toggle / next choice', footer: 'toggle', scope: 'choice' },
  { id: 'choicePrev', keys: ['left'], label: '←/→', help: 'previous / next choice', footer: 'choose', scope: 'choice' },
  { id: 'choiceNext', keys: ['right'], label: '', help: '', scope: 'choice' },
  { id: 'pickDown', keys: ['down'], label: '↑/↓', help: 'move in the suggestions', footer: 'suggestions', scope: 'picker' },
  { id: 'pickUp', keys: ['up'], label: '', help: '', scope: 'picker' },
  { id: 'pick', keys: ['return'], label: 'enter', help: 'take the suggestion', footer: 'take it', scope: 'picker' },
  { id: 'cursorLeft', keys: ['left'], label: '←/→', help: 'move the cursor', footer: false, scope: 'text' },
  { id: 'cursorRight', keys: ['right'], label: '', help: '', scope: 'text' },
  { id: 'lineStart', keys: ['home', 'ctrl+a'], label: '^a', help: 'start of line (home)', footer: false, scope: 'text' },
  { id: 'lineEnd', keys: ['end'], label: 'end', help: 'end of line', footer: false, scope: 'text' },
  { id: 'killLine', keys: ['ctrl+k'], label: '^k', help: 'delete to the end of the line', footer: false, scope: 'text' },
  { id: 'killLineStart', keys: ['ctrl+u'], label: '^u', help: 'delete to the start of the line', footer: false, scope: 'text' },
  { id: 'killWord', keys: ['ctrl+w'], label: '^w', help: 'delete the word to the left', footer: false, scope: 'text' },
  { id: 'erase', keys: ['backspace'], label: 'bksp', help: 'delete the character to the left', footer: false, scope: 'text' },
  { id: 'eraseForward', keys: ['delete'], label: 'del', help: 'delete the character under the cursor', footer: false, scope: 'text' },
  { id: 'newline', keys: ['return'], label: 'enter', help: 'new line', scope: 'textArea' },
  { id: 'lineUp', keys: ['up'], label: '↑/↓', help: 'line up / down', footer: 'lines', scope: 'textArea' },
  { id: 'lineDown', keys: ['down'], label: '', help: '', scope: 'textArea' },
  { id: 'accept', keys: ['return'], label: 'enter', help: 'run / apply / confirm', scope: 'prompt' },
  { id: 'dismiss', keys: ['escape'], label: 'esc', help: 'close / cancel', scope: 'prompt' },
  { id: 'completeLine', keys: ['tab'], label: 'tab', help: 'complete a command or name', footer: 'complete', scope: 'palette' },
  { id: 'openPicker', keys: ['return', 'ctrl+p'], label: 'enter', help: 'open the picker (model, vault)', footer: 'picker', scope: 'pickField' },
  { id: 'chooserUp', keys: ['up'], label: '↑/↓', help: 'move (type to filter)', scope: 'chooser' },
  { id: 'chooserDown', keys: ['down'], label: '', help: '', scope: 'chooser' },
  { id: 'chooserPageUp', keys: ['pageup'], label: '', help: 'page up / down', scope: 'chooser' },
  { id: 'chooserPageDown', keys: ['pagedown'], label: '', help: '', scope: 'chooser' },
  { id: 'chooserPick', keys: ['return'], label: 'enter', help: 'pick (a typed slug is kept as typed)', footer: 'pick', scope: 'chooser' },
  { id: 'chooserMark', keys: ['tab'], label: 'tab', help: 'mark / unmark', scope: 'chooserMulti' },
  { id: 'chooserClose', keys: ['escape'], label: 'esc', help: 'close the picker', footer: 'close', scope: 'chooser' },
  { id: 'addHost', keys: ['return'], label: 'enter', help: 'add host (bksp on empty: drop last)', footer: 'add host', scope: 'hostField' },
  { id: 'secretAdd', keys: ['a'], label: 'a', help: 'add a secret', scope: 'vault' },
  { id: 'secretReplace', keys: ['e'], label: 'e', help: 'replace the selected secret', footer: 'replace', scope: 'vault' },
  { id: 'secretDelete', keys: ['D'], label: 'D', help: 'delete the secret (asks first)', footer: 'delete', scope: 'vault' },
  { id: 'secretFilter', keys: ['/'], label: '/', help: 'filter by name or host', footer: 'filter', scope: 'vault' },
  { id: 'secretCopy', keys: ['C'], label: 'C', help: 'copy workspace secrets in', footer: 'copy workspace secrets', scope: 'vaultIntern' },
  { id: 'vaultTab', keys: ['tab'], label: 'tab', help: 'effective / own tab', footer: 'effective / own', scope: 'vaultIntern' },
  { id: 'chatCancel', keys: ['escape'], label: 'esc', help: 'cancel the turn / back', footer: 'cancel / back', scope: 'chat' },
  { id: 'scrollUp', keys: ['pageup'], label: 'pgup', help: 'page up, into the transcript', footer: 'transcript', scope: 'chat' },
  { id: 'scrollDown', keys: ['pagedown'], label: '', help: 'page down', scope: 'chat' },
  { id: 'newConversation', keys: ['ctrl+l'], label: '^l', help: 'a new conversation (this one is kept)', footer: 'new', scope: 'chat' },
  { id: 'conversations', keys: ['ctrl+g'], label: '^g', help: "the intern's past conversations", footer: 'conversations', scope: 'chat' },
  { id: 'approval', keys: ['ctrl+t'], label: '^t', help: 'approval mode manual / self-drive', footer: 'approval', scope: 'chat' },
  { id: 'reasoning', keys: ['ctrl+o'], label: '^o', help: 'fold / unfold reasoning', footer: 'reasoning', scope: 'chat' },
  { id: 'copyAnswer', keys: ['ctrl+y'], label: '^y', help: 'copy the last answer (OSC 52)', footer: 'copy', scope: 'chat' },
  { id: 'send', keys: ['return'], label: 'enter', help: 'send (steers a running turn)', footer: 'send', scope: 'chatPrompt' },
  { id: 'chatEditor', keys: ['ctrl+e'], label: '^e', help: 'write the prompt in $EDITOR', footer: '$EDITOR', scope: 'chatPrompt' },
  // alt+enter is ESC CR; shift+enter only where the terminal tells it from enter (the kitty keyboard protocol's CSI 13;2u).
  { id: 'promptNewline', keys: ['ctrl+j', 'meta+return', 'shift+return'], label: '^j', help: 'new line (or alt+enter, shift+enter)', footer: 'new line', scope: 'chatPrompt' },
  // On the prompt's first line (up) or last (down); elsewhere they move between its lines. ctrl+n
  // is only this: a new conversation is ctrl+l (below), so ctrl+n never throws a conversation away.
  { id: 'historyBack', keys: ['up', 'ctrl+p'], label: '↑/↓', help: 'earlier / later prompts', footer: false, scope: 'chatPrompt' },
  { id: 'historyForward', keys: ['down', 'ctrl+n'], label: '', help: '', scope: 'chatPrompt' },
  { id: 'promptHistorySearch', keys: ['ctrl+r'], label: '^r', help: 'search earlier prompts', footer: false, scope: 'chatPrompt' },
  { id: 'searchOlder', keys: ['ctrl+r'], label: '^r', help: 'the next older match', footer: 'older', scope: 'promptSearch' },
  { id: 'searchAccept', keys: ['return'], label: 'enter', help: 'take the match into the prompt', footer: 'take it', scope: 'promptSearch' },
  { id: 'searchCancel', keys: ['escape', 'ctrl+g'], label: 'esc', help: 'back to the prompt as it was', footer: 'cancel', scope: 'promptSearch' },
  { id: 'resumeConversation', keys: ['return'], label: 'enter', help: 'continue the conversation', footer: 'resume', scope: 'chatSessions' },
  { id: 'renameConversation', keys: ['r'], label: 'r', help: 'rename', scope: 'chatSessions' },
  { id: 'deleteConversation', keys: ['D'], label: 'D', help: 'delete (asks first)', footer: 'delete', scope: 'chatSessions' },
  { id: 'conversationsBack', keys: ['escape', 'q'], label: 'esc', help: 'back to the chat', footer: 'back', scope: 'chatSessions' },
  { id: 'transcriptDown', keys: ['j', 'down'], label: 'j/k', help: 'move by a row', footer: 'move', scope: 'transcript' },
  { id: 'transcriptUp', keys: ['k', 'up'], label: '', help: '', scope: 'transcript' },
  { id: 'transcriptTop', keys: ['g', 'home'], label: 'g/G', help: 'top / bottom', footer: false, scope: 'transcript' },
  { id: 'transcriptBottom', keys: ['G', 'end'], label: '', help: '', scope: 'transcript' },
  { id: 'prevTurn', keys: ['['], label: '[/]', help: 'previous / next turn', footer: 'turns', scope: 'transcript' },
  { id: 'nextTurn', keys: [']'], label: '', help: '', scope: 'transcript' },
  { id: 'transcriptSearch', keys: ['/', 'ctrl+f'], label: '/', help: 'search the transcript', footer: 'search', scope: 'transcript' },
  { id: 'nextMatch', keys: ['n'], label: 'n/N', help: 'next / previous match', footer: 'matches', scope: 'transcript' },
  { id: 'prevMatch', keys: ['N'], label: '', help: '', scope: 'transcript' },
  { id: 'copyMessage', keys: ['y'], label: 'y', help: 'copy the message at the cursor', footer: 'copy', scope: 'transcript' },
  { id: 'copyCode', keys: ['c'], label: 'c', help: 'copy the code block at the cursor', footer: 'copy code', scope: 'transcript' },
  { id: 'foldTool', keys: ['return'], label: 'enter', help: 'expand / fold the tool call', footer: 'fold', scope: 'transcript' },
  { id: 'optionPick', keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], label: '1-9', help: 'answer with that option', footer: 'answer', scope: 'permission' },
  { id: 'optionUp', keys: ['up'], label: '↑/↓', help: 'move between the options', footer: 'move', scope: 'permission' },
  { id: 'optionDown', keys: ['down'], label: '', help: '', scope: 'permission' },
  { id: 'optionAccept', keys: ['return'], label: 'enter', help: 'answer with the selected option', footer: 'answer', scope: 'permission' },
  { id: 'questionNext', keys: ['tab'], label: 'tab', help: 'next / previous field', footer: 'fields', scope: 'question' },
  { id: 'questionPrev', keys: ['shift+tab'], label: '', help: '', scope: 'question' },
  { id: 'questionSubmit', keys: ['ctrl+s'], label: '^s', help: 'answer the question', footer: 'answer', scope: 'question' },
  { id: 'questionDecline', keys: ['ctrl+d'], label: '^d', help: 'decline the question', footer: 'decline', scope: 'question' },
  { id: 'questionEnter', keys: ['return'], label: 'enter', help: 'next field; answers on the last', footer: 'next field', scope: 'questionText' },
  { id: 'yes', keys: ['y'], label: 'y', help: 'confirm', scope: 'confirm' },
  { id: 'no', keys: ['n', 'escape'], label: 'n', help: 'cancel', scope: 'confirm' },
  { id: 'detach', keys: [DETACH_NAME, 'escape', 'q'], label: '^]', help: 'detach (esc, q too until attached)', scope: 'attach' },
  { id: 'attachProvision', keys: ['p'], label: 'p', help: 'provision it, then attach', footer: 'provision', scope: 'attach' },
  { id: 'attachRetry', keys: ['r'], label: 'r', help: 'retry', scope: 'attach' },
  { id: 'historySearch', keys: ['/'], label: '/', help: 'search forward (capital: match case)', footer: 'search', scope: 'history' },
  { id: 'historySearchBack', keys: ['?'], label: '?', help: 'search backward', scope: 'history' },
  { id: 'historyNext', keys: ['n'], label: 'n/N', help: 'next / previous match', footer: 'next', scope: 'history' },
  { id: 'historyPrevious', keys: ['N'], label: '', help: '', scope: 'history' },
  { id: 'historySelect', keys: ['v'], label: 'v', help: 'start or drop a selection', footer: 'select', scope: 'history' },
  { id: 'historyCopy', keys: ['y'], label: 'y', help: 'copy (OSC 52), back to live', footer: 'copy', scope: 'history' },
  { id: 'historyUp', keys: ['k', 'up'], label: 'hjkl', help: 'move the cursor (arrows too)', footer: 'move', scope: 'history' },
  { id: 'historyDown', keys: ['j', 'down'], label: '', help: '', scope: 'history' },
  { id: 'historyLeft', keys: ['h', 'left'], label: '', help: '', scope: 'history' },
  { id: 'historyRight', keys: ['l', 'right'], label: '', help: '', scope: 'history' },
  { id: 'historyLineStart', keys: ['0', 'home'], label: '0/$', help: 'start / end of the line', footer: false, scope: 'history' },
  { id: 'historyLineEnd', keys: ['$', 'end'], label: '', help: '', scope: 'history' },
  { id: 'historyTop', keys: ['g'], label: 'g/G', help: 'top of history / live screen\'s end', footer: false, scope: 'history' },
  { id: 'historyBottom', keys: ['G'], label: '', help: '', scope: 'history' },
  { id: 'historyPageUp', keys: ['ctrl+b', 'pageup'], label: '^b/^f', help: 'page up / down', footer: false, scope: 'history' },
  { id: 'historyPageDown', keys: ['ctrl+f', 'pagedown'], label: '', help: '', scope: 'history' },
  { id: 'historyExit', keys: ['q', 'escape'], label: 'q', help: 'back to live (other keys too, typed)', footer: 'live', scope: 'history' },
  { id: 'replayPause', keys: ['space'], label: 'space', help: 'pause / play', footer: 'pause', scope: 'replay' },
  { id: 'replayBack', keys: ['left'], label: '←/→', help: 'back / on 5 seconds', footer: 'seek', scope: 'replay' },
  { id: 'replayForward', keys: ['right'], label: '', help: '', scope: 'replay' },
  { id: 'replayQuit', keys: ['q', 'escape'], label: 'q', help: 'stop playing', footer: 'quit', scope: 'replay' },
  { id: 'splitFocus', keys: ['f6'], label: 'F6', help: 'focus the other pane', footer: 'other pane', scope: 'split' },
  { id: 'splitShrink', keys: ['f7'], label: 'F7/F8', help: 'narrower / wider chat', footer: 'resize', scope: 'splitChat' },
  { id: 'splitGrow', keys: ['f8'], label: '', help: '', scope: 'splitChat' },
  // k9s's manner: shift and the column's letter sorts by it, again the other way; o steps through the columns.
  { id: 'sortNext', keys: ['o'], label: 'o/O', help: 'sort by the next column / reverse', footer: 'sort', scope: 'sortable' },
  { id: 'sortReverse', keys: ['O'], label: '', help: '', scope: 'sortable' },
  { id: 'sortName', keys: ['N'], label: 'N', help: 'sort by name (again: reverse)', footer: false, scope: 'sortable' },
  { id: 'sortStatus', keys: ['S'], label: 'S', help: 'sort by status (running first)', footer: false, scope: 'sortable' },
  { id: 'sortModel', keys: ['M'], label: 'M', help: 'sort by model', footer: false, scope: 'sortable' },
  { id: 'sortHost', keys: ['H'], label: 'H', help: 'sort by host', footer: false, scope: 'sortable' },
  { id: 'sortAge', keys: ['A'], label: 'A', help: 'sort by age (newest first)', footer: false, scope: 'sortable' },
  { id: 'sortProvider', keys: ['P'], label: 'P', help: 'sort by provider', footer: false, scope: 'sortable' },
  { id: 'chooserSort', keys: ['ctrl+o'], label: '^o/^r', help: 'sort by the next column / reverse', footer: 'sort', scope: 'chooser' },
  { id: 'chooserSortReverse', keys: ['ctrl+r'], label: '', help: '', scope: 'chooser' },
  { id: 'mark', keys: ['space'], label: 'space', help: 'mark / unmark (s, p, D act on marks)', footer: 'mark', scope: 'marking' },
  { id: 'markShown', keys: ['*'], label: '*', help: 'mark all shown (again: unmark them)', footer: false, scope: 'marking' },
  { id: 'bulkStop', keys: ['escape'], label: 'esc', help: 'stop (those under way finish)', footer: 'stop', scope: 'bulkRunning' },
  { id: 'bulkClose', keys: ['escape', 'return', 'q'], label: 'esc', help: 'close (failed rows stay marked)', footer: 'close', scope: 'bulkDone' },
  { id: 'recordingDelete', keys: ['D'], label: 'D', help: 'delete the recording (asks first)', footer: 'delete', scope: 'recordings' },
] as const satisfies readonly Binding[];

/**
 * The scopes of a focused text field, by what it holds: one line; one line that $EDITOR edits too
 * (a description, a secret's value); several lines that $EDITOR edits (instructions).
 */
export const TEXT_FIELD_SCOPES = {
  line: ['text'],
  long: ['text', 'longField'],
  area: ['text', 'textArea', 'longField'],
} as const satisfies Record<string, readonly Scope[]>;
export type TextFieldKind = keyof typeof TEXT_FIELD_SCOPES;

/** A form's sets: the form's own scopes with those of its focused field, for a form that saves and one that creates. */
const formSets = (...fields: (readonly Scope[])[]): Scope[][] => fields.flatMap((f) => [['always', 'formSave', 'form', ...f], ['always', 'formCreate', 'form', ...f]]);

/**
 * The scopes that are live at the same time somewhere in the TUI. Within one set
 * no key may belong to two bindings (checked by a unit test).
 */
export const SCOPES_TOGETHER: Scope[][] = [
  ['always', 'global', 'cursor', 'list', 'intern', 'provisionable', 'suspendable'],
  ['always', 'global', 'cursor', 'list', 'paged', 'byok', 'sortable', 'marking'],
  ['always', 'global', 'byok'],
  ['always', 'overlay', 'cursor'],
  ...formSets(
    ['byokEdit', 'text', 'picker'],
    ['byokEdit', 'choice'],
    ...Object.values(TEXT_FIELD_SCOPES),
    ['choice'],
    ['pickField'],
    ['text', 'hostField'],
  ),
  ['always', 'prompt', 'text'],
  ['always', 'palette', 'prompt', 'text'],
  ['always', 'confirm'],
  ['always', 'attach'],
  ['always', 'split'],
  ['always', 'history'],
  ['always', 'replay'],
  ['always', 'global', 'cursor', 'list', 'recordings', 'sortable'],
  ['always', 'global', 'cursor', 'list', 'internList', 'intern', 'provisionable', 'suspendable', 'sortable', 'marking'],
  ['always', 'confirm', 'cursor'],
  ['always', 'bulkRunning', 'cursor'],
  ['always', 'bulkDone', 'cursor'],
  ['always', 'chooser', 'text'],
  ['always', 'chooser', 'chooserMulti', 'text'],
  ['always', 'global', 'cursor', 'vault', 'vaultIntern', 'sortable', 'marking'],
  ['always', 'chat', 'chatPrompt', 'text', 'split', 'splitChat'],
  ['always', 'promptSearch', 'text', 'split', 'splitChat'],
  ['always', 'chatSessions', 'cursor', 'sortable'],
  ['always', 'chat', 'transcript', 'split', 'splitChat'],
  ['always', 'chat', 'permission', 'split', 'splitChat'],
  ['always', 'chat', 'question', 'questionText', 'text', 'split', 'splitChat'],
  ['always', 'chat', 'question', 'choice', 'split', 'splitChat'],
];

export type BindingId = (typeof KEYMAP)[number]['id'];
/**
 * The keymap in force: KEYMAP, or the person's remapping of it (config `keys`, keyRemap.ts), set
 * once before the first render; a key press looks its binding up by id, as with the defaults.
 */
let active: readonly Binding[] = KEYMAP;
let BY_ID = new Map<string, Binding>(KEYMAP.map((b) => [b.id, b]));

/** Makes `bindings` (KEYMAP with other keys and labels: keyRemap.ts's `remapKeymap`) the keymap in force. */
export function setKeymap(bindings: readonly Binding[]): void {
  active = bindings;
  BY_ID = new Map(bindings.map((b) => [b.id, b]));
}

/** The keymap in force, which the footer and the help list. */
export const activeKeymap = (): readonly Binding[] => active;

/** Two bindings that share a key among scopes live together (a set of SCOPES_TOGETHER). */
export interface KeyClash {
  key: string;
  first: string;
  second: string;
  scopes: Scope[];
}

/** Keys that two bindings share among scopes live together: none in KEYMAP (its unit test), and a remapping that makes one is refused. */
export function keyClashes(bindings: readonly Binding[]): KeyClash[] {
  const clashes: KeyClash[] = [];
  for (const set of SCOPES_TOGETHER) {
    const owner = new Map<string, string>();
    for (const b of bindings.filter((x) => set.includes(x.scope))) {
      for (const k of b.keys) {
        const other = owner.get(k);
        if (other && other !== b.id) clashes.push({ key: k, first: other, second: b.id, scopes: set });
        owner.set(k, b.id);
      }
    }
  }
  return clashes;
}

/** The name of a key press: `j`, `G`, `return`, `ctrl+s`, `shift+tab`, `escape`, `down`, `ctrl+]`... */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageDown) return 'pagedown';
  if (key.pageUp) return 'pageup';
  if (key.home) return 'home';
  if (key.end) return 'end';
  // alt+enter (ESC CR) and a shift+enter the terminal reports apart (kitty's CSI 13;2u) are keys of their own.
  if (key.return) return key.shift ? 'shift+return' : key.meta ? 'meta+return' : 'return';
  if (key.escape) return 'escape';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.backspace) return 'backspace';
  // The Delete key alone: the splitter hands Ink backspace's DEL as BS (keyParse.inkKey).
  if (key.delete) return 'delete';
  if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
  // ^J is a line feed, which Ink hands over as typed text.
  if (input === '\n') return 'ctrl+j';
  // ^\ ^] ^^ ^_ come through as their control byte.
  if (input.length === 1 && input >= '\x1c' && input <= '\x1f') return `ctrl+${String.fromCharCode(input.charCodeAt(0) + 64)}`;
  if (input === ' ') return 'space';
  return input;
}

export function matches(id: BindingId, input: string, key: Key): boolean {
  return (BY_ID.get(id)?.keys as readonly string[] | undefined)?.includes(keyName(input, key)) ?? false;
}

/**
 * Scopes that bring others with them. A list that is opened and filtered is moved in too; the
 * cursor keys are a scope of their own so that a screen (the vault's list) or the help can take
 * them without claiming enter, / and f, which do nothing there.
 */
const IMPLIED: Partial<Record<Scope, Scope[]>> = { list: ['cursor'] };

/** A screen's scopes with the ones they bring (IMPLIED), each once, in the order given. */
export function withImplied(scopes: readonly Scope[]): Scope[] {
  return [...new Set(scopes.flatMap((scope) => [...(IMPLIED[scope] ?? []), scope]))];
}

/** A key as the footer shows it: its label and what it does there. */
export interface Hint {
  label: string;
  text: string;
}

/** The footer's hints: bindings with a label and a footer text, the screen's own scopes first (in the order given). */
export function hints(scopes: Scope[]): (Hint & { id: BindingId })[] {
  return withImplied(scopes).flatMap((scope) =>
    (active as readonly (Binding & { id: BindingId })[])
      .filter((b) => b.scope === scope && b.label !== '' && b.footer !== false)
      .map((b) => ({ id: b.id, label: b.label, text: b.footer || b.help.split(' (')[0]! })),
  );
}

/**
 * The footer's line at a width: the hints that fit whole, in order, and the help key's always
 * (last, and right-aligned by the footer), so that a screen with more keys than room still says
 * where the rest are. Hints are two cells apart.
 */
export function footerLine(scopes: Scope[], width: number): { shown: Hint[]; help: Hint | null } {
  const all = hints(scopes);
  const help = all.find((h) => h.id === 'help') ?? null;
  const cells = (h: Hint) => widthOf(h.label) + 1 + widthOf(h.text) + 2;
  let room = width - (help ? cells(help) : 0);
  const shown: Hint[] = [];
  for (const h of all) {
    if (h === help) continue;
    room -= cells(h);
    if (room < 0) break;
    shown.push(h);
  }
  return { shown, help };
}

/** How a message names a binding's key: the footer's label, or its first key in short form. */
export function keyLabel(id: BindingId): string {
  const b = BY_ID.get(id)!;
  return b.label || shortKey(b.keys[0]!);
}

/** Every key of a binding, for a hint that names them all: `enter/^p`. */
export function keysOf(id: BindingId): string {
  return keysText(BY_ID.get(id)!);
}

export const SCOPE_TITLES: Record<Scope, string> = {
  always: 'Always',
  global: 'Everywhere',
  overlay: 'In the help',
  cursor: 'Lists, the help, long details (moving)',
  list: 'The intern and BYOK lists',
  paged: 'The BYOK list',
  intern: 'On an intern',
  provisionable: 'On a stopped or failed intern',
  suspendable: 'On a running intern',
  byok: 'BYOK credentials',
  form: 'Forms',
  formSave: 'Forms that change something',
  formCreate: 'Forms that make something new',
  byokEdit: 'Editing a credential',
  choice: 'A choice field',
  picker: 'Suggestions under a field',
  text: 'Text fields',
  textArea: 'Multi-line fields',
  longField: 'Fields that $EDITOR edits',
  prompt: 'Prompts (palette, filter, typed confirmation)',
  palette: 'The command palette (:)',
  confirm: 'Questions',
  attach: 'Attach',
  history: 'Attach history (shift+pgup; shift+pgdn back)',
  replay: 'Playing a recording',
  recordings: 'Recordings (:replay)',
  internList: 'The intern list',
  sortable: 'Sorting a list (:sort COLUMN too)',
  pickField: 'A field with a picker',
  chooser: 'Pickers (models, vaults, secrets)',
  chooserMulti: 'Pickers that mark several (secrets to copy)',
  hostField: 'The host field of a secret',
  vault: 'Vault secrets',
  vaultIntern: 'An intern\'s vault secrets',
  chat: 'Chat',
  chatPrompt: 'The chat prompt',
  promptSearch: 'Searching earlier prompts (^r)',
  chatSessions: "An intern's past conversations",
  transcript: 'The chat transcript (pgup from the prompt)',
  permission: 'A permission request',
  question: 'A question (elicitation)',
  questionText: 'A question\'s text field',
  split: 'Chat and terminal side by side (w, :split)',
  splitChat: 'Its chat, while it has the keys',
  marking: 'Lists that mark rows (interns, BYOK, vault)',
  bulkRunning: 'A bulk action under way',
  bulkDone: 'A bulk action done',
};

/** The short names the help and the footer give keys (a remapping takes them too). */
export const SHORT: Record<string, string> = { pagedown: 'pgdn', pageup: 'pgup', return: 'enter', escape: 'esc', 'meta+return': 'alt+enter', 'shift+return': 'shift+enter' };

export const shortKey = (k: string): string => SHORT[k] ?? k.replace(/^ctrl\+/, '^');

/** How a binding's keys read in the help: every key, in short form. */
export function keysText(b: Binding): string {
  return b.keys.map(shortKey).join('/');
}

/** A key that types text: no named key (enter, tab, esc, arrows, paging) and no ctrl or meta. */
export function isTyped(input: string, key: Key): boolean {
  if (!input || key.ctrl || key.meta) return false;
  const name = keyName(input, key);
  // ^J, a line feed, types one (a field keeps it or makes it a space).
  return name === input || name === 'space' || name === 'ctrl+j';
}
