import { Box } from 'ink';
import { Text } from './Text.js';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../../contract/routes.js';
import { sanitize } from '../sanitize.js';
import { theme } from '../theme.js';
import type { TuiOptions } from '../types.js';
import { useSignedInAs } from '../session.js';

const SHORT: Record<CredentialKind, string> = { api_key: 'api', management_key: 'mgmt', oauth_token: 'oauth' };

/** Product, profile, host, the SANDBOX badge, and which credential kinds are set: never their values. */
export function Header({ options, title }: { options: Pick<TuiOptions, 'api' | 'profile' | 'host' | 'sandbox'>; title: string }) {
  const signedInAs = useSignedInAs(options.api);
  const kinds = Object.keys(CREDENTIAL_SOURCES) as CredentialKind[];
  return (
    <Box justifyContent="space-between" flexShrink={0}>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          intern-tui
        </Text>
        {options.sandbox ? (
          <Text backgroundColor={theme.badge} color="black" bold>
            {' SANDBOX '}
          </Text>
        ) : null}
        <Text color={theme.muted}> {sanitize(options.host)}</Text>
        {options.profile ? <Text color={theme.muted}> · profile {sanitize(options.profile)}</Text> : null}
        {signedInAs ? <Text color={theme.muted}> · signed in as {signedInAs}</Text> : null}
        <Text> › {title}</Text>
      </Text>
      {/* Never shrunk: on a narrow terminal the left part is cut, not this one wrapped. */}
      <Box flexShrink={0}>
        <Text>
          {kinds.map((k) => (
            <Text key={k} color={options.api.configured[k] ? theme.success : theme.muted}>
              {' '}
              {SHORT[k]}
              {options.api.configured[k] ? '✓' : '✗'}
            </Text>
          ))}
        </Text>
      </Box>
    </Box>
  );
}
