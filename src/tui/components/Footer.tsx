import { Box } from 'ink';
import { Text } from './Text.js';
import { footerLine, type Hint, type Scope } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { useExactTimes } from '../times.js';

/**
 * The keys that work on this screen, from the keymap: as many as fit whole, and the help key's
 * hint at the right edge whenever the screen has it; a flash message replaces them for a moment.
 */
export function Footer({ scopes, flash, width }: { scopes: Scope[]; flash: { text: string; kind: 'info' | 'error' } | null; width: number }) {
  // T's hint says which times are shown (its keymap words, "times: exact", are the longer, so it fits as counted).
  const exact = useExactTimes();
  if (flash) {
    return (
      <Box flexShrink={0}>
        <Text color={flash.kind === 'error' ? theme.error : theme.success} wrap="truncate-end">
          {sanitize(flash.text)}
        </Text>
      </Box>
    );
  }
  const { shown, help } = footerLine(scopes, width);
  const hint = (h: Hint, gap: string) => (
    <Text key={h.label + h.text}>
      <Text color={theme.key}>{h.label}</Text>
      <Text color={theme.muted}>
        {' '}
        {'id' in h && h.id === 'exactTimes' ? (exact ? 'times: exact' : 'times: ago') : h.text}
        {gap}
      </Text>
    </Text>
  );
  return (
    <Box flexShrink={0} width={width}>
      <Box flexGrow={1}>
        <Text wrap="truncate-end">{shown.map((h) => hint(h, '  '))}</Text>
      </Box>
      {help ? <Box flexShrink={0}>{hint(help, '')}</Box> : null}
    </Box>
  );
}
