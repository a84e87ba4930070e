import { Text } from './Text.js';
import { sanitize } from '../sanitize.js';
import { statusStyle, theme } from '../theme.js';

export function StatusBadge({ status }: { status: string }) {
  const s = statusStyle(status);
  return (
    <Text color={theme[s.tone]}>
      {s.symbol} {sanitize(status)}
    </Text>
  );
}
