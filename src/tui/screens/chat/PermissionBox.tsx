/** A permission request: what it asks for and its options, numbered, the picked one inverse. */
import { Box } from 'ink';
import type { PermissionRequest } from '../../../contract/chat.js';
import { sanitize } from '../../../text.js';
import { Text } from '../../components/Text.js';
import { theme } from '../../theme.js';
import { optionText } from '../chatModel.js';

/** The rows the box takes: its border, its title and an option a row. */
export function permissionRows(request: PermissionRequest): number {
  return request.options.length + 3;
}

export function PermissionBox({ request, pick }: { request: PermissionRequest; pick: number }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text color={theme.warning} wrap="truncate-end">
        Permission: {sanitize(request.operation ?? 'an operation')}
      </Text>
      {request.options.map((o, i) => (
        <Text key={o + i} inverse={i === pick}>
          {' '}
          {i + 1}. {optionText(sanitize(o))}
        </Text>
      ))}
    </Box>
  );
}
