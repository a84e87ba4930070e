/**
 * Profiles in the TUI (issue 11, item 6): the header's "signed in as" label (from GET /key), and the
 * `:profile NAME` and `:login` commands, which swap the session (client, profile, host) in place.
 */
import { useEffect, useState } from 'react';
import type { InternApi } from '../client/types.js';
import { sanitize } from './sanitize.js';

/** The API key's label ("signed in as"), or null while unknown, without an API key, or when refused. */
export function useSignedInAs(api: InternApi): string | null {
  const [label, setLabel] = useState<string | null>(null);
  useEffect(() => {
    setLabel(null);
    if (!api.configured.api_key) return;
    const ac = new AbortController();
    api.getKeyInfo({ signal: ac.signal }).then(
      (info) => {
        if (!ac.signal.aborted) setLabel(sanitize(info.label));
      },
      () => undefined,
    );
    return () => ac.abort();
  }, [api]);
  return label;
}
