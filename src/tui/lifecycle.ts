/**
 * What `p` (provision) and `s` (suspend) can do for an intern in its status, for the intern
 * list and the details screen alike: the footer offers each only where it works (its scope), and
 * pressed where it does not, the key says why at once instead of sending a request the service
 * answers with 409 `intern_busy` and a hint to wait (a stopped intern never "settles" into one
 * that can be suspended).
 */
import { INTERN_STATUSES, PROVISIONABLE_STATUSES, STARTING_STATUSES, SUSPENDABLE_STATUSES, type Intern } from '../contract/intern.js';
import { keyLabel, type Scope } from './keymap.js';
import { sanitize } from '../text.js';

const FIRST_STATUSES: readonly string[] = ['running', 'failed', 'destroy_failed', 'stopped'];
/**
 * The statuses in the order a person looks for them: running, then the failures, then the rest in
 * the spec's order. The intern list's status filter (`f`) steps through them so, and a sort by
 * status puts them so.
 */
export const STATUS_ORDER: readonly string[] = [...FIRST_STATUSES, ...INTERN_STATUSES.filter((s) => !FIRST_STATUSES.includes(s))];

/** The scopes an intern's keys live in: every intern's, and provisioning's or suspending's when its status allows them. */
export function internScopes(intern: Pick<Intern, 'status'> | undefined): Scope[] {
  if (!intern) return ['intern'];
  // The status's own action first: the footer keeps what fits from the left, and at 80 columns a
  // stopped intern's "p provision" fell off behind the keys every intern has.
  return [
    ...(PROVISIONABLE_STATUSES.includes(intern.status) ? (['provisionable'] as const) : []),
    ...(SUSPENDABLE_STATUSES.includes(intern.status) ? (['suspendable'] as const) : []),
    'intern',
  ];
}

/** Why `action` cannot be done to `intern` now, in words to flash; null when it can. */
export function lifecycleRefusal(action: 'provision' | 'suspend' | 'delete', intern: Pick<Intern, 'name' | 'status'>): string | null {
  const name = sanitize(intern.name);
  const status = sanitize(intern.status);
  // Deleting one being deleted is answered 409 intern_busy "wait for it to settle": it is settling into gone.
  if (action === 'delete') return intern.status === 'destroying' ? `${name} is being deleted already` : null;
  if (action === 'suspend') return SUSPENDABLE_STATUSES.includes(intern.status) ? null : `${name} is ${status}: only a running intern can be suspended`;
  if (PROVISIONABLE_STATUSES.includes(intern.status)) return null;
  if (SUSPENDABLE_STATUSES.includes(intern.status)) return `${name} is ${status}: to provision it again, suspend it first (${keyLabel('suspend')})`;
  if (STARTING_STATUSES.includes(intern.status)) return `${name} is ${status}: it is on its way up already`;
  return `${name} is ${status}: only a stopped or failed intern can be provisioned`;
}
