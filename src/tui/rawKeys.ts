/**
 * The keymap for screens that read raw input themselves (attach's history mode, playing a
 * recording): a key event decoded by attach (`decodeInput`) is given Ink's shape and matched
 * through the keymap like any other key, so these keys live in keymap.ts with the rest.
 */
import type { Key } from 'ink';
import type { CopyAction } from '../attach/copyMode.js';
import type { KeyEvent } from '../attach/keys.js';
import { plainKey, splitKeys } from './keyParse.js';
import { keyLabel, matches } from './keymap.js';

/** An attach key event as Ink would report it: one [input, key] a key (text typed fast is several). */
export function inkKeysOf(event: KeyEvent): [string, Key][] {
  switch (event.kind) {
    case 'paste':
    case 'mouse':
      return [];
    case 'raw':
      return event.bytes === '\x1b' ? [['', { ...plainKey(''), escape: true }]] : [];
    case 'text':
      if (event.alt) return [[event.text, { ...plainKey(event.text), meta: true }]];
      // A control character alone is ctrl+letter, as Ink reports it (splitKeys does so only inside a run).
      return splitKeys(event.text, plainKey(event.text), false).map(([input, key]): [string, Key] => {
        const code = input.length === 1 ? input.charCodeAt(0) : 0;
        return code >= 1 && code <= 26 && !'\r\n\t\b'.includes(input) ? [String.fromCharCode(code + 96), { ...plainKey(''), ctrl: true }] : [input, key];
      });
    case 'key': {
      const flags: Partial<Key> = { shift: event.shift === true, ctrl: event.ctrl === true, meta: event.alt === true };
      const named: Partial<Record<typeof event.name, Partial<Key>>> = {
        up: { upArrow: true }, down: { downArrow: true }, left: { leftArrow: true }, right: { rightArrow: true },
        pageup: { pageUp: true }, pagedown: { pageDown: true }, home: { home: true }, end: { end: true },
        delete: { delete: true }, backtab: { tab: true, shift: true },
      };
      const own = named[event.name];
      if (own) return [['', { ...plainKey(''), ...flags, ...own }]];
      // A function key, which Ink reports as no key at all, comes by its name: `f6`, `ctrl+f6`.
      return /^f\d+$/.test(event.name) ? [[event.name, { ...plainKey(''), ...flags }]] : [];
    }
  }
}

/** The one key an event is, or undefined (several keys typed at once are none of these). */
function single(event: KeyEvent): [string, Key] | undefined {
  const keys = inkKeysOf(event);
  return keys.length === 1 ? keys[0] : undefined;
}

/** What a key does in attach's history mode (copyMode.ts), by the keymap. */
export function historyAction(event: KeyEvent): CopyAction | undefined {
  const k = single(event);
  if (!k) return undefined;
  const [input, key] = k;
  if (matches('historySearch', input, key)) return 'searchForward';
  if (matches('historySearchBack', input, key)) return 'searchBackward';
  if (matches('historyNext', input, key)) return 'next';
  if (matches('historyPrevious', input, key)) return 'previous';
  if (matches('historySelect', input, key)) return 'select';
  if (matches('historyCopy', input, key)) return 'copy';
  if (matches('historyUp', input, key)) return 'up';
  if (matches('historyDown', input, key)) return 'down';
  if (matches('historyLeft', input, key)) return 'left';
  if (matches('historyRight', input, key)) return 'right';
  if (matches('historyLineStart', input, key)) return 'lineStart';
  if (matches('historyLineEnd', input, key)) return 'lineEnd';
  if (matches('historyTop', input, key)) return 'top';
  if (matches('historyBottom', input, key)) return 'bottom';
  if (matches('historyPageUp', input, key)) return 'pageUp';
  if (matches('historyPageDown', input, key)) return 'pageDown';
  if (matches('historyExit', input, key)) return 'exit';
  return undefined;
}

/** The history mode's keys, as its status bar names them. */
export const historyHint = (): string =>
  `${keyLabel('historySearch')}/${keyLabel('historySearchBack')} search · ${keyLabel('historySelect')} select · ${keyLabel('historyCopy')} copy · ${keyLabel('historyExit')} live`;

export type ReplayAction = 'pause' | 'back' | 'forward' | 'quit';

/** What a key does while a recording plays: ctrl+c stops it too (the keys are read raw). */
export function replayAction(event: KeyEvent): ReplayAction | undefined {
  const k = single(event);
  if (!k) return undefined;
  const [input, key] = k;
  if (matches('interrupt', input, key)) return 'quit';
  if (matches('replayPause', input, key)) return 'pause';
  if (matches('replayBack', input, key)) return 'back';
  if (matches('replayForward', input, key)) return 'forward';
  if (matches('replayQuit', input, key)) return 'quit';
  return undefined;
}

/** The keys a recording plays with, as its status line names them. */
export const replayHint = (): string => `${keyLabel('replayPause')} pause · ${keyLabel('replayBack')} seek · ${keyLabel('replayQuit')} quit`;

export type SplitAction = 'focus' | 'grow' | 'shrink';

/** What a key does in the split view (splitLayout.ts routes it): move the focus, or the split. */
export function splitAction(event: KeyEvent): SplitAction | undefined {
  const k = single(event);
  if (!k) return undefined;
  const [input, key] = k;
  if (matches('splitFocus', input, key)) return 'focus';
  if (matches('splitGrow', input, key)) return 'grow';
  if (matches('splitShrink', input, key)) return 'shrink';
  return undefined;
}
