/** Connection keys grouped by kind, and a feature check against them. */
import { Box } from 'ink';
import { useState } from 'react';
import { Text } from '../components/Text.js';
import { connectionKind, type ConnectionKind } from '../../contract/intern.js';
import type { FeatureSpec } from '../types.js';
import { ErrorView } from '../components/ErrorView.js';
import { Spinner } from '../components/Spinner.js';
import { ScrollBody } from '../components/ScrollBody.js';
import { useTui } from '../context.js';
import { useScreen } from '../hooks/useScreen.js';
import { useKeys } from '../hooks/useKeys.js';
import { useResource } from '../hooks/useResource.js';
import { matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';

const GROUPS: { kind: ConnectionKind; title: string }[] = [
  { kind: 'builtin', title: 'Built-in' },
  { kind: 'catalog', title: 'Catalog servers' },
  { kind: 'custom', title: 'Custom MCP servers' },
];

export function featureCheck(features: FeatureSpec[], keys: string[]): { name: string; missing: string[] }[] {
  const have = new Set(keys);
  return features.map((f) => ({ name: f.name, missing: f.requires.filter((r) => !have.has(r)) }));
}

export function Connections({ id }: { id: string }) {
  const { api, active, options, pane } = useTui();
  const res = useResource(async (signal) => {
    const [intern, conns] = await Promise.all([api.getIntern(id, { signal }), api.listConnections(id, { signal })]);
    return { intern, keys: conns.data.map((c) => c.key) };
  }, id);
  // The scroll keys while the groups and the feature check are cut (ScrollBody).
  const [cut, setCut] = useState(false);
  useScreen([...(cut ? (['cursor'] as const) : []), 'global']);
  useKeys((input, key) => {
    if (matches('refresh', input, key)) res.reload();
  }, active);

  if (!res.data) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading connections" />;
  const { intern, keys } = res.data;
  const checks = featureCheck(options.features, keys);
  return (
    <Box flexDirection="column" height={pane.rows}>
      <Box flexShrink={0}>
        <Text bold wrap="truncate-end">
          Connections of {sanitize(intern.name)} <Text color={theme.muted}>· {keys.length} in scope</Text>
        </Text>
      </Box>
      {res.error ? (
        <Box flexShrink={0}>
          <ErrorView error={res.error} compact />
        </Box>
      ) : null}
      {/* The groups and the feature check scroll when the pane is too short for them. */}
      <ScrollBody active={active} onCut={setCut}>
        {/* Side by side while they fit; on a narrow terminal the next group goes under, not squeezed. */}
        <Box flexWrap="wrap">
          {GROUPS.map((g) => {
            const inGroup = keys.filter((k) => connectionKind(k) === g.kind);
            return (
              <Box key={g.kind} flexDirection="column" marginRight={4} marginTop={1} flexShrink={0}>
                <Text bold color={theme.accent}>
                  {g.title} ({inGroup.length})
                </Text>
                {inGroup.length === 0 ? <Text color={theme.muted}>none</Text> : inGroup.map((k) => <Text key={k}>• {sanitize(k)}</Text>)}
              </Box>
            );
          })}
        </Box>
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Feature check</Text>
          {checks.map((c) => (
            <Text key={c.name}>
              {c.missing.length === 0 ? <Text color={theme.success}>✔ ready  </Text> : <Text color={theme.warning}>✖ missing</Text>} {sanitize(c.name)}
              {c.missing.length > 0 ? <Text color={theme.muted}> needs {c.missing.map((m) => sanitize(m)).join(', ')}</Text> : null}
            </Text>
          ))}
          <Text color={theme.muted}>Features come from the profile's "features" in the config file, plus built-in examples.</Text>
        </Box>
      </ScrollBody>
    </Box>
  );
}
