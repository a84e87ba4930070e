import { Box } from 'ink';
import { Text } from './Text.js';
import { CREDENTIAL_SOURCES, type CredentialKind } from '../../contract/routes.js';
import { sanitize, widthOf } from '../../text.js';
import { colourOn, theme } from '../theme.js';
import type { TuiOptions } from '../types.js';
import { useSignedInAs } from '../session.js';

const SHORT: Record<CredentialKind, string> = { api_key: 'api', management_key: 'mgmt', oauth_token: 'oauth' };
const PRODUCT = 'intern-tui';

/**
 * Product, the SANDBOX badge, host, profile, who it is signed in as, where you are, and which
 * credential kinds are set: never their values. On a narrow terminal the context (host, profile,
 * signed in as) is cut first, the profile last of it, then the title; a profile that fits whole
 * outlasts the title; the product and the credential kinds stay whole.
 * The widths are worked out here: Yoga takes a shortfall from every shrinkable box at once, and
 * stops none at nothing to give the rest to the next.
 */
export function Header({ options, title, width }: { options: Pick<TuiOptions, 'api' | 'profile' | 'host' | 'sandbox'>; title: string; width: number }) {
  const signedInAs = useSignedInAs(options.api);
  const kinds = Object.keys(CREDENTIAL_SOURCES) as CredentialKind[];
  const badge = options.sandbox ? ' SANDBOX ' : '';
  const flags = kinds.map((k) => ` ${SHORT[k]}${options.api.configured[k] ? '✓' : '✗'}`);
  const where = ` › ${title}`;
  const room = Math.max(0, width - PRODUCT.length - badge.length - widthOf(flags.join('')));
  // A part cut to fewer cells than ' › ab…' says nothing: then it goes; the context goes first.
  const fit = (want: number, cells: number) => (cells >= Math.min(want, 6) ? Math.min(want, cells) : 0);
  let whereWidth = fit(widthOf(where), room);
  // The profile says whose keys a D deletes with: it outlasts the rest of the context. Who it is
  // signed in as goes first, then the host; the profile alone is cut last. Without a profile, the
  // host (cut if need be), and who it is signed in as whole or not at all.
  const host = ` ${sanitize(options.host)}`;
  const profile = options.profile ? ` profile ${sanitize(options.profile)}` : '';
  const signed = signedInAs ? ` · signed in as ${signedInAs}` : '';
  const tries = profile ? [`${host} ·${profile}${signed}`, `${host} ·${profile}`, profile] : [`${host}${signed}`, host];
  let context = tries.find((t) => widthOf(t) <= room - whereWidth) ?? tries.at(-1)!;
  let contextWidth = whereWidth < widthOf(where) ? 0 : fit(widthOf(context), room - whereWidth);
  // Whole, the profile outlasts the title too: every screen names itself under the header, and
  // nothing else on it says whose keys these are.
  if (profile && contextWidth < widthOf(profile) && widthOf(profile) <= room) {
    context = profile;
    contextWidth = widthOf(profile);
    whereWidth = fit(widthOf(where), room - contextWidth);
  }
  return (
    <Box flexShrink={0} width={width}>
      {/* Narrower than the product and the flags (under 40 columns), the product is cut. */}
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          <Text bold color={theme.accent}>
            {PRODUCT}
          </Text>
          {badge ? (
            // Without colours, inverse stands for the background (and no black text is left on the
            // terminal's own background, where a dark one hides it).
            <Text backgroundColor={theme.badge} color={theme.onBadge} inverse={!colourOn()} bold>
              {badge}
            </Text>
          ) : null}
        </Text>
      </Box>
      {contextWidth > 0 ? (
        <Box width={contextWidth} flexShrink={0}>
          <Text color={theme.muted} wrap="truncate-end">
            {context}
          </Text>
        </Box>
      ) : null}
      {whereWidth > 0 ? (
        <Box width={whereWidth} flexShrink={0}>
          <Text wrap="truncate-end">{where}</Text>
        </Box>
      ) : null}
      <Box flexGrow={1} />
      <Box flexShrink={0}>
        <Text>
          {kinds.map((k, i) => (
            <Text key={k} color={options.api.configured[k] ? theme.success : theme.muted}>
              {flags[i]}
            </Text>
          ))}
        </Text>
      </Box>
    </Box>
  );
}
