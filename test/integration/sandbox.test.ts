import { readFileSync, readdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { ByokDeletedSchema } from '../../src/contract/byok.js';
import { ByokErrorEnvelopeSchema, InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import { DeleteAcceptedSchema, ProvisionAcceptedSchema, SuspendedSchema } from '../../src/contract/intern.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { clientAs, raw, sandbox, userClient, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty', deadlineMs: 300 });
});
afterAll(() => sb.close());

const role = (r: string) => sb.manifest.credentials[r]!;
const id = (r: string) => sb.manifest.interns[r]!;
const control = (method: string, path: string, body?: unknown) =>
  raw(sb, method, `/__sandbox${path}`, {
    root: true,
    token: sb.manifest.control_token,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
const apiError = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

describe('manifest', () => {
  it('names every role of the testing contract', () => {
    const m = sb.manifest;
    expect(m.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(m.regional_host).toMatch(/^eu\.localhost:\d+$/);
    for (const r of ['api_key', 'api_key_peer', 'api_key_other_workspace', 'api_key_outside_programme', 'api_key_lost_access', 'org_key', 'intern_key', 'management_key', 'management_key_no_default_workspace', 'oauth_token', 'oauth_token_peer']) {
      expect(m.credentials[r], r).toBeTruthy();
    }
    for (const r of ['running', 'running_jpeg', 'no_icon', 'stopped', 'queued', 'provisioning', 'failed', 'awaiting_slack_install', 'destroying', 'destroy_failed', 'peer', 'other_workspace']) {
      expect(m.interns[r], r).toBeTruthy();
    }
    expect(m.api_key_hashes.own.every((h) => /^[a-f0-9]{64}$/.test(h))).toBe(true);
    expect(m.names.taken).not.toBe(m.names.peer_taken);
  });

  it('is written with mode 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-manifest-'));
    const other = await sandbox({ manifestPath: join(dir, 'm.json') });
    try {
      expect(statSync(join(dir, 'm.json')).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')).control_token).toBe(other.manifest.control_token);
    } finally {
      await other.close();
    }
  });
});

describe('authentication', () => {
  it.each([
    ['a missing key', undefined, 401],
    ['an unknown key', 'sk-or-v1-nope', 401],
    ['a management key', 'management_key', 401],
    ['a key whose owner lost access', 'api_key_lost_access', 403],
    ['a caller outside the programme', 'api_key_outside_programme', 404],
  ])('intern routes refuse %s with %s', async (_n, r, status) => {
    const token = r === undefined ? undefined : (sb.manifest.credentials[r] ?? r);
    const res = await raw(sb, 'GET', `/interns/${id('running')}`, { token });
    expect(res.status).toBe(status);
    const env = InternErrorEnvelopeSchema.parse(res.json);
    expect(env.error.code).toBe(status);
    if (status === 401 || status === 403) expect(env.error.metadata).toBeUndefined();
    if (status === 404) expect(env.error.metadata).toEqual({ reason: 'not_found', retryable: false });
  });

  it('refuses a regional host on intern and vault routes', async () => {
    for (const path of [`/interns/${id('running')}`, `/vault/interns/${id('running')}/connections`]) {
      const res = await raw(sb, 'GET', path, { token: role('api_key'), headers: { host: sb.manifest.regional_host } });
      expect(res.status).toBe(403);
    }
  });

  it("an intern's own key sees only that intern", async () => {
    const c = clientAs(sb, { api_key: 'intern_key' });
    expect((await c.getIntern(id('running'))).id).toBe(id('running'));
    expect((await c.listConnections(id('running'))).data.length).toBeGreaterThan(0);
    expect((await apiError(c.getIntern(id('stopped')))).status).toBe(404);
    expect((await apiError(c.listInterns())).status).toBe(404);
  });

  it('both users see every intern of the workspace; created_by_you tells them apart; org keys get none', async () => {
    const a = await userClient(sb).getIntern(id('peer'));
    const b = await clientAs(sb, { api_key: 'api_key_peer' }).getIntern(id('peer'));
    const org = await clientAs(sb, { api_key: 'org_key' }).getIntern(id('peer'));
    expect(a.created_by_you).toBe(false);
    expect(b.created_by_you).toBe(true);
    expect(org).not.toHaveProperty('created_by_you');
    expect((await apiError(userClient(sb).getIntern(id('other_workspace')))).status).toBe(404);
    expect((await clientAs(sb, { api_key: 'api_key_other_workspace' }).getIntern(id('other_workspace'))).name).toBe('elsewhere');
  });

  it('BYOK routes: 401 without a key, 403 for any key but a management key; only code and message', async () => {
    const none = await raw(sb, 'GET', '/byok');
    expect(none.status).toBe(401);
    const api = await raw(sb, 'GET', '/byok', { token: role('api_key') });
    expect(api.status).toBe(403);
    expect(ByokErrorEnvelopeSchema.parse(api.json).error).toEqual({ code: 403, message: expect.any(String) });
  });
});

describe('interns', () => {
  it('lists newest first with a cursor, a status filter and a limit', async () => {
    const c = userClient(sb);
    const first = await c.listInterns({ limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const second = await c.listInterns({ limit: 3, starting_after: first.next_cursor });
    expect(second.data.map((i) => i.id)).not.toContain(first.data[0]!.id);
    const times = [...first.data, ...second.data].map((i) => i.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const running = await c.listInterns({ status: ['running'] });
    expect(running.data.every((i) => i.status === 'running')).toBe(true);
    expect((await raw(sb, 'GET', '/interns?starting_after=garbage', { token: role('api_key') })).status).toBe(400);
    expect((await raw(sb, 'GET', '/interns?limit=501', { token: role('api_key') })).status).toBe(400);
  });

  it('refuses a well-formed cursor it never issued, or one issued for another workspace; a cursor outlives its intern', async () => {
    const list = (query: string, r = 'api_key') => raw(sb, 'GET', `/interns?${query}`, { token: role(r) });
    for (const forged of ['seq:99999', 'seq:1', 'seq:0']) {
      const res = await list(`limit=1&starting_after=${Buffer.from(forged).toString('base64url')}`);
      expect(res.status, forged).toBe(400);
      const env = InternErrorEnvelopeSchema.parse(res.json);
      expect(env.error.message).toMatch(/^starting_after: not a cursor this service issued for this list/);
      expect(env.error.metadata).toEqual({ reason: 'invalid_body', retryable: false });
    }
    const first = (await list('limit=1')).json as { data: { id: string }[]; next_cursor: string };
    expect((await list(`limit=1&starting_after=${first.next_cursor}`)).status).toBe(200);
    // The same position, under another tag, or in another workspace's list: not this list's cursor.
    expect((await list(`limit=1&starting_after=${first.next_cursor.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAA')}`)).status).toBe(400);
    expect((await list(`limit=1&starting_after=${first.next_cursor}`, 'api_key_other_workspace')).status).toBe(400);

    // A cursor that stopped at an intern still pages on after that intern is deleted.
    const c = userClient(sb);
    const made = await c.createIntern({ name: 'cursor-mark' });
    const page = await c.listInterns({ limit: 1 });
    expect(page.data[0]!.id).toBe(made.id);
    await c.deleteIntern(made.id);
    await waitFor(() => raw(sb, 'GET', `/interns/${made.id}`, { token: role('api_key') }), (r) => r.status === 404, 5000, 'the delete');
    const after = await list(`limit=1&starting_after=${page.next_cursor}`);
    expect(after.status).toBe(200);
    expect((after.json as { data: { id: string }[] }).data[0]!.id).toBe(first.data[0]!.id);
  });

  // Number() (zod's coerce) read all of these as 3 (or 100); a list route takes plain decimal digits only.
  const NOT_DECIMAL = ['0x3', '0b11', '0o3', '1e2', '+3', '3.0', '%203%20', '%2B3', '', '-0'];
  it.each([
    ['/interns', 'limit', 'api_key'],
    ['/byok', 'limit', 'management_key'],
    ['/byok', 'offset', 'management_key'],
    ['/workspaces', 'limit', 'management_key'],
    ['/workspaces', 'offset', 'management_key'],
    ['/vault/secrets', 'limit', 'api_key'],
    ['/vault/secrets', 'offset', 'api_key'],
  ])('GET %s refuses a %s that is not plain decimal digits', async (path, param, r) => {
    for (const value of NOT_DECIMAL) {
      const res = await raw(sb, 'GET', `${path}?${param}=${value}`, { token: role(r) });
      expect(res.status, `${param}=${value}`).toBe(400);
      expect((res.json as { error: { message: string } }).error.message, `${param}=${value}`).toContain(param);
    }
    expect((await raw(sb, 'GET', `${path}?${param}=3&${param}=4`, { token: role(r) })).status, 'given twice').toBe(400);
    expect((await raw(sb, 'GET', `${path}?${param}=3`, { token: role(r) })).status).toBe(200);
    expect((await raw(sb, 'GET', `${path}?${param}=003`, { token: role(r) })).status).toBe(200);
  });

  it('reads every field of 2.1 with nulls present', async () => {
    const res = await raw(sb, 'GET', `/interns/${id('provisioning')}`, { token: role('api_key') });
    const body = res.json as Record<string, unknown>;
    for (const k of ['description', 'instructions', 'model', 'last_failure_message', 'hostname', 'vault_id', 'attached_vault_id', 'icon_sha256']) {
      expect(body, k).toHaveProperty(k);
    }
    expect(body.progress).toMatchObject({ step_label: expect.any(String), step_number: 2, total_steps: 4 });
    const failed = await userClient(sb).getIntern(id('failed'));
    expect(failed.last_failure_message).toMatch(/Image pull failed/);
  });

  it('PATCH: omitted fields stay, null clears, model null restores the default and waits for the next provision', async () => {
    const c = userClient(sb);
    const before = await c.getIntern(id('running'));
    const after = await c.updateIntern(id('running'), { description: null, model: 'openai/gpt-4.1:free' });
    expect(after.description).toBeNull();
    expect(after.instructions).toBe(before.instructions);
    expect(after.model).toBe('openai/gpt-4.1:free');
    expect((await c.updateIntern(id('running'), { model: null })).model).toBeNull();
    expect((await c.updateIntern(id('running'), {})).name).toBe(before.name);
  });

  it.each([
    ['malformed JSON', '{"name": ', 'application/json', 400, 'invalid_body'],
    ['a non-object', '[1,2]', 'application/json', 400, 'invalid_body'],
    ['an unknown field', '{"colour": "red"}', 'application/json', 400, 'invalid_body'],
    ['a broken rule', '{"name": "Bad Name"}', 'application/json', 400, 'invalid_body'],
    ['a wrong type', '{"description": 5}', 'application/json', 400, 'invalid_body'],
    ['no JSON content type', '{}', 'text/plain', 415, 'unsupported_media_type'],
    ['a body over the limit', `{"description": "${'x'.repeat(1_048_576)}"}`, 'application/json', 413, 'payload_too_large'],
  ])('PATCH refuses %s', async (_n, body, type, status, reason) => {
    const res = await raw(sb, 'PATCH', `/interns/${id('no_icon')}`, { token: role('api_key'), body, headers: { 'content-type': type } });
    expect(res.status).toBe(status);
    const env = InternErrorEnvelopeSchema.parse(res.json);
    expect(env.error.metadata).toEqual({ reason, retryable: false });
  });

  it('names the field and the rule in a 400', async () => {
    const e = await apiError(userClient(sb).updateIntern(id('no_icon'), { name: 'Bad' } as never));
    expect(e.message).toMatch(/name: must be lowercase/);
  });

  it('cuts off a chunked body with no Content-Length as soon as it passes the limit', async () => {
    let sent = 0;
    async function* body() {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      yield Buffer.from('{"description":"');
      for (let i = 0; i < 64; i++) {
        sent += chunk.length;
        yield chunk;
      }
    }
    const res = await raw(sb, 'PATCH', `/interns/${id('no_icon')}`, { token: role('api_key'), body: body(), headers: { 'content-type': 'application/json' } }).catch((e: Error) => ({ status: -1, json: undefined, headers: {}, text: e.message }));
    if (res.status !== -1) {
      expect(res.status).toBe(413);
      expect(InternErrorEnvelopeSchema.parse(res.json).error.metadata?.reason).toBe('payload_too_large');
    }
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  });

  it('of two concurrent renames to one new name, exactly one wins and the other gets name_taken', async () => {
    const c = userClient(sb);
    const results = await Promise.allSettled([
      c.updateIntern(id('no_icon'), { name: 'race-winner' }),
      c.updateIntern(id('running_jpeg'), { name: 'race-winner' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ status: 409, reason: 'name_taken' });
  });

  it('names are unique per creator: a name only the peer uses is free for A, a name A uses is taken', async () => {
    const c = userClient(sb);
    expect((await apiError(c.updateIntern(id('stopped'), { name: sb.manifest.names.taken === 'sleeper' ? 'runner' : 'sleeper' }))).reason).toBe('name_taken');
    const renamed = await c.updateIntern(id('destroy_failed'), { name: sb.manifest.names.peer_taken });
    expect(renamed.name).toBe(sb.manifest.names.peer_taken);
  });

  it("name_taken says whose intern holds the name: the caller's own, or the renamed intern's creator's", async () => {
    const a = userClient(sb);
    const own = await apiError(a.createIntern({ name: sb.manifest.names.taken }));
    expect(own.status).toBe(409);
    expect(own.message).toContain('already used by one of your interns');
    // A renames B's intern to a name another of B's interns has: the holder is B's, not A's.
    const b = clientAs(sb, { api_key: 'api_key_peer' });
    const second = await b.createIntern({ name: 'peer-second' });
    const peers = await apiError(a.updateIntern(id('peer'), { name: 'peer-second' }));
    expect(peers.status).toBe(409);
    expect(peers.reason).toBe('name_taken');
    expect(peers.message).not.toMatch(/\byour\b/);
    expect(peers.message).toContain("another intern of this intern's creator");
    // B renaming their own intern to it hears it is one of theirs.
    expect((await apiError(b.updateIntern(id('peer'), { name: 'peer-second' }))).message).toContain('one of your interns');
    await b.deleteIntern(second.id);
  });

  it('answers 408 with the deadline in the message when a route passes it, and injected faults', async () => {
    await control('POST', '/faults', { match: 'GET /interns/{internId}', delay_ms: 1000 });
    const slow = await apiError(userClient(sb).getIntern(id('running')));
    expect(slow).toMatchObject({ status: 408, reason: 'timeout', retryable: true });
    expect(slow.message).toContain('300 ms');
    await control('POST', '/faults', { match: 'GET /interns/{internId}', status: 500, reason: 'configuration_error' });
    const broken = await apiError(userClient(sb).getIntern(id('running')));
    expect(broken).toMatchObject({ status: 500, reason: 'configuration_error', retryable: false });
    await control('POST', '/faults', { match: 'GET /interns/{internId}', status: 500 });
    expect(await apiError(userClient(sb).getIntern(id('running')))).toMatchObject({ reason: 'internal_error', retryable: true });
    await control('DELETE', '/faults');
    expect((await userClient(sb).getIntern(id('running'))).id).toBe(id('running'));
  });

  it('changes nothing for a request it answered 408: a retry is what "retryable" promises', async () => {
    const before = (await userClient(sb).getIntern(id('running'))).description;
    await control('POST', '/faults', { match: 'PATCH /interns/{internId}', delay_ms: 600 });
    try {
      const asked = performance.now();
      const slow = await apiError(userClient(sb).updateIntern(id('running'), { description: 'written after the deadline' }));
      expect(slow).toMatchObject({ status: 408, retryable: true });
      // What is checked is that something does not happen: only the clock can say it would have by
      // now (the injected delay, then the handler, which took microseconds before this fix).
      while (performance.now() - asked < 600 + 150) await new Promise((r) => setTimeout(r, 25));
      expect((await userClient(sb).getIntern(id('running'))).description).toBe(before);
    } finally {
      await control('DELETE', '/faults');
    }
  });

  it('lifecycle writes disabled answer 404 on writes only', async () => {
    await control('POST', '/lifecycle-writes', { enabled: false });
    try {
      expect((await apiError(userClient(sb).updateIntern(id('running'), { description: 'x' }))).status).toBe(404);
      expect((await apiError(userClient(sb).provisionIntern(id('stopped')))).status).toBe(404);
      expect((await userClient(sb).getIntern(id('running'))).id).toBe(id('running'));
    } finally {
      await control('POST', '/lifecycle-writes', { enabled: true });
    }
  });
});

describe('icon', () => {
  it('serves PNG and JPEG with the sha256 of the bytes, cacheable for a year when v matches', async () => {
    const c = userClient(sb);
    for (const [r, type] of [['running', 'image/png'], ['running_jpeg', 'image/jpeg']] as const) {
      const intern = await c.getIntern(id(r));
      const icon = await c.getInternIcon(intern.id, intern.icon_sha256!);
      expect(icon.contentType).toBe(type);
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(icon.bytes).digest('hex')).toBe(intern.icon_sha256);
    }
    const intern = await c.getIntern(id('running'));
    const fresh = await raw(sb, 'GET', `/interns/${intern.id}/icon?v=${intern.icon_sha256}`, { token: role('api_key') });
    expect(fresh.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const stale = await raw(sb, 'GET', `/interns/${intern.id}/icon?v=old`, { token: role('api_key') });
    expect(stale.headers['cache-control']).toBe('no-cache');
    const revalidated = await raw(sb, 'GET', `/interns/${intern.id}/icon`, { token: role('api_key'), headers: { 'if-none-match': String(stale.headers.etag) } });
    expect(revalidated.status).toBe(304);
    expect((await apiError(c.getInternIcon(id('no_icon'))).catch((e) => e)).status).toBe(404);
    expect((await raw(sb, 'GET', `/interns/${intern.id}/icon`)).status).toBe(401);
  });
});

describe('daemon access', () => {
  it('needs an OAuth token, a running intern, is not cacheable, and every reveal is audited', async () => {
    const apiKeyOnly = clientAs(sb, { oauth_token: 'api_key' });
    expect(await apiError(apiKeyOnly.getDaemonAccess(id('running')))).toMatchObject({ status: 403, reason: 'personal_identity_required' });
    // An unknown bearer on the daemon route is an unusable OAuth token, not an API key.
    const unknown = await raw(sb, 'GET', `/interns/${id('running')}/daemon`, { token: 'not-a-token-it-knows' });
    expect(unknown.status).toBe(401);
    expect(InternErrorEnvelopeSchema.parse(unknown.json).error.message).toBe('Missing, unknown or unusable OAuth token');
    const c = userClient(sb);
    expect(await apiError(c.getDaemonAccess(id('stopped')))).toMatchObject({ status: 409, reason: 'intern_not_running' });
    const res = await raw(sb, 'GET', `/interns/${id('running')}/daemon`, { token: role('oauth_token') });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const access = res.json as { origin: string; token: string };
    expect(access.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(access.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const audit = (await control('GET', '/audit')).json as { data: { caller: string; intern_id: string; at: string }[] };
    expect(audit.data.some((a) => a.intern_id === id('running') && a.caller === 'user:user_a')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(access.token);
    expect((await raw(sb, 'GET', '/__sandbox/audit', { root: true, token: 'wrong' })).status).toBe(404);
    // HEAD reveals nothing, so it mints no token and writes no audit entry (fastify would run the GET for it).
    const entries = audit.data.length;
    expect((await raw(sb, 'HEAD', `/interns/${id('running')}/daemon`, { token: role('oauth_token') })).status).toBe(404);
    expect(((await control('GET', '/audit')).json as { data: unknown[] }).data.length).toBe(entries);
  });
});

describe('connections', () => {
  it('lists stored, enabled connections not off or hidden for the intern, whatever their last test', async () => {
    const keys = (await userClient(sb).listConnections(id('running'))).data.map((c) => c.key);
    expect(keys).toEqual(['github', 'slack', 'linear', 'mcp:tools.example.com', 'notion']);
  });
});

describe('lifecycle', () => {
  it('provision moves through queued and provisioning with labelled steps to running; suspend stops it', async () => {
    const c = userClient(sb);
    // The acknowledgements are the spec's (the client reads only their 2xx).
    const provisioned = await raw(sb, 'POST', `/interns/${id('failed')}/provision`, { token: role('api_key') });
    expect([provisioned.status, ProvisionAcceptedSchema.safeParse(provisioned.json).success]).toEqual([202, true]);
    const seen = new Set<string>();
    const running = await waitFor(
      async () => {
        const i = await c.getIntern(id('failed'));
        seen.add(i.status);
        if (i.progress) expect(i.progress.step_label).toBeTruthy();
        return i;
      },
      (i) => i.status === 'running',
      10_000,
      'running',
    );
    expect(seen.has('provisioning')).toBe(true);
    expect(running.hostname).toBeTruthy();
    expect(running.progress).toBeNull();
    expect(await apiError(c.provisionIntern(id('failed')))).toMatchObject({ status: 409, reason: 'intern_busy' });
    const suspended = await raw(sb, 'POST', `/interns/${id('failed')}/suspend`, { token: role('api_key') });
    expect([suspended.status, SuspendedSchema.safeParse(suspended.json).success]).toEqual([200, true]);
    expect((await c.getIntern(id('failed'))).status).toBe('stopped');
    expect(await apiError(c.suspendIntern(id('failed')))).toMatchObject({ reason: 'intern_busy' });
    expect((await raw(sb, 'POST', `/interns/${id('stopped')}/provision`, { token: role('api_key'), body: '{"now": true}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('create (with idempotent replay) and delete, which moves through destroying and removes it', async () => {
    const c = userClient(sb);
    const made = await c.createIntern({ name: 'short-lived', description: 'bye' }, { idempotencyKey: 'idem-1' });
    const again = await c.createIntern({ name: 'short-lived', description: 'bye' }, { idempotencyKey: 'idem-1' });
    expect(again.id).toBe(made.id);
    expect(made.created_by_you).toBe(true);
    const deleted = await raw(sb, 'DELETE', `/interns/${made.id}`, { token: role('api_key'), body: '{"acknowledge_workspace_loss":true}', headers: { 'content-type': 'application/json' } });
    expect([deleted.status, DeleteAcceptedSchema.safeParse(deleted.json).success]).toEqual([202, true]);
    expect((await c.getIntern(made.id)).status).toBe('destroying');
    await waitFor(() => c.getIntern(made.id).then(() => 'still', (e: ApiError) => e.status), (s) => s === 404, 5000, 'removal');
  });

  it('suspend, like provision, takes no body: a body with any field is 400 and suspends nothing', async () => {
    const c = userClient(sb);
    const made = await c.createIntern({ name: 'no-body-suspend' });
    await control('POST', `/interns/${made.id}/status`, { status: 'running' });
    const json = { 'content-type': 'application/json' };
    const refused = await raw(sb, 'POST', `/interns/${made.id}/suspend`, { token: role('api_key'), body: '{"x":1}', headers: json });
    expect(refused.status).toBe(400);
    expect(InternErrorEnvelopeSchema.parse(refused.json).error).toMatchObject({ message: expect.stringMatching(/suspend takes no body fields; got x/), metadata: { reason: 'invalid_body' } });
    expect((await raw(sb, 'POST', `/interns/${made.id}/suspend`, { token: role('api_key'), body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await c.getIntern(made.id)).status).toBe('running');
    // No body, or an empty object, suspends as before.
    expect((await raw(sb, 'POST', `/interns/${made.id}/suspend`, { token: role('api_key'), body: '{}', headers: json })).status).toBe(200);
    expect((await c.getIntern(made.id)).status).toBe('stopped');
  });

  it('delete refuses a destroy_failed intern whose workspace archive failed unless acknowledge_workspace_loss is true', async () => {
    const c = userClient(sb);
    const json = { 'content-type': 'application/json' };
    const del = (internId: string, body?: string) => raw(sb, 'DELETE', `/interns/${internId}`, { token: role('api_key'), body, headers: body === undefined ? {} : json });
    const lost = await c.createIntern({ name: 'no-archive' });
    await control('POST', `/interns/${lost.id}/status`, { status: 'destroy_failed', last_failure_message: 'Teardown stopped: workspace_archive_failed (the snapshot upload timed out)' });
    for (const body of [undefined, '{}', '{"acknowledge_workspace_loss":false}']) {
      const refused = await del(lost.id, body);
      expect(refused.status, body).toBe(409);
      const env = InternErrorEnvelopeSchema.parse(refused.json);
      expect(env.error.code).toBe(409);
      expect(env.error.metadata).toBeUndefined();
      expect(env.error.message).toMatch(/acknowledge_workspace_loss": true/);
    }
    // The intern says why its teardown failed (spec 2.1's last_failure_message, on both failed states),
    // so a client can tell the user, and see that the workspace will be lost, before deleting again.
    expect(await c.getIntern(lost.id)).toMatchObject({ status: 'destroy_failed', last_failure_message: expect.stringContaining('workspace_archive_failed') });
    expect((await c.getIntern(id('destroy_failed'))).last_failure_message).toMatch(/^Teardown failed: /);
    // The flag (the project's client always sends it) lets the teardown go on.
    await c.deleteIntern(lost.id);
    // A new attempt is under way: the last one's failure is no longer the news.
    expect(await c.getIntern(lost.id)).toMatchObject({ status: 'destroying', last_failure_message: null });
    // A destroy_failed intern for another reason, and any other intern, need no flag.
    const other = await c.createIntern({ name: 'other-failure' });
    await control('POST', `/interns/${other.id}/status`, { status: 'destroy_failed', last_failure_message: 'Its vault is still attached to another intern' });
    expect((await del(other.id)).status).toBe(202);
  });

  it('the control API sets a status; fixture interns keep theirs', async () => {
    await control('POST', `/interns/${id('queued')}/status`, { status: 'failed', last_failure_message: 'set by a test' });
    const i = await userClient(sb).getIntern(id('queued'));
    expect(i.status).toBe('failed');
    expect(i.last_failure_message).toBe('set by a test');
    expect((await userClient(sb).getIntern(id('awaiting_slack_install'))).status).toBe('awaiting_slack_install');
  });
});

describe('BYOK', () => {
  const mgmt = () => clientAs(sb, { management_key: 'management_key' });
  it('creates with a masked label, never returning the key, and lists, gets and deletes', async () => {
    const c = mgmt();
    const made = await c.createByok({ provider: 'anthropic', key: 'sk-ant-very-secret-0000-abcd', name: 'team', allowed_models: ['a/b'] });
    expect(made.label).toBe('sk-...abcd');
    expect(JSON.stringify(made)).not.toContain('very-secret');
    expect(made.workspace_id).toBeTruthy();
    const listed = await c.listByok({ provider: 'anthropic' });
    expect(listed.data.map((x) => x.id)).toContain(made.id);
    expect(listed.total_count).toBeGreaterThanOrEqual(1);
    expect((await c.getByok(made.id)).name).toBe('team');
    const deleted = await raw(sb, 'DELETE', `/byok/${made.id}`, { token: role('management_key') });
    expect([deleted.status, ByokDeletedSchema.safeParse(deleted.json).success]).toEqual([200, true]);
    expect((await apiError(c.getByok(made.id))).status).toBe(404);
  });

  it.each([
    ['hashes not of the account', (h: { own: string[]; foreign: string[] }) => ({ provider: 'groq', key: 'k', allowed_api_key_hashes: [h.foreign[0]!] }), /not a key of this account/],
    ['an empty hash list', () => ({ provider: 'groq', key: 'k', allowed_api_key_hashes: [] }), /allowed_api_key_hashes/],
    ['byok-only with fallback', () => ({ provider: 'groq', key: 'k', is_byok_only: true, is_fallback: true }), /is_byok_only/],
    ['azure outside europe/us', () => ({ provider: 'azure', key: 'k', declared_region: 'global' }), /europe or us/],
    ['an openai region that differs from its key', () => ({ provider: 'openai', key: '{"api_key":"sk-x","region":"europe"}', declared_region: 'us' }), /does not match/],
    ['a name over 255', () => ({ provider: 'groq', key: 'k', name: 'n'.repeat(256) }), /name/],
    ['a provider outside the catalogue', () => ({ provider: 'not-a-provider', key: 'k' }), /not a provider of the catalogue/],
    ['europe for a provider that only knows global', () => ({ provider: 'anthropic', key: 'k', declared_region: 'europe' }), /anthropic must be global/],
    ['us for a provider that only knows global', () => ({ provider: 'groq', key: 'k', declared_region: 'us' }), /groq must be global/],
    ['us for openai with a plain key', () => ({ provider: 'openai', key: 'sk-plain-key-000', declared_region: 'us' }), /openai must be global/],
  ])('refuses %s with 400', async (_n, body, message) => {
    const e = await apiError(mgmt().createByok(body(sb.manifest.api_key_hashes) as never));
    expect(e.status).toBe(400);
    expect(e.reason).toBeNull();
    expect(e.message).toMatch(message);
  });

  it('accepts own hashes, derives the region of openai keys, and needs workspace_id when the default was deleted', async () => {
    const made = await mgmt().createByok({ provider: 'openai', key: '{"api_key":"sk-x-1234567890","region":"europe"}', allowed_api_key_hashes: [sb.manifest.api_key_hashes.own[0]!] });
    expect(made.declared_region).toBe('europe');
    const noDefault = clientAs(sb, { management_key: 'management_key_no_default_workspace' });
    expect((await apiError(noDefault.createByok({ provider: 'groq', key: 'k' }))).message).toMatch(/workspace_id/);
  });

  it('lists the default workspace, or the workspace_id given; with the default deleted, or a workspace_id not of the account, it is 400', async () => {
    const made = await mgmt().createByok({ provider: 'mistral', key: 'mistral-list-scope-0001' });
    expect((await mgmt().listByok({ provider: 'mistral' })).data.map((x) => x.id)).toContain(made.id);
    expect((await mgmt().listByok({ provider: 'mistral', workspace_id: made.workspace_id! })).data.map((x) => x.id)).toContain(made.id);
    // A credential of the account's other workspace is listed with its workspace_id only.
    const w2 = (await clientAs(sb, { api_key: 'api_key_other_workspace' }).getKeyInfo()).workspace_id!;
    const elsewhere = await mgmt().createByok({ provider: 'mistral', key: 'mistral-list-scope-0002', workspace_id: w2 });
    expect((await mgmt().listByok({ provider: 'mistral' })).data.map((x) => x.id)).not.toContain(elsewhere.id);
    expect((await mgmt().listByok({ provider: 'mistral', workspace_id: w2 })).data.map((x) => x.id)).toEqual([elsewhere.id]);
    const list = async (r: string, query: string) => {
      const res = await raw(sb, 'GET', `/byok${query}`, { token: role(r) });
      return { status: res.status, message: ByokErrorEnvelopeSchema.safeParse(res.json).data?.error.message };
    };
    expect(await list('management_key_no_default_workspace', '')).toEqual({ status: 400, message: 'The default workspace was deleted: pass workspace_id' });
    const notOurs = { status: 400, message: 'workspace_id: not a workspace of this account' };
    expect(await list('management_key_no_default_workspace', '?workspace_id=not-a-uuid')).toEqual(notOurs);
    expect(await list('management_key_no_default_workspace', `?workspace_id=${made.workspace_id}`)).toEqual(notOurs);
    expect(await list('management_key', '?workspace_id=550e8400-e29b-41d4-a716-446655440000')).toEqual(notOurs);
    expect(await list('management_key', '?workspace_id=')).toEqual(notOurs);
  });

  it('updates on the merged state, rotates keys with a new label, and 404s an unknown id', async () => {
    const c = mgmt();
    const made = await c.createByok({ provider: 'fireworks', key: '{"api_key":"fw-first-key-0001","region":"us"}', is_fallback: true });
    expect(made.declared_region).toBe('us');
    expect((await apiError(c.updateByok(made.id, { is_byok_only: true }))).message).toMatch(/is_byok_only/);
    const rotated = await c.updateByok(made.id, { key: '{"api_key":"fw-second-key-0002","region":"europe"}' });
    expect(rotated.label).toBe('fw-...0002');
    expect(rotated.declared_region).toBe('europe');
    expect(rotated.is_fallback).toBe(true);
    const cleared = await c.updateByok(made.id, { declared_zdr: true, name: 'renamed' });
    expect(cleared).toMatchObject({ declared_zdr: true, name: 'renamed', label: 'fw-...0002' });
    // "Null clears declared_region" (4.7), a region-carrying key or not.
    expect((await c.updateByok(made.id, { declared_region: null })).declared_region).toBeNull();
    // Rotating re-derives the region from the new key: its region, or none for a plain key.
    expect((await c.updateByok(made.id, { key: '{"api_key":"fw-third-key-0003","region":"us"}' })).declared_region).toBe('us');
    expect((await c.updateByok(made.id, { key: 'fw-plain-fourth-key-0004' })).declared_region).toBeNull();
    expect((await apiError(c.updateByok('00000000-0000-0000-0000-000000000000', { name: 'x' }))).status).toBe(404);
  });

  it('accepts no region, or null, for every provider (azure included), and checks a region change on update', async () => {
    const c = mgmt();
    const azure = await c.createByok({ provider: 'azure', key: 'az-key-without-region-01' });
    expect(azure.declared_region).toBeNull();
    const anthropic = await c.createByok({ provider: 'anthropic', key: 'sk-ant-null-region-0001', declared_region: null });
    expect(anthropic.declared_region).toBeNull();
    expect((await c.updateByok(azure.id, { declared_region: 'europe' })).declared_region).toBe('europe');
    expect((await c.updateByok(azure.id, { declared_region: null })).declared_region).toBeNull();
    const e = await apiError(c.updateByok(anthropic.id, { declared_region: 'europe' }));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/anthropic must be global/);
    expect((await c.updateByok(anthropic.id, { declared_region: 'global' })).declared_region).toBe('global');
  });

  it('of two racing updates of one credential, one gets 409', async () => {
    const c = mgmt();
    const made = await c.createByok({ provider: 'groq', key: 'gsk-race-1234567' });
    const results = await Promise.allSettled([c.updateByok(made.id, { name: 'one' }), c.updateByok(made.id, { name: 'two' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
  });
});

describe('persistence', () => {
  it('a restart with a data dir keeps interns, credentials and connections; raw keys are not in the database file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-data-'));
    const rawKey = 'sk-persist-SECRET-MATERIAL-0042';
    const first = await sandbox({ dataDir, seed: 'empty' });
    const c1 = userClient(first);
    const renamed = await c1.updateIntern(first.manifest.interns.running!, { description: 'kept across restarts' });
    const cred = await clientAs(first, { management_key: 'management_key' }).createByok({ provider: 'mistral', key: rawKey });
    await first.close();

    const second = await sandbox({ dataDir, seed: 'empty' });
    try {
      expect(second.manifest.credentials.api_key).toBe(first.manifest.credentials.api_key);
      const c2 = userClient(second);
      expect((await c2.getIntern(renamed.id)).description).toBe('kept across restarts');
      expect((await c2.getByok(cred.id)).label).toBe(cred.label);
      expect((await c2.listConnections(renamed.id)).data).toHaveLength(5);
    } finally {
      await second.close();
    }
    for (const file of readdirSync(dataDir)) {
      if (statSync(join(dataDir, file)).isFile()) expect(readFileSync(join(dataDir, file)).includes(Buffer.from('SECRET-MATERIAL')), file).toBe(false);
    }
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
  });
});
