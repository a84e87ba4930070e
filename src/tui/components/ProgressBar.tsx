import { Text } from './Text.js';
import type { Progress } from '../../contract/intern.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';

/** One row: a long step label is cut, not wrapped (the details screen counts its rows). */
export function ProgressBar({ progress, width = 24 }: { progress: Progress; width?: number }) {
  const total = Math.max(1, progress.total_steps);
  const done = Math.min(total, Math.max(0, progress.step_number));
  const filled = Math.round((done / total) * width);
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>{'█'.repeat(filled)}</Text>
      <Text color={theme.muted}>{'░'.repeat(width - filled)}</Text> {sanitize(progress.step_label)} ({done} of {total})
    </Text>
  );
}
