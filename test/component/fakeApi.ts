/**
 * An in-memory InternApi for component tests: a few interns in several
 * statuses, BYOK credentials and connections. Every call is recorded, and any
 * method can be replaced per test to fail with the client's typed errors.
 */
import type { ByokCreate, ByokCredential, ByokUpdate } from '../../src/contract/byok.js';
import type { Intern, InternCreate, InternListQuery, InternUpdate } from '../../src/contract/intern.js';
import { ApiError } from '../../src/client/errors.js';
import type { ChatStart, InternApi } from '../../src/client/types.js';
import { type ChatChunk, type ChatRequest, PROVIDE_INPUT_TOOL, contentText } from '../../src/contract/chat.js';
import type { KeyInfo, Model, ProviderInfo } from '../../src/contract/catalog.js';
import { PROVIDERS } from '../../src/contract/providers.js';
import { type EffectiveSecret, type VaultListQuery, type VaultSecret, type VaultSecretWrite, validateHosts } from '../../src/contract/vault.js';
import type { Workspace } from '../../src/contract/workspace.js';

const WS = '11111111-2222-4333-8444-555555555555';
export const WS_SIDE = '11111111-2222-4333-8444-666666666666';
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

export function model(id: string, name: string, context: number, prompt: string, completion: string): Model {
  return {
    id,
    canonical_slug: id,
    name,
    created: 1_740_000_000,
    description: `${name} (fake)`,
    context_length: context,
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', tokenizer: 'Other' },
    pricing: { prompt, completion },
    top_provider: { context_length: context, max_completion_tokens: null, is_moderated: false },
    supported_parameters: ['temperature', 'tools'],
  };
}

/** A fingerprint the way a client sees it: opaque, stable for one value in one scope. */
const fingerprintOf = (scope: string, value: string) => {
  let h = 0;
  for (const ch of `${scope}\0${value}`) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return `sha256:${h.toString(16).padStart(8, '0')}${'0'.repeat(56)}`;
};

const notFoundError = (label: string, message: string) => new ApiError(404, 404, 'not_found', false, message, label);

export interface Call {
  method: string;
  args: unknown[];
}

export class FakeApi implements InternApi {
  readonly baseUrl = 'http://127.0.0.1:9/api/v1';
  configured = { api_key: true, management_key: true, oauth_token: true };
  calls: Call[] = [];
  interns: Intern[] = [
    intern({ id: IDS.runner, name: 'runner', vault_id: 'vvvvvvvv-0000-4000-8000-000000000001', model: 'anthropic/claude-sonnet-4', description: 'Keeps CI green.', instructions: 'Watch main.\nFile issues.' }),
    intern({ id: IDS.builder, name: 'builder', status: 'provisioning', hostname: null, progress: { step_label: 'Pulling the image', step_number: 2, total_steps: 5 } }),
    intern({ id: IDS.broken, name: 'broken', status: 'failed', hostname: null, last_failure_message: 'Image pull failed: registry answered 503' }),
    intern({ id: IDS.peer, name: 'peer-bot', created_by_you: false }),
    intern({ id: IDS.sleeper, name: 'sleeper', status: 'stopped', hostname: null, model: 'openai/gpt-4.1' }),
  ];
  byok: ByokCredential[] = [
    credential({ id: 'c1', provider: 'openai', name: 'Production OpenAI', label: 'sk-...WXYZ', declared_region: 'us' }),
    credential({ id: 'c2', provider: 'anthropic', name: 'Team Anthropic', label: 'sk-...QRST', is_fallback: true }),
  ];
  workspaces: Workspace[] = [
    { id: WS, name: 'Main', slug: 'main', description: null, default_text_model: null, created_at: '2026-01-01T00:00:00.000Z' },
    { id: WS_SIDE, name: 'Side projects', slug: 'side-projects', description: 'Experiments', default_text_model: null, created_at: '2026-02-01T00:00:00.000Z' },
  ];
  connections = ['github', 'slack', 'catalog:linear', 'mcp:tools.example.com'];
  /** Secrets by scope ('workspace' or an intern id); values are kept only to compute fingerprints. */
  secrets = new Map<string, Map<string, VaultSecret & { value: string }>>([
    ['workspace', new Map()],
  ]);
  models: Model[] = [
    model('anthropic/claude-sonnet-4', 'Anthropic: Claude Sonnet 4', 200_000, '0.000003', '0.000015'),
    model('openai/gpt-4.1', 'OpenAI: GPT-4.1', 1_047_576, '0.000002', '0.000008'),
    model('openai/o4-mini', 'OpenAI: o4 Mini', 200_000, '0.0000011', '0.0000044'),
    model('google/gemini-2.5-pro', 'Google: Gemini 2.5 Pro', 1_048_576, '0.00000125', '0.00001'),
    model('deepseek/deepseek-r1:free', 'DeepSeek: R1 (free)', 163_840, '0', '0'),
  ];
  providers: ProviderInfo[] = PROVIDERS.map((p) => ({ name: p.slug, slug: p.slug, privacy_policy_url: null }));
  keyInfo: KeyInfo = { label: 'sk-or-v1-abc...f00', limit: null, usage: 1.25, workspace_id: WS, is_management_key: false };

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
  /** Idempotency keys seen by createIntern, and the intern each made. */
  idempotency = new Map<string, string>();
  /** Set to make the next createIntern fail after creating (a dropped connection). */
  dropNextCreate = false;
  async createIntern(body: InternCreate, opts?: { idempotencyKey?: string }): Promise<Intern> {
    this.record('createIntern', body, opts?.idempotencyKey);
    const again = opts?.idempotencyKey ? this.idempotency.get(opts.idempotencyKey) : undefined;
    if (again) return { ...this.find(again) };
    if (this.interns.some((i) => i.name === body.name)) {
      throw new ApiError(409, 409, 'name_taken', false, `An intern named ${body.name} already exists`, 'POST /interns');
    }
    const id = `cccccccc-0000-4000-8000-${String(this.interns.length + 1).padStart(12, '0')}`;
    const created = intern({
      id,
      name: body.name,
      description: body.description ?? null,
      instructions: body.instructions ?? null,
      model: null,
      hostname: null,
      status: body.provision ? 'queued' : 'stopped',
      attached_vault_id: body.vault_id ?? null,
      vault_id: null,
    });
    this.interns.push(created);
    if (opts?.idempotencyKey) this.idempotency.set(opts.idempotencyKey, id);
    if (this.dropNextCreate) {
      this.dropNextCreate = false;
      throw new ApiError(503, 503, 'connection_reset', true, 'The connection dropped', 'POST /interns');
    }
    return { ...created };
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
    // As the service: no token for an intern that is not running.
    const i = this.find(id);
    if (i.status !== 'running') throw new ApiError(409, 409, 'intern_not_running', false, `The intern is ${i.status}`, 'GET /interns/{internId}/daemon');
    return { origin: 'ws://127.0.0.1:9', token: 'x'.repeat(43) };
  }
  async listConnections(id: string) {
    this.record('listConnections', id);
    return { data: this.connections.map((key) => ({ key })) };
  }
  async listByok(query?: { provider?: string; offset?: number; limit?: number }) {
    this.record('listByok', query);
    const all = query?.provider ? this.byok.filter((c) => c.provider === query.provider) : this.byok;
    const offset = query?.offset ?? 0;
    return { data: all.slice(offset, offset + (query?.limit ?? 50)), total_count: all.length };
  }
  async listWorkspaces(query?: { offset?: number; limit?: number }) {
    this.record('listWorkspaces', query);
    const offset = query?.offset ?? 0;
    return { data: this.workspaces.slice(offset, offset + (query?.limit ?? 50)), total_count: this.workspaces.length };
  }
  async getWorkspace(id: string) {
    this.record('getWorkspace', id);
    const w = this.workspaces.find((x) => x.id === id);
    if (!w) throw new ApiError(404, 404, null, false, 'Workspace not found', 'GET /workspaces/{id}');
    return { ...w };
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

  private scope(name: string): Map<string, VaultSecret & { value: string }> {
    let m = this.secrets.get(name);
    if (!m) this.secrets.set(name, (m = new Map()));
    return m;
  }
  private page<T extends { name: string }>(items: T[], query?: VaultListQuery) {
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
    const offset = query?.offset ?? 0;
    const limit = query?.limit ?? 100;
    return { data: sorted.slice(offset, offset + limit), has_more: offset + limit < sorted.length };
  }
  private put(scopeName: string, name: string, body: VaultSecretWrite): VaultSecret {
    const hosts = validateHosts(body.hosts);
    if ('error' in hosts) throw new ApiError(400, 400, 'invalid_body', false, `hosts: ${hosts.error}`, 'PUT /vault/secrets/{name}');
    const row = { name, hosts: hosts.hosts, fingerprint: fingerprintOf(scopeName, body.value), created_at: new Date().toISOString(), value: body.value };
    this.scope(scopeName).set(name, row);
    return strip(row);
  }
  async listVaultSecrets(query?: VaultListQuery) {
    this.record('listVaultSecrets', query);
    return this.page([...this.scope('workspace').values()].map(strip), query);
  }
  async putVaultSecret(name: string, body: VaultSecretWrite) {
    this.record('putVaultSecret', name, { hosts: body.hosts });
    return this.put('workspace', name, body);
  }
  async deleteVaultSecret(name: string) {
    this.record('deleteVaultSecret', name);
    if (!this.scope('workspace').delete(name)) throw notFoundError('DELETE /vault/secrets/{name}', 'Secret not found');
  }
  async listInternSecrets(internId: string, query?: VaultListQuery) {
    this.record('listInternSecrets', internId, query);
    this.find(internId);
    return this.page([...this.scope(internId).values()].map(strip), query);
  }
  async putInternSecret(internId: string, name: string, body: VaultSecretWrite) {
    this.record('putInternSecret', internId, name, { hosts: body.hosts });
    this.find(internId);
    return this.put(internId, name, body);
  }
  async deleteInternSecret(internId: string, name: string) {
    this.record('deleteInternSecret', internId, name);
    if (!this.scope(internId).delete(name)) throw notFoundError('DELETE /vault/interns/{internId}/secrets/{name}', 'Secret not found');
  }
  async copySecretsToIntern(internId: string, names: string[]) {
    this.record('copySecretsToIntern', internId, names);
    this.find(internId);
    const ws = this.scope('workspace');
    const missing = names.find((n) => !ws.has(n));
    if (missing) throw notFoundError('POST /vault/interns/{internId}/secrets/copy', `No workspace secret named ${missing}`);
    return names.map((n) => {
      const src = ws.get(n)!;
      return this.put(internId, n, { value: src.value, hosts: src.hosts ?? [] });
    });
  }
  async listEffectiveSecrets(internId: string, query?: VaultListQuery) {
    this.record('listEffectiveSecrets', internId, query);
    const me = this.find(internId);
    const byName = new Map<string, EffectiveSecret>();
    const attached = me.attached_vault_id ? this.interns.find((i) => i.vault_id === me.attached_vault_id) : undefined;
    const layers: [string | undefined, EffectiveSecret['scope']][] = [[internId, 'intern'], [attached?.id, 'attached'], ['workspace', 'workspace']];
    for (const [scopeName, scope] of layers) {
      if (!scopeName) continue;
      for (const row of this.scope(scopeName).values()) if (!byName.has(row.name)) byName.set(row.name, { ...strip(row), scope });
    }
    return this.page([...byName.values()], query);
  }
  async listModels() {
    this.record('listModels');
    return this.models;
  }
  async listProviders() {
    this.record('listProviders');
    return this.providers;
  }
  async getKeyInfo() {
    this.record('getKeyInfo');
    return this.keyInfo;
  }
  /** Sessions by id: the prompts seen, and a pending interaction's tool call id. */
  sessions = new Map<string, { prompts: string[]; pending?: string }>();
  /** Set to make the next chat call answer "steered" (a turn is running). */
  steerNext = false;
  async chat(internId: string, body: ChatRequest, opts?: { signal?: AbortSignal }): Promise<ChatStart> {
    this.record('chat', internId, body);
    const i = this.find(internId);
    if (i.status !== 'running') throw new ApiError(409, 409, 'intern_not_ready', false, `The intern is ${i.status}`, 'POST /interns/{internId}/chat/completions');
    const sessionId = body.session_id ?? `sess-${this.sessions.size + 1}`;
    const session = this.sessions.get(sessionId) ?? { prompts: [] };
    this.sessions.set(sessionId, session);
    if (this.steerNext) {
      this.steerNext = false;
      return { kind: 'steered', session_id: sessionId };
    }
    const last = body.messages.at(-1)!;
    const prompt = contentText(last.content);
    const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk => ({
      id: 'gen-fake',
      object: 'chat.completion.chunk',
      created: 1,
      model: i.model ?? 'fake/model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const out: ChatChunk[] = [];
    let usage: ChatChunk['usage'] = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12, cost: 0.000042 };
    if (last.role === 'tool') {
      session.pending = undefined;
      out.push(chunk({ role: 'assistant', content: `You answered: ${prompt}` }), chunk({}, 'stop'));
    } else if (prompt.startsWith('ask:') || (prompt.startsWith('run:') && body.approval_mode === 'manual')) {
      const id = `call-${session.prompts.length + 1}`;
      session.pending = id;
      const args = prompt.startsWith('ask:')
        ? { kind: 'elicitation', message: prompt.slice(4).trim(), fields: [{ name: 'answer', type: 'text', title: 'Answer', required: true }, { name: 'sure', type: 'choice', options: ['yes', 'no'] }] }
        : { kind: 'permission', operation: 'shell', options: ['allow_once', 'allow_always', 'reject_once', 'reject_always'] };
      out.push(chunk({ role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name: PROVIDE_INPUT_TOOL, arguments: JSON.stringify(args) } }] }, 'tool_calls'));
      usage = null;
    } else {
      out.push(chunk({ role: 'assistant', reasoning: 'Thinking about it.' }));
      for (const word of `**Echo**: ${prompt}`.split(/(?<= )/)) out.push(chunk({ content: word }));
      out.push(chunk({}, 'stop'));
    }
    session.prompts.push(prompt);
    out.push({ id: 'gen-fake', object: 'chat.completion.chunk', created: 1, model: i.model ?? 'fake/model', choices: [], session_id: sessionId, usage });
    async function* events(): AsyncGenerator<ChatChunk> {
      for (const c of out) {
        if (opts?.signal?.aborted) return;
        await Promise.resolve();
        yield c;
      }
    }
    return { kind: 'stream', events: events() };
  }
  async exchangeAuthCode(body: { code: string; code_verifier: string }) {
    this.record('exchangeAuthCode', { code: body.code });
    if (body.code !== 'good-code') throw new ApiError(400, 400, 'bad_request', false, 'The code is unknown, already used or expired', 'POST /auth/keys');
    return { key: 'sk-or-v1-fake-signed-in-key-0000', user_id: 'user_a' };
  }
  async invoke(internId: string, body: { input: string; session_id?: string }) {
    this.record('invoke', internId, body);
    this.find(internId);
    return { session_id: body.session_id ?? `sess-${this.sessions.size + 1}`, status: 'started' as const };
  }
}

function strip(row: VaultSecret & { value: string }): VaultSecret {
  const { value: _value, ...rest } = row;
  return rest;
}
