/**
 * A filter field's state: the text being typed, the text applied, and whether
 * the field has the keyboard. What the text matches is the one filter model, `fuzzy.ts`. `handleKey` takes accept/dismiss while editing
 * (dismiss restores what was applied); `live` filters apply as you type; `clear`
 * drops what is applied.
 */
import type { Key } from 'ink';
import { useLayoutEffect, useState } from 'react';
import { useTui } from '../context.js';
import { useRemembered } from './useRemembered.js';
import { matches } from '../keymap.js';

/**
 * `claims`: whether the screen's own handler takes esc now to clear an applied filter (a screen that
 * ignores keys while it works says false then, and esc goes back as elsewhere). `holding`: something
 * else that esc clears is applied (the BYOK list's provider query), so esc is claimed for it too.
 */
export function useFilter(opts: { live?: boolean; onApply?: (text: string) => void; name?: string; claims?: boolean; holding?: boolean } = {}) {
  // What was typed and applied stays when the screen comes back (useRemembered); editing does not.
  const [text, setText] = useRemembered(`${opts.name ?? 'filter'}.text`, '');
  const [applied, setApplied] = useRemembered(`${opts.name ?? 'filter'}.applied`, '');
  const [editing, setEditing] = useState(false);
  const live = opts.live ?? false;
  const onChange = (v: string) => {
    setText(v);
    if (live) setApplied(v);
  };
  /** While editing, every key is the field's: true. */
  const handleKey = (input: string, key: Key): boolean => {
    if (!editing) return false;
    if (matches('dismiss', input, key)) {
      const back = live ? '' : applied;
      setText(back);
      setApplied(back);
      setEditing(false);
    } else if (matches('accept', input, key)) {
      const next = live ? text : text.trim();
      setApplied(next);
      setEditing(false);
      opts.onApply?.(next);
    }
    return true;
  };
  /** Drops the filter applied (esc on a filtered list). */
  const clear = () => {
    setText('');
    setApplied('');
    opts.onApply?.('');
  };
  // esc on a filtered list clears the filter (the screen's handler), and does not also go back.
  const { claimCancel } = useTui();
  const claims = (applied !== '' || (opts.holding ?? false)) && (opts.claims ?? true);
  useLayoutEffect(() => {
    claimCancel(claims);
    return () => claimCancel(false);
  }, [claimCancel, claims]);
  /**
   * `/` opens the field fresh, as fzf and k9s do: a live filter starts from no text (typing again
   * used to add to the last filter's); one applied on enter keeps showing its rows until enter.
   */
  const start = () => {
    setText('');
    if (live) setApplied('');
    setEditing(true);
  };
  return { text, applied, editing, start, onChange, handleKey, clear, shown: editing || applied !== '' };
}
