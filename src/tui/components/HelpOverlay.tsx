import { Box, Text } from 'ink';
import { KEYMAP, type Scope } from '../keymap.js';
import { theme } from '../theme.js';

const SCOPE_TITLES: Record<Scope, string> = {
  global: 'Everywhere',
  list: 'Lists',
  intern: 'On an intern',
  byok: 'BYOK credentials',
  form: 'Forms',
  confirm: 'Questions',
};

/** Lists every binding of the keymap, grouped by scope. */
export function HelpOverlay() {
  const scopes = Object.keys(SCOPE_TITLES) as Scope[];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold color={theme.accent}>
        Keys (esc or ? to close)
      </Text>
      <Box flexWrap="wrap">
        {scopes.map((scope) => (
          <Box key={scope} flexDirection="column" width={38} marginRight={2}>
            <Text bold>{SCOPE_TITLES[scope]}</Text>
            {KEYMAP.filter((b) => b.scope === scope && b.help !== '').map((b) => (
              <Text key={b.id}>
                <Text color={theme.key}>{b.keys.join(' ').padEnd(14)}</Text>
                {b.help}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
      <Text color={theme.muted}>Attach: ctrl+] detaches; shift+pgup/pgdn scroll history.</Text>
    </Box>
  );
}
