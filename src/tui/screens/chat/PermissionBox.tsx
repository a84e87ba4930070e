/** A permission request: what it allows in full (its window, when long), then its options, numbered, the picked one inverse. */
import { Box } from 'ink';
import type { PermissionRequest } from '../../../contract/chat.js';
import { sanitize } from '../../../text.js';
import { Text } from '../../components/Text.js';
import { keyLabel } from '../../keymap.js';
import { theme } from '../../theme.js';
import { optionText } from '../chatModel.js';
import type { bodyWindow } from './request.js';

export type BodyWindow = ReturnType<typeof bodyWindow>;

/** The request's text in its window, and what is cut above and below it. */
export function BodyView({ body, color }: { body: BodyWindow; color?: string }) {
  return (
    <>
      {body.shown.map((line, i) => (
        <Text key={i} color={color} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {body.above || body.below ? (
        <Text color={theme.muted} wrap="truncate-end">
          {`… ${body.above} lines above, ${body.below} below (${keyLabel('scrollUp')}/${keyLabel('scrollDown')})`}
        </Text>
      ) : null}
    </>
  );
}

export function PermissionBox({ request, pick, body }: { request: PermissionRequest; pick: number; body: BodyWindow }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text color={theme.warning} wrap="truncate-end">
        Permission: {sanitize(request.operation ?? 'an operation')}
      </Text>
      <BodyView body={body} />
      {request.options.map((o, i) => (
        <Text key={o + i} inverse={i === pick}>
          {' '}
          {i + 1}. {optionText(sanitize(o))}
        </Text>
      ))}
    </Box>
  );
}
