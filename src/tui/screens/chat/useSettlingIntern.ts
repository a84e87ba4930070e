/**
 * The intern a chat is with, read once, and read again every second while it is on its way up
 * (queued, provisioning) until it settles, so the hint that it cannot take a prompt yet goes once
 * it can (it said "wait until it runs" for as long as the screen was open).
 */
import { STARTING_STATUSES, type Intern } from '../../../contract/intern.js';
import { useTui } from '../../context.js';
import { usePolling } from '../../hooks/usePolling.js';
import { useResource } from '../../hooks/useResource.js';

export function useSettlingIntern(id: string, seed?: Intern) {
  const { api } = useTui();
  const intern = useResource((signal) => api.getIntern(id, { signal }), id, seed);
  usePolling(Boolean(intern.data && STARTING_STATUSES.includes(intern.data.status)), async () => {
    const fresh = await api.getIntern(id);
    const changed = fresh.status !== intern.data?.status;
    intern.set(fresh);
    return changed;
  }, 1000, 5000);
  return intern;
}
