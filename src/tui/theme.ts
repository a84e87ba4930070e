/** Semantic colours: screens name a meaning, never a colour. */
export const theme = {
  accent: 'cyan',
  muted: 'gray',
  error: 'red',
  warning: 'yellow',
  success: 'green',
  selection: 'blue',
  badge: 'magenta',
  key: 'cyan',
} as const;

const STATUS: Record<string, { symbol: string; color: string }> = {
  running: { symbol: '●', color: 'green' },
  queued: { symbol: '◌', color: 'yellow' },
  provisioning: { symbol: '◐', color: 'yellow' },
  stopped: { symbol: '○', color: 'gray' },
  failed: { symbol: '✖', color: 'red' },
  awaiting_slack_install: { symbol: '◇', color: 'magenta' },
  destroying: { symbol: '◑', color: 'yellow' },
  destroy_failed: { symbol: '✖', color: 'red' },
};

/** Unknown statuses are shown as they come, with a neutral symbol. */
export function statusStyle(status: string): { symbol: string; color: string } {
  return STATUS[status] ?? { symbol: '?', color: 'white' };
}
