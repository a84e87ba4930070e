/** Every field of a credential (the label only, never a key), with edit and delete. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useState } from 'react';
import { ScrollBody } from '../components/ScrollBody.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorView } from '../components/ErrorView.js';
import { Spinner } from '../components/Spinner.js';
import { useTui } from '../context.js';
import { useTick } from '../hooks/useTick.js';
import { useClipboard } from '../hooks/useClipboard.js';
import { useKeys } from '../hooks/useKeys.js';
import { useRemembered } from '../hooks/useRemembered.js';
import { useResource } from '../hooks/useResource.js';
import { useScreen } from '../hooks/useScreen.js';
import { matches } from '../keymap.js';
import { sanitize } from '../../text.js';
import { theme } from '../theme.js';
import { byokFacts, listWithin } from '../format.js';
import { timeText, useExactTimes } from '../times.js';

/** The lines an allowed list takes at most: a hundred key hashes would push the rest off the screen. */
const LIST_LINES = 3;
const LABEL_WIDTH = 20;

export function ByokDetails({ id, ask }: { id: string; ask?: 'delete' }) {
  const { api, nav, active, pane } = useTui();
  const listWidth = Math.max(10, pane.columns - LABEL_WIDTH);
  // Its ages ("28s ago") move with the clock.
  useTick();
  // Times are how long ago, or exact after T.
  useExactTimes();
  const copy = useClipboard();
  const res = useResource((signal) => api.getByok(id, { signal }), id);
  // Remembered with the route: the list's D asks once, not again on coming back here.
  const [confirm, setConfirm] = useRemembered('confirm', ask === 'delete');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  // The confirmation takes every key: a key that is not its answer must not act on the screen behind it.
  // The facts' scroll keys while they are cut (ScrollBody).
  const [cut, setCut] = useState(false);
  useScreen(confirm ? ['confirm'] : ['byok', ...(cut ? (['cursor'] as const) : []), 'global'], confirm);
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
    if (matches('new', input, key)) return nav.push({ name: 'byokForm' });
    if (matches('byokEdit', input, key)) return nav.push({ name: 'byokForm', id, seed: res.data });
    if (matches('byokDelete', input, key)) return setConfirm(true);
    if (matches('byokCopyId', input, key) && res.data) return copy(id, `the id of the ${sanitize(res.data.provider)} credential`);
  }, active && !busy && !confirm);

  const c = res.data;
  if (!c) return res.error ? <ErrorView error={res.error} /> : <Spinner label="Loading the credential" />;
  // The pane's height: the facts scroll inside what the title and a question leave them, and the
  // question (above them) is never pushed off a short terminal.
  return (
    <Box flexDirection="column" height={pane.rows}>
      <Box flexDirection="column" flexShrink={0}>
        <Text bold wrap="truncate-end">
          {sanitize(c.provider)} credential{c.name ? ` · ${sanitize(c.name)}` : ''}
        </Text>
        {busy ? <Spinner label="Deleting" /> : null}
        {error ? <ErrorView error={error} /> : null}
        <Confirm open={confirm} question={`Delete the ${sanitize(c.provider)} credential ${c.name ? `"${sanitize(c.name)}" ` : ''}(${sanitize(c.label)})? Its key material is wiped.`} tone="error" onAnswer={answer} active={active && !busy} />
      </Box>
      <ScrollBody active={active && !busy && !confirm} onCut={setCut}>
        {byokFacts(c).map((f) => (
          <Box key={f.label}>
            <Box width={LABEL_WIDTH} flexShrink={0}>
              <Text color={theme.muted}>{f.label}</Text>
            </Box>
            {f.value === null ? (
              <Text color={theme.muted}>{f.ifNone ?? '—'}</Text>
            ) : (
              <Text wrap="wrap">{f.items?.length ? listWithin(f.items.map((i) => sanitize(i)), listWidth, LIST_LINES) : sanitize(f.time ? timeText(f.value) : f.value)}</Text>
            )}
          </Box>
        ))}
        <Text color={theme.muted}>The raw key is write-only: the service never returns it.</Text>
      </ScrollBody>
    </Box>
  );
}
