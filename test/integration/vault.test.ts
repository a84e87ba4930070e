/** Vault secrets, catalogues and the calling key, through the project's client against a live sandbox. */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import type { InternApi } from '../../src/client/types.js';
import { InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { clientAs, raw, sandbox } from '../support/sandbox.js';

const VALUE = 'vault-value-7c1e9f3a-never-shown';
let sb: RunningSandbox;
let api: InternApi;
let dataDir: string;
const logLines: string[] = [];
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vault-test-'));
  sb = await sandbox({ seed: 'empty', dataDir, log: (l) => logLines.push(l) });
  api = clientAs(sb, { api_key: 'api_key' });
});
afterAll(() => sb.close());

const apiError = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};
const seen: string[] = [];
const keep = <T>(v: T): T => {
  seen.push(JSON.stringify(v));
  return v;
};

describe('workspace secrets', () => {
  it('creates, lists by name with paging, replaces, and deletes; the value never comes back', async () => {
    const made = keep(await api.putVaultSecret('zeta_token', { value: VALUE, hosts: ['API.Example.com.', 'api.example.com'] }));
    expect(made).toMatchObject({ name: 'zeta_token', hosts: ['api.example.com'] });
    expect(made.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Date.parse(made.created_at)).not.toBeNaN();
    keep(await api.putVaultSecret('alpha_key', { value: 'other-value-1', hosts: ['a.example.com'] }));
    const page1 = keep(await api.listVaultSecrets({ limit: 1 }));
    expect(page1).toEqual({ data: [expect.objectContaining({ name: 'alpha_key' })], has_more: true });
    const page2 = keep(await api.listVaultSecrets({ limit: 1, offset: 1 }));
    expect(page2.data.map((s) => s.name)).toEqual(['zeta_token']);
    expect(page2.has_more).toBe(false);

    // Rewriting the same value keeps its fingerprint; a new value changes it.
    const same = keep(await api.putVaultSecret('zeta_token', { value: VALUE, hosts: ['api.example.com'] }));
    expect(same.fingerprint).toBe(made.fingerprint);
    const other = keep(await api.putVaultSecret('zeta_token', { value: `${VALUE}-2`, hosts: ['api.example.com'] }));
    expect(other.fingerprint).not.toBe(made.fingerprint);

    await api.deleteVaultSecret('alpha_key');
    expect((await apiError(api.deleteVaultSecret('alpha_key'))).status).toBe(404);
    expect((await api.listVaultSecrets()).data.map((s) => s.name)).toEqual(['zeta_token']);
  });

  it('replacing a secret (PUT in either scope, or a copy over an intern secret) keeps its created_at; deleting and writing again does not', async () => {
    const tick = () => new Promise((r) => setTimeout(r, 15));
    const internId = sb.manifest.interns.no_icon!;
    const first = keep(await api.putVaultSecret('kept_token', { value: 'kept-value-1', hosts: ['k.example.com'] }));
    const firstOwn = keep(await api.putInternSecret(internId, 'kept_token', { value: 'own-value-1', hosts: ['k.example.com'] }));
    await tick();
    const again = keep(await api.putVaultSecret('kept_token', { value: 'kept-value-2', hosts: ['k2.example.com'] }));
    expect(again).toMatchObject({ hosts: ['k2.example.com'], created_at: first.created_at });
    expect(again.fingerprint).not.toBe(first.fingerprint);
    expect(Object.keys(again).sort()).toEqual(['created_at', 'fingerprint', 'hosts', 'name']);
    const listed = (await api.listVaultSecrets()).data.find((s) => s.name === 'kept_token');
    expect(listed?.created_at).toBe(first.created_at);
    const ownAgain = keep(await api.putInternSecret(internId, 'kept_token', { value: 'own-value-2', hosts: ['k.example.com'] }));
    expect(ownAgain.created_at).toBe(firstOwn.created_at);
    const [copied] = keep(await api.copySecretsToIntern(internId, ['kept_token']));
    expect(copied).toMatchObject({ name: 'kept_token', hosts: ['k2.example.com'], created_at: firstOwn.created_at });

    await api.deleteVaultSecret('kept_token');
    await tick();
    const fresh = keep(await api.putVaultSecret('kept_token', { value: 'kept-value-3', hosts: ['k.example.com'] }));
    expect(Date.parse(fresh.created_at)).toBeGreaterThan(Date.parse(first.created_at));
    await api.deleteVaultSecret('kept_token');
    await api.deleteInternSecret(internId, 'kept_token');
  });

  it.each([
    ['a scheme', { value: 'v', hosts: ['https://api.example.com'] }, /scheme/],
    ['a port', { value: 'v', hosts: ['api.example.com:443'] }, /port/],
    ['a path', { value: 'v', hosts: ['api.example.com/v1'] }, /path/],
    ['a wildcard', { value: 'v', hosts: ['*.example.com'] }, /wildcard/],
    ['no hosts', { value: 'v', hosts: [] }, /host/],
    ['an empty value', { value: '', hosts: ['a.com'] }, /value/],
    ['a value over 65536 characters', { value: 'v'.repeat(65_537), hosts: ['a.com'] }, /65536/],
    ['an unknown field', { value: 'v', hosts: ['a.com'], note: 'x' }, /note: unknown field/],
  ])('refuses %s with 400 invalid_body, naming the rule', async (_n, body, why) => {
    const e = await apiError(api.putVaultSecret('some_name', body as never));
    expect(e.status).toBe(400);
    expect(e.reason).toBe('invalid_body');
    expect(e.message).toMatch(why);
  });

  it.each([['Upper'], ['_lead'], ['trail_'], ['dou__ble'], ['x'.repeat(256)]])('refuses the name %j', async (name) => {
    const e = await apiError(api.putVaultSecret(name, { value: 'v', hosts: ['a.com'] }));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/name/);
  });

  it('answers 503 (retryable) to writes while vault writes are disabled, and reads still work', async () => {
    const toggle = (enabled: boolean) =>
      raw(sb, 'POST', '/__sandbox/vault-writes', {
        root: true,
        token: sb.manifest.control_token,
        body: JSON.stringify({ enabled }),
        headers: { 'content-type': 'application/json' },
      });
    expect((await toggle(false)).status).toBe(200);
    try {
      const e = await apiError(api.putVaultSecret('blocked', { value: 'v', hosts: ['a.com'] }));
      expect(e.status).toBe(503);
      expect(e.retryable).toBe(true);
      expect((await api.listVaultSecrets()).data.length).toBeGreaterThan(0);
    } finally {
      await toggle(true);
    }
  });

  it('needs an API key; refuses a management key and the regional host', async () => {
    expect((await raw(sb, 'GET', '/vault/secrets')).status).toBe(401);
    expect((await raw(sb, 'GET', '/vault/secrets', { token: sb.manifest.credentials.management_key })).status).toBe(401);
    const regional = await raw(sb, 'GET', '/vault/secrets', { token: sb.manifest.credentials.api_key, headers: { host: sb.manifest.regional_host } });
    expect(regional.status).toBe(403);
    expect(InternErrorEnvelopeSchema.safeParse(regional.json).success).toBe(true);
  });
});

describe('intern secrets, copy and the effective view', () => {
  const owner = () => sb.manifest.interns.running!;
  it("keeps an intern's own secrets apart from the workspace's, with a fingerprint per scope", async () => {
    const ws = keep(await api.putVaultSecret('shared_token', { value: VALUE, hosts: ['api.shared.example'] }));
    const own = keep(await api.putInternSecret(owner(), 'shared_token', { value: VALUE, hosts: ['api.shared.example'] }));
    expect(own.fingerprint).not.toBe(ws.fingerprint);
    expect((await api.listInternSecrets(owner())).data.map((s) => s.name)).toContain('shared_token');
    await api.deleteInternSecret(owner(), 'shared_token');
    expect((await apiError(api.deleteInternSecret(owner(), 'shared_token'))).status).toBe(404);
    expect((await apiError(api.listInternSecrets('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });

  it('copies workspace secrets into the intern, all or nothing', async () => {
    await api.putVaultSecret('copy_me', { value: 'copy-value-1', hosts: ['c.example.com'] });
    await api.putVaultSecret('copy_me_too', { value: 'copy-value-2', hosts: ['d.example.com'] });
    const e = await apiError(api.copySecretsToIntern(owner(), ['copy_me', 'no_such_secret']));
    expect(e.status).toBe(404);
    expect(e.message).toMatch(/no_such_secret/);
    expect((await api.listInternSecrets(owner())).data.map((s) => s.name)).not.toContain('copy_me');
    const copies = keep(await api.copySecretsToIntern(owner(), ['copy_me', 'copy_me_too']));
    expect(copies.map((c) => [c.name, c.hosts])).toEqual([
      ['copy_me', ['c.example.com']],
      ['copy_me_too', ['d.example.com']],
    ]);
    expect((await apiError(api.copySecretsToIntern(owner(), []))).status).toBe(400);
    // An intern's own key never reaches the workspace scope (spec 5.9): it cannot copy from it, nor
    // learn which names exist there from the answer.
    const own = clientAs(sb, { api_key: 'intern_key' });
    expect((await apiError(own.copySecretsToIntern(owner(), ['copy_me']))).status).toBe(404);
    expect((await apiError(own.copySecretsToIntern(owner(), ['no_such_secret']))).status).toBe(404);
  });

  it('resolves each name to one winner: the intern, then the attached vault, then the workspace', async () => {
    const lender = await api.getIntern(owner());
    expect(lender.vault_id).toBeTruthy();
    const borrower = await api.createIntern({ name: 'borrower', vault_id: lender.vault_id! });
    expect(borrower.attached_vault_id).toBe(lender.vault_id);
    await api.putVaultSecret('layered', { value: 'ws-layer', hosts: ['l.example.com'] });
    await api.putVaultSecret('only_workspace', { value: 'ws-only', hosts: ['w.example.com'] });
    await api.putInternSecret(lender.id, 'layered', { value: 'lender-layer', hosts: ['l.example.com'] });
    await api.putInternSecret(lender.id, 'only_lender', { value: 'lender-only', hosts: ['x.example.com'] });

    const scopeOf = async () => Object.fromEntries((keep(await api.listEffectiveSecrets(borrower.id))).data.map((s) => [s.name, s.scope]));
    expect(await scopeOf()).toMatchObject({ layered: 'attached', only_lender: 'attached', only_workspace: 'workspace' });
    await api.putInternSecret(borrower.id, 'layered', { value: 'own-layer', hosts: ['l.example.com'] });
    expect(await scopeOf()).toMatchObject({ layered: 'intern', only_lender: 'attached', only_workspace: 'workspace' });

    const names = (await api.listEffectiveSecrets(borrower.id)).data.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    const paged = await api.listEffectiveSecrets(borrower.id, { limit: 2, offset: 1 });
    expect(paged.data.map((s) => s.name)).toEqual(names.slice(1, 3));
    expect((await apiError(api.listEffectiveSecrets(borrower.id, { limit: 101 }))).status).toBe(400);
  });
});

describe('catalogues and the calling key', () => {
  it('lists at least 60 models with author/slug ids and decimal prices, and the provider catalogue', async () => {
    const models = keep(await api.listModels());
    expect(models.length).toBeGreaterThanOrEqual(60);
    for (const m of models) {
      expect(m.id).toMatch(/^[a-z0-9-]+\/[a-z0-9.:-]+$/);
      expect(Number(m.pricing.prompt)).toBeGreaterThanOrEqual(0);
    }
    expect(models.map((m) => m.id)).toContain('anthropic/claude-sonnet-4');
    const providers = keep(await api.listProviders());
    expect(providers.find((p) => p.slug === 'openai')?.name).toBe('OpenAI');
    expect(providers.length).toBe(109);
  });

  it('describes the calling key by a label that shows only a few characters of it', async () => {
    const info = keep(await api.getKeyInfo());
    const key = sb.manifest.credentials.api_key!;
    expect(info.label).toMatch(/^sk-\.\.\..{4}$/);
    expect(info.label).not.toContain(key.slice(9, 20));
    expect(info.is_management_key).toBe(false);
    const mgmt = await clientAs(sb, { api_key: 'management_key' }).getKeyInfo();
    expect(mgmt.is_management_key).toBe(true);
    // The account's key: its default workspace, the one the API key's workspace is here, not "".
    expect(mgmt.workspace_id).toBe(info.workspace_id);
    expect(mgmt.workspace_id).toMatch(/\S/);
  });
});

describe('no secret value anywhere', () => {
  it('is not in any response, log line, or the database files', async () => {
    expect(seen.length).toBeGreaterThan(5);
    for (const body of seen) expect(body).not.toContain(VALUE);
    for (const line of logLines) expect(line).not.toContain(VALUE);
    expect(logLines.some((l) => l.startsWith('PUT /api/v1/vault/secrets/:name 200'))).toBe(true);
    for (const f of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, f));
      expect(bytes.includes(Buffer.from(VALUE)), f).toBe(false);
      expect(bytes.includes(Buffer.from('copy-value-1')), f).toBe(false);
    }
  });
});
