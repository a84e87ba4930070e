import { Text } from './Text.js';
import { sanitize } from '../../text.js';
import { statusStyle, theme } from '../theme.js';

/** A status as text: its symbol and its name (sanitised: the status is an open enum from the service). */
export function statusLabel(status: string): string {
  return `${statusStyle(status).symbol} ${sanitize(status)}`;
}

/** A status's colour, from the theme. */
export const statusColor = (status: string): string | undefined => theme[statusStyle(status).tone];

export function StatusBadge({ status }: { status: string }) {
  return <Text color={statusColor(status)}>{statusLabel(status)}</Text>;
}
