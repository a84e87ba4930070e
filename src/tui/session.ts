/**
 * Profiles in the TUI (issue 11, item 6): the header's "signed in as" label (from GET /key), and the
 * `:profile NAME` and `:login` commands, which swap the session (client, profile, host) in place.
 */
import { useEffect, useState } from 'react';
import { ApiError, NetworkError } from '../client/errors.js';
import type { InternApi } from '../client/types.js';
import { sanitize } from '../text.js';

/** Labels known, by session: the header is drawn again after attach, and must not lose it then. */
const LABELS = new WeakMap<InternApi, string>();
/** After a failure that may pass (the service unreachable), asked again this long after, doubling. */
const RETRY_MS = { first: 5_000, most: 60_000 };

/**
 * The API key's label ("signed in as"), or null while unknown, without an API key, or when refused.
 * Asked once a session; asked again while the service cannot be reached, so that an outage at
 * start (or while attached) does not take the label away for good.
 */
export function useSignedInAs(api: InternApi): string | null {
  const [label, setLabel] = useState<string | null>(() => LABELS.get(api) ?? null);
  useEffect(() => {
    setLabel(LABELS.get(api) ?? null);
    if (!api.configured.api_key || LABELS.has(api)) return;
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const ask = (wait: number) =>
      api.getKeyInfo({ signal: ac.signal }).then(
        (info) => {
          if (ac.signal.aborted) return;
          LABELS.set(api, sanitize(info.label));
          setLabel(LABELS.get(api)!);
        },
        (e: unknown) => {
          const passing = e instanceof NetworkError || (e instanceof ApiError && e.retryable);
          if (ac.signal.aborted || !passing) return;
          timer = setTimeout(() => void ask(Math.min(wait * 2, RETRY_MS.most)), wait);
          timer.unref?.();
        },
      );
    void ask(RETRY_MS.first);
    return () => {
      ac.abort();
      clearTimeout(timer);
    };
  }, [api]);
  return label;
}
