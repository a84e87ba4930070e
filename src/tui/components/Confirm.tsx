/**
 * The one y/n confirmation. While open it takes its own keys (`yes`, `no` of
 * the keymap) and draws the question; the screen behind it stops its own keys
 * and declares the `confirm` scope (useScreen does both from one flag).
 */
import { useKeys } from '../hooks/useKeys.js';
import { matches } from '../keymap.js';
import { theme } from '../theme.js';
import { wrapText } from '../wrap.js';
import { Text } from './Text.js';

export interface ConfirmProps {
  open: boolean;
  question: string;
  onAnswer: (yes: boolean) => void;
  /** `error` for something that cannot be undone. */
  tone?: 'warning' | 'error';
  /** False while an overlay has the keyboard. */
  active?: boolean;
}

/** The rows an open question takes `width` cells wide, wrapped as Ink wraps it. */
export function confirmRows(question: string, width: number): number {
  return wrapText(`${question} (y/n)`, width).length;
}

export function Confirm({ open, question, onAnswer, tone = 'warning', active = true }: ConfirmProps) {
  useKeys((input, key) => {
    if (matches('yes', input, key)) onAnswer(true);
    else if (matches('no', input, key)) onAnswer(false);
  }, open && active);
  return open ? <Text color={theme[tone]}>{question} (y/n)</Text> : null;
}
