import { describe, expect, it } from 'vitest';
import { internScopes, lifecycleRefusal } from '../../../src/tui/lifecycle.js';

const at = (status: string) => ({ name: 'ann', status });

describe('what p and s can do for an intern in its status', () => {
  it('offers p on a stopped or failed intern and s on a running one, and neither on one moving or gone wrong in deletion', () => {
    // The status's own action first: the footer keeps what fits from the left.
    expect(internScopes(at('stopped'))).toEqual(['provisionable', 'intern']);
    expect(internScopes(at('failed'))).toEqual(['provisionable', 'intern']);
    expect(internScopes(at('running'))).toEqual(['suspendable', 'intern']);
    for (const status of ['queued', 'provisioning', 'destroying', 'destroy_failed', 'awaiting_slack_install', 'something_new']) expect(internScopes(at(status))).toEqual(['intern']);
    expect(internScopes(undefined)).toEqual(['intern']);
  });

  it('says why, with what would help, where the key cannot act', () => {
    expect(lifecycleRefusal('provision', at('stopped'))).toBeNull();
    expect(lifecycleRefusal('suspend', at('running'))).toBeNull();
    expect(lifecycleRefusal('provision', at('running'))).toBe('ann is running: to provision it again, suspend it first (s)');
    expect(lifecycleRefusal('provision', at('queued'))).toBe('ann is queued: it is on its way up already');
    expect(lifecycleRefusal('provision', at('destroy_failed'))).toBe('ann is destroy_failed: only a stopped or failed intern can be provisioned');
    expect(lifecycleRefusal('suspend', at('stopped'))).toBe('ann is stopped: only a running intern can be suspended');
    // The service's strings are sanitised before they are said.
    expect(lifecycleRefusal('suspend', { name: 'a\x1b[2Jb', status: 'odd\x07' })).toBe('ab is odd: only a running intern can be suspended');
  });
});
