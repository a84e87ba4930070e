/** BYOK credentials: a page at a time, with a provider filter. */
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useState } from 'react';
import { LIMITS } from '../../contract/limits.js';
import { ErrorView } from '../components/ErrorView.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import { useTui } from '../context.js';
import { useScreen } from '../hooks/useScreen.js';
import { relativeTime } from '../format.js';
import { useKeys } from '../hooks/useKeys.js';
import { useListCursor, windowOf } from '../hooks/useListCursor.js';
import { useResource } from '../hooks/useResource.js';
import { matches } from '../keymap.js';
import { pad, sanitize } from '../sanitize.js';
import { theme } from '../theme.js';

const PAGE = LIMITS.byokList.defaultLimit;

export function ByokList() {
  const { api, nav, active, size } = useTui();
  const [offset, setOffset] = useState(0);
  const [provider, setProvider] = useState('');
  const [editingFilter, setEditingFilter] = useState(false);
  const [applied, setApplied] = useState('');
  const res = useResource(
    (signal) => api.listByok({ offset, limit: PAGE, provider: applied || undefined }, { signal }),
    `${offset}:${applied}`,
  );
  const rows = res.data?.data ?? [];
  const total = res.data?.total_count ?? 0;
  const height = Math.max(3, size.rows - 9);
  const list = useListCursor(rows.length, height);
  useScreen(['byok', 'list', 'paged', 'global'], editingFilter);

  useKeys((input, key) => {
    if (editingFilter) {
      if (matches('dismiss', input, key)) setProvider(applied);
      if (matches('accept', input, key)) {
        setApplied(provider.trim());
        setOffset(0);
      }
      if (matches('dismiss', input, key) || matches('accept', input, key)) setEditingFilter(false);
      return;
    }
    if (list.handle(input, key)) {
      return;
    }
    if (matches('filter', input, key) || matches('statusFilter', input, key)) return setEditingFilter(true);
    if (matches('refresh', input, key)) return res.reload();
    if (matches('new', input, key)) return nav.push({ name: 'byokForm' });
    if (matches('nextPage', input, key) && offset + PAGE < total) return setOffset(offset + PAGE);
    if (matches('prevPage', input, key) && offset > 0) return setOffset(Math.max(0, offset - PAGE));
    const selected = rows[list.index];
    if (!selected) return;
    if (matches('open', input, key)) return nav.push({ name: 'byokDetails', id: selected.id });
    if (matches('byokEdit', input, key)) return nav.push({ name: 'byokForm', id: selected.id });
    if (matches('byokDelete', input, key)) return nav.push({ name: 'byokDetails', id: selected.id });
  }, active);

  const [start, end] = windowOf(list.index, rows.length, height);
  const w = size.columns - 4;
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold>
        BYOK credentials{' '}
        <Text color={theme.muted}>
          · {total === 0 ? 0 : offset + 1}-{offset + rows.length} of {total} · provider: {applied || 'all'} (/) · ←/→ pages · n new
        </Text>
      </Text>
      {editingFilter || applied ? (
        <TextField label="provider" value={provider} onChange={setProvider} focused={editingFilter} placeholder="slug, e.g. openai (enter applies)" labelWidth={10} />
      ) : null}
      <Text color={theme.muted}>
        {'  '}
        {pad('PROVIDER', 18)} {pad('NAME', Math.max(10, w - 66))} {pad('LABEL', 16)} {pad('REGION', 8)} {pad('FLAGS', 12)} CREATED
      </Text>
      {res.loading && rows.length === 0 ? <Spinner label="Loading credentials" /> : null}
      {res.error ? <ErrorView error={res.error} compact={rows.length > 0} /> : null}
      {!res.loading && !res.error && rows.length === 0 ? <Text color={theme.muted}>No credentials{applied ? ` for ${sanitize(applied)}` : ''}. Press n to add one.</Text> : null}
      {rows.slice(start, end).map((c, n) => {
        const selected = start + n === list.index;
        const flags = [c.disabled && 'off', c.is_fallback && 'fallback', c.is_byok_only && 'only', c.is_required && 'req'].filter(Boolean).join(',');
        return (
          <Text key={c.id} inverse={selected}>
            {selected ? '› ' : '  '}
            {pad(sanitize(c.provider), 18)} {pad(sanitize(c.name ?? '—'), Math.max(10, w - 66))} {pad(sanitize(c.label), 16)} {pad(sanitize(c.declared_region ?? '—'), 8)}{' '}
            {pad(flags || '—', 12)} {relativeTime(c.created_at)}
          </Text>
        );
      })}
    </Box>
  );
}
