/**
 * The sandbox's answers to the "More operations" routes parse under the official SDK's own zod schemas
 * (@openrouter/sdk 1.3.19, generated from the service's OpenAPI document). Raw JSON goes in, so the
 * project's client cannot hide a difference.
 */
import { OpenRouter } from '@openrouter/sdk';
import * as sdk from '@openrouter/sdk/models';
import * as ops from '@openrouter/sdk/models/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'demo', daemonCommand: 'exec /bin/sh', agent: { paceMs: 1 } });
});
afterAll(() => sb.close());

const get = async (path: string, role = 'api_key') => {
  const res = await raw(sb, 'GET', path, { token: sb.manifest.credentials[role] });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return res.json;
};
const send = async (method: string, path: string, body: unknown) => {
  const res = await raw(sb, method, path, {
    token: sb.manifest.credentials.api_key,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return res.json;
};
const parses = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  expect(r.success, JSON.stringify(r.error)?.slice(0, 600)).toBe(true);
};

describe('the official SDK parses', () => {
  it('GET /models, whole and paged (links.next a URL), for an API key and a management key', async () => {
    parses(sdk.ModelsListResponse$inboundSchema, await get('/models'));
    parses(sdk.ModelsListResponse$inboundSchema, await get('/models?limit=5&supported_parameters=tools', 'management_key'));
  });
  it('GET /providers', async () => parses(ops.ListProvidersResponse$inboundSchema, await get('/providers')));
  it("GET /key through the SDK's own apiKeys.getCurrentKeyMetadata(), for an API key and a management key", async () => {
    // The SDK's call, not a schema picked by hand (GET /keys/{hash}'s schema, checked here before, wants fewer fields).
    const metadata = (role: string) => new OpenRouter({ apiKey: sb.manifest.credentials[role], serverURL: sb.baseUrl }).apiKeys.getCurrentKeyMetadata();
    const key = (await metadata('api_key')).data;
    expect(key).toMatchObject({ isManagementKey: false, isProvisioningKey: false, isFreeTier: false, creatorUserId: 'user_a', organizationId: null });
    expect(key.allowedDataRegions).toEqual(['global', 'europe', 'us']);
    expect(key.freeModelDailyRequests).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number), used: 0 });
    const management = (await metadata('management_key')).data;
    expect(management).toMatchObject({ isManagementKey: true, isProvisioningKey: true, workspaceId: key.workspaceId });
    // An organization's key is the organization's: no user created it for themselves.
    expect((await metadata('org_key')).data).toMatchObject({ isManagementKey: false, creatorUserId: null, organizationId: expect.any(String) });
    parses(ops.GetCurrentKeyResponse$inboundSchema, await get('/key', 'intern_key'));
    parses(ops.GetCurrentKeyResponse$inboundSchema, await get('/key', 'oauth_token'));
  });
  it('GET /workspaces and GET /workspaces/{id}, for a management key', async () => {
    const list = await get('/workspaces', 'management_key');
    parses(sdk.ListWorkspacesResponse$inboundSchema, list);
    const first = (list as { data: { id: string }[] }).data[0]!;
    parses(sdk.GetWorkspaceResponse$inboundSchema, await get(`/workspaces/${first.id}`, 'management_key'));
  });
  it('the vault routes', async () => {
    const intern = sb.manifest.interns.running!;
    parses(sdk.VaultSecretResponse$inboundSchema, await send('PUT', '/vault/secrets/sdk_check', { value: 'v-1', hosts: ['a.example.com'] }));
    parses(sdk.VaultSecretListResponse$inboundSchema, await get('/vault/secrets'));
    parses(sdk.VaultSecretResponse$inboundSchema, await send('PUT', `/vault/interns/${intern}/secrets/own_check`, { value: 'v-2', hosts: ['b.example.com'] }));
    parses(sdk.VaultSecretListResponse$inboundSchema, await get(`/vault/interns/${intern}/secrets`));
    parses(sdk.VaultSecretCopyResponse$inboundSchema, await send('POST', `/vault/interns/${intern}/secrets/copy`, { names: ['sdk_check'] }));
    const effective = (await get(`/vault/interns/${intern}/effective-secrets`)) as { data: { scope: string }[] };
    parses(sdk.VaultSecretListResponse$inboundSchema, effective);
    expect(effective.data.every((s) => ['intern', 'attached', 'workspace'].includes(s.scope))).toBe(true);
  });

  it("the demo's reviewer borrows release-captain's vault: its effective view shows all three scopes", async () => {
    const list = (await get('/interns?limit=100')) as { data: { id: string; name: string }[] };
    const reviewer = list.data.find((i) => i.name === 'reviewer')!;
    const effective = (await get(`/vault/interns/${reviewer.id}/effective-secrets`)) as { data: { name: string; scope: string }[] };
    expect(new Set(effective.data.map((s) => s.scope))).toEqual(new Set(['intern', 'attached', 'workspace']));
    expect(effective.data.find((s) => s.name === 'npm_token')?.scope).toBe('intern');
    expect(effective.data.find((s) => s.name === 'github_token')?.scope).toBe('attached');
  });

  it('POST /auth/keys', async () => {
    const verifier = 'v'.repeat(43);
    const back = await raw(sb, 'GET', `/auth?callback_url=${encodeURIComponent('http://localhost:9/cb')}&code_challenge=${verifier}&code_challenge_method=plain`, { root: true });
    const code = new URL(String(back.headers.location)).searchParams.get('code');
    const res = await raw(sb, 'POST', '/auth/keys', { body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: 'plain' }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    parses(ops.ExchangeAuthCodeForAPIKeyResponse$inboundSchema, res.json);
  });
  it('every chunk of a chat stream, a steer answer and a chat error', async () => {
    const running = sb.manifest.interns.running!;
    const post = (body: unknown) =>
      raw(sb, 'POST', `/interns/${running}/chat/completions`, {
        token: sb.manifest.credentials.api_key,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    const res = await post({ messages: [{ role: 'user', content: 'run: echo sdk' }], stream: true, approval_mode: 'manual' });
    const events = res.text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    for (const e of events.slice(0, -1)) parses(sdk.InternChatCompletionChunk$inboundSchema, JSON.parse(e));
    const err = await post({ messages: [{ role: 'user', content: 'x' }], stream: false });
    expect(err.status).toBe(400);
    parses(sdk.InternChatError$inboundSchema, (err.json as { error: unknown }).error);
  });
});
