/**
 * The chat's prompt: a text field that keeps pasted lines, sends on enter and opens $EDITOR on ^e.
 * Its props are all it knows of the chat: what is typed, where it goes, whether it has the keys.
 */
import { useRef } from 'react';
import { TextField } from '../../components/TextField.js';
import { useTui } from '../../context.js';
import { useExternalEditor } from '../../hooks/useExternalEditor.js';
import { useKeys } from '../../hooks/useKeys.js';
import { matches } from '../../keymap.js';

export interface ChatPromptProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter: the text as typed (the chat trims it and decides what sending means). */
  onSubmit: (value: string) => void;
  /** Whether the prompt takes keys (not while a question or a permission is asked, nor in the transcript). */
  focus: boolean;
  /** The columns the prompt may take. */
  width: number;
  /** A turn is running: what is sent steers it (the prompt is marked ↪). */
  steering?: boolean;
  placeholder?: string;
}

export function ChatPrompt({ value, onChange, onSubmit, focus, steering = false, placeholder }: ChatPromptProps) {
  const { nav } = useTui();
  const edit = useExternalEditor();
  const current = useRef(value);
  current.current = value;
  useKeys((ch, key) => {
    if (matches('chatEditor', ch, key)) {
      const out = edit(current.current);
      if ('error' in out) return nav.flash(out.error, 'error');
      return onChange(out.text);
    }
    if (matches('send', ch, key)) onSubmit(current.current);
  }, focus);
  return (
    <TextField
      label={steering ? '↪' : ''}
      labelWidth={steering ? 4 : 2}
      value={value}
      onChange={onChange}
      keepPastedLines
      focused={focus}
      placeholder={placeholder}
    />
  );
}
