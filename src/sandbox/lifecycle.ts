/**
 * The lifecycle simulator. Provision: queued → provisioning (labelled steps) →
 * running (hostname, daemon started). Suspend: → stopped. Delete: destroying →
 * removed. Only interns moved through the API move on their own.
 */
import type { DaemonHub } from './daemon/types.js';
import type { InternRow, Store } from './store.js';

export const PROVISION_STEPS = ['Allocating a machine', 'Restoring the workspace', 'Installing tools', 'Starting the daemon'];

export class Lifecycle {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly hub: DaemonHub,
    private readonly stepMs: number,
  ) {}

  /** Continues the interns that were moving when the sandbox last stopped. */
  resume(): void {
    for (const row of this.store.movingInterns()) {
      if (row.status === 'destroying') this.later(() => this.finishDestroy(row.id));
      else this.later(() => this.advance(row.id, 0));
    }
  }

  provision(row: InternRow): void {
    this.store.updateIntern(row.id, {
      status: 'queued',
      progress: null,
      last_failure_message: null,
      moving: 1,
      updated_at: now(),
    });
    this.later(() => this.advance(row.id, 1));
  }

  async suspend(row: InternRow): Promise<void> {
    this.store.updateIntern(row.id, { status: 'stopped', progress: null, moving: 0, updated_at: now() });
    await this.hub.stop(row.id, 'The intern was suspended');
  }

  async destroy(row: InternRow): Promise<void> {
    this.store.updateIntern(row.id, { status: 'destroying', progress: null, last_failure_message: null, moving: 1, updated_at: now() });
    await this.hub.stop(row.id, 'The intern is being deleted');
    this.later(() => this.finishDestroy(row.id));
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private advance(id: string, step: number): void {
    const row = this.store.intern(id);
    if (!row || !row.moving || row.status === 'destroying') return;
    if (step <= PROVISION_STEPS.length && step >= 1) {
      const progress = { step_label: PROVISION_STEPS[step - 1]!, step_number: step, total_steps: PROVISION_STEPS.length };
      this.store.updateIntern(id, { status: 'provisioning', progress: JSON.stringify(progress), updated_at: now() });
      this.later(() => this.advance(id, step + 1));
      return;
    }
    if (step === 0) {
      this.later(() => this.advance(id, 1));
      return;
    }
    const hostname = row.hostname ?? `${row.name}-${id.slice(0, 8)}.interns.localhost`;
    this.store.updateIntern(id, {
      status: 'running',
      progress: null,
      hostname,
      vault_id: row.vault_id ?? `vault-${id.slice(0, 8)}`,
      active_model: this.store.modelToRun(row),
      moving: 0,
      updated_at: now(),
    });
    void this.hub.start({ id, name: row.name }).catch(() => undefined);
  }

  private finishDestroy(id: string): void {
    const row = this.store.intern(id);
    if (row?.status === 'destroying') this.store.deleteIntern(id);
  }

  private later(fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, this.stepMs);
    this.timers.add(t);
  }
}

export const now = (): string => new Date().toISOString();
