import { Box } from 'ink';
import { Text } from './Text.js';
import { hints, type Scope } from '../keymap.js';
import { sanitize } from '../sanitize.js';
import { theme } from '../theme.js';

/** The keys that work on this screen, from the keymap; a flash message replaces them for a moment. */
export function Footer({ scopes, flash }: { scopes: Scope[]; flash: { text: string; kind: 'info' | 'error' } | null }) {
  if (flash) {
    return (
      <Box flexShrink={0}>
        <Text color={flash.kind === 'error' ? theme.error : theme.success} wrap="truncate-end">
          {sanitize(flash.text)}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexShrink={0}>
      <Text wrap="truncate-end">
        {hints(scopes).map((h) => (
          <Text key={h.label + h.help}>
            <Text color={theme.key}>{h.label}</Text>
            <Text color={theme.muted}> {h.help.split(' (')[0]}  </Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
