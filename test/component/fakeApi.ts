/**
 * An in-memory InternApi for component tests: a few interns in several
 * statuses, BYOK credentials and connections. Every call is recorded, and any
 * method can be replaced per test to fail with the client's typed errors.
 */
import type { ByokCreate, ByokCredential, ByokUpdate } from '../../src/contract/byok.js';
import type { Intern, InternListQuery, InternUpdate } from '../../src/contract/intern.js';
import { ApiError } from '../../src/client/errors.js';
import type { InternApi } from '../../src/client/types.js';

const WS = '11111111-2222-4333-8444-555555555555';
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

export function intern(over: Partial<Intern> & { id: string; name: string }): Intern {
  return {
    description: null,
    instructions: null,
    model: null,
    status: 'running',
    last_failure_message: null,
    progress: null,
    hostname: `${over.name}.interns.test`,
    vault_id: null,
    attached_vault_id: null,
    workspace_id: WS,
    created_at: ago(3),
    updated_at: ago(2),
    created_by_you: true,
    icon_sha256: null,
    ...over,
  } as Intern;
}

export function credential(over: Partial<ByokCredential> & { id: string; provider: string }): ByokCredential {
  return {
    workspace_id: WS,
    name: null,
    label: 'sk-...ABCD',
    allowed_api_key_hashes: null,
    allowed_models: null,
    allowed_user_ids: null,
    declared_region: null,
    declared_zdr: null,
    disabled: false,
    is_byok_only: false,
    is_fallback: false,
    is_required: false,
    sort_order: 0,
    created_at: ago(5),
    ...over,
  } as ByokCredential;
}

export const IDS = {
  runner: 'aaaaaaaa-0000-4000-8000-000000000001',
  builder: 'aaaaaaaa-0000-4000-8000-000000000002',
  broken: 'aaaaaaaa-0000-4000-8000-000000000003',
  peer: 'aaaaaaaa-0000-4000-8000-000000000004',
  sleeper: 'aaaaaaaa-0000-4000-8000-000000000005',
};

export interface Call {
  method: string;
  args: unknown[];
}

export class FakeApi implements InternApi {
  readonly baseUrl = 'http://127.0.0.1:9/api/v1';
  configured = { api_key: true, management_key: true, oauth_token: true };
  calls: Call[] = [];
  interns: Intern[] = [
    intern({ id: IDS.runner, name: 'runner', model: 'anthropic/claude-sonnet-4', description: 'Keeps CI green.', instructions: 'Watch main.\nFile issues.' }),
    intern({ id: IDS.builder, name: 'builder', status: 'provisioning', hostname: null, progress: { step_label: 'Pulling the image', step_number: 2, total_steps: 5 } }),
    intern({ id: IDS.broken, name: 'broken', status: 'failed', hostname: null, last_failure_message: 'Image pull failed: registry answered 503' }),
    intern({ id: IDS.peer, name: 'peer-bot', created_by_you: false }),
    intern({ id: IDS.sleeper, name: 'sleeper', status: 'stopped', hostname: null, model: 'openai/gpt-4.1' }),
  ];
  byok: ByokCredential[] = [
    credential({ id: 'c1', provider: 'openai', name: 'Production OpenAI', label: 'sk-...WXYZ', declared_region: 'us' }),
    credential({ id: 'c2', provider: 'anthropic', name: 'Team Anthropic', label: 'sk-...QRST', is_fallback: true }),
  ];
  connections = ['github', 'slack', 'catalog:linear', 'mcp:tools.example.com'];

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }
  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }
  private find(id: string): Intern {
    const i = this.interns.find((x) => x.id === id);
    if (!i) throw new ApiError(404, 404, 'not_found', false, 'Intern not found', 'GET /interns/{internId}');
    return i;
  }

  async listInterns(query?: InternListQuery) {
    this.record('listInterns', query);
    const wanted = query?.status;
    const all = wanted?.length ? this.interns.filter((i) => wanted.includes(i.status)) : this.interns;
    // Pages by cursor like the service: `starting_after` an id, `limit` at a time.
    const from = query?.starting_after ? all.findIndex((i) => i.id === query.starting_after) + 1 : 0;
    const data = all.slice(from, from + (query?.limit ?? all.length));
    const has_more = from + data.length < all.length;
    return has_more ? { data, has_more, next_cursor: data.at(-1)!.id } : { data, has_more };
  }
  async getIntern(id: string) {
    this.record('getIntern', id);
    return { ...this.find(id) };
  }
  async updateIntern(id: string, patch: InternUpdate) {
    this.record('updateIntern', id, patch);
    const i = this.find(id);
    Object.assign(i, patch, { updated_at: new Date().toISOString() });
    return { ...i };
  }
  async createIntern(): Promise<Intern> {
    throw new Error('not used');
  }
  async deleteIntern(id: string) {
    this.record('deleteIntern', id);
    this.find(id).status = 'destroying';
  }
  async provisionIntern(id: string) {
    this.record('provisionIntern', id);
    this.find(id).status = 'queued';
  }
  async suspendIntern(id: string) {
    this.record('suspendIntern', id);
    this.find(id).status = 'stopped';
  }
  async getInternIcon(): Promise<never> {
    throw new ApiError(404, 404, 'not_found', false, 'no icon', 'GET /interns/{internId}/icon');
  }
  async getDaemonAccess(id: string) {
    this.record('getDaemonAccess', id);
    return { origin: 'ws://127.0.0.1:9', token: 'x'.repeat(43) };
  }
  async listConnections(id: string) {
    this.record('listConnections', id);
    return { data: this.connections.map((key) => ({ key })) };
  }
  async listByok(query?: { provider?: string }) {
    this.record('listByok', query);
    const data = query?.provider ? this.byok.filter((c) => c.provider === query.provider) : this.byok;
    return { data, total_count: data.length };
  }
  async getByok(id: string) {
    this.record('getByok', id);
    const c = this.byok.find((x) => x.id === id);
    if (!c) throw new ApiError(404, 404, null, false, 'Credential not found', 'GET /byok/{id}');
    return { ...c };
  }
  async createByok(body: ByokCreate) {
    this.record('createByok', body);
    const { key: _key, ...rest } = body;
    const c = credential({ ...rest, id: `c${this.byok.length + 1}`, label: 'sk-...NEW1' } as Partial<ByokCredential> & { id: string; provider: string });
    this.byok.push(c);
    return c;
  }
  async updateByok(id: string, body: ByokUpdate) {
    this.record('updateByok', id, body);
    const c = this.byok.find((x) => x.id === id)!;
    const { key: _key, ...rest } = body as ByokUpdate & { key?: string };
    Object.assign(c, rest);
    return { ...c };
  }
  async deleteByok(id: string) {
    this.record('deleteByok', id);
    this.byok = this.byok.filter((c) => c.id !== id);
  }
}
