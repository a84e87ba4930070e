/**
 * An InternApi usable before the real one exists: every call waits for it. The TUI draws its
 * first frame while the embedded sandbox is still starting, and the list's first request
 * simply waits for the sandbox instead of the whole screen waiting.
 */
import type { CredentialKind } from '../contract/routes.js';
import type { InternApi } from './types.js';

export function deferredApi(ready: Promise<InternApi>, known: { baseUrl: string; configured: Readonly<Record<CredentialKind, boolean>> }): InternApi {
  // A failed start surfaces through each call, as a request error would.
  ready.catch(() => undefined);
  return new Proxy(known as unknown as InternApi, {
    get(target, prop) {
      if (prop === 'baseUrl' || prop === 'configured') return (target as unknown as typeof known)[prop];
      if (prop === 'then') return undefined; // not a thenable
      return (...args: unknown[]) =>
        ready.then((api) => (api[prop as keyof InternApi] as (...a: unknown[]) => unknown).apply(api, args));
    },
  });
}
