import { Text } from './Text.js';
import { sanitize } from '../sanitize.js';
import { statusStyle } from '../theme.js';

export function StatusBadge({ status }: { status: string }) {
  const s = statusStyle(status);
  return (
    <Text color={s.color}>
      {s.symbol} {sanitize(status)}
    </Text>
  );
}
