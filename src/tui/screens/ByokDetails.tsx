/** Every field of a credential (the label only, never a key), with edit and delete. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useState } from 'react';
import { Confirm } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { Spinner } from '../components/Spinner.js';
import { useTui } from '../context.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { matches } from '../keymap.js';
import { sanitize } from '../sanitize.js';
import { theme } from '../theme.js';

const show = (v: unknown): string => {
  if (v === null || v === undefined) return 'null (no restriction / unset)';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : v.map((x) => sanitize(String(x))).join(', ');
  return sanitize(String(v));
};

export function ByokDetails({ id, ask }: { id: string; ask?: 'delete' }) {
  const { api, nav, active } = useTui();
  const copy = useClipboard();
  const res = useResource((signal) => api.getByok(id, { signal }), id);
  // Remembered with the route: the list's D asks once, not again on coming back here.
  const [confirm, setConfirm] = useRemembered('confirm', ask === 'delete');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  // The confirmation takes every key: a key that is not its answer must not act on the screen behind it.
  useScreen(confirm ? ['confirm'] : ['byok', 'global'], confirm);
  const answer = (yes: boolean) => {
    setConfirm(false);
    if (!yes) return;
    setBusy(true);
    api.deleteByok(id).then(
      () => {
        nav.pop();
        nav.flash('credential deleted; its key material is wiped');
      },
      (e: unknown) => {
        setBusy(false);
        setError(e);
      },
    );
  };

  useKeys((input, key) => {
    if (matches('refresh', input, key)) return res.reload();
    if (matches('byokEdit', input, key)) return nav.push({ name: 'byokForm', id });
    if (matches('byokDelete', input, key)) return setConfirm(true);
    if (matches('byokCopyId', input, key) && res.data) return copy(id, `the id of the ${sanitize(res.data.provider)} credential`);
  }, active && !busy && !confirm);

  const c = res.data;
  if (!c) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading the credential" />;
  const fields: [string, unknown][] = [
    ['id', c.id],
    ['provider', c.provider],
    ['name', c.name],
    ['label', c.label],
    ['workspace', c.workspace_id],
    ['declared_region', c.declared_region],
    ['declared_zdr', c.declared_zdr],
    ['disabled', c.disabled],
    ['is_byok_only', c.is_byok_only],
    ['is_fallback', c.is_fallback],
    ['is_required', c.is_required],
    ['sort_order', c.sort_order],
    ['allowed_api_key_hashes', c.allowed_api_key_hashes],
    ['allowed_models', c.allowed_models],
    ['allowed_user_ids', c.allowed_user_ids],
    ['created_at', c.created_at],
  ];
  return (
    <Box flexDirection="column">
      <Text bold>
        {sanitize(c.provider)} credential
      </Text>
      {fields.map(([k, v]) => (
        <Box key={k}>
          <Box width={24} flexShrink={0}>
            <Text color={theme.muted}>{k}</Text>
          </Box>
          <Text wrap="wrap">{show(v)}</Text>
        </Box>
      ))}
      <Text color={theme.muted}>The raw key is write-only: the service never returns it.</Text>
      {busy ? <Spinner label="Deleting" /> : null}
      {error ? <ErrorView error={error} /> : null}
      <Confirm open={confirm} question="Delete this credential? Its key material is wiped." tone="error" onAnswer={answer} active={active && !busy} />
    </Box>
  );
}
