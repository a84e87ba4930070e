/** Workspaces (GET /workspaces, GET /workspaces/{id}) through the project's client against a live sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { allWorkspaces } from '../../src/tui/components/WorkspacePicker.js';
import { clientAs, raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
});
afterAll(() => sb.close());

const mgmt = (role = 'management_key') => clientAs(sb, { management_key: role });
const refused = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

describe('workspaces', () => {
  it("lists the account's live workspaces, oldest first, with the BYOK list's offset paging", async () => {
    const all = await mgmt().listWorkspaces();
    expect(all.data.map((w) => [w.name, w.slug])).toEqual([['Main', 'main'], ['Side projects', 'side-projects']]);
    expect(all.total_count).toBe(2);
    for (const w of all.data) expect(Date.parse(w.created_at)).not.toBeNaN();
    const second = await mgmt().listWorkspaces({ offset: 1, limit: 1 });
    expect(second).toEqual({ data: [all.data[1]], total_count: 2 });
    // The picker pages until it has them all.
    expect((await allWorkspaces(mgmt())).workspaces).toEqual(all.data);
  });

  it('answers every field the OpenAPI document requires', async () => {
    const res = await raw(sb, 'GET', '/workspaces?limit=1', { token: sb.manifest.credentials.management_key });
    const w = (res.json as { data: Record<string, unknown>[] }).data[0]!;
    for (const f of ['id', 'default_guardrail_id', 'name', 'slug', 'description', 'default_text_model', 'default_image_model', 'default_provider_sort', 'is_observability_io_logging_enabled', 'is_observability_broadcast_enabled', 'is_data_discount_logging_enabled', 'io_logging_sampling_rate', 'io_logging_api_key_ids', 'created_at', 'updated_at', 'created_by']) {
      expect(w, f).toHaveProperty(f);
    }
    expect(w.default_guardrail_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("hides a deleted workspace and another account's, and refuses what the other lists refuse", async () => {
    // acct_c's only workspace was deleted.
    expect(await mgmt('management_key_no_default_workspace').listWorkspaces()).toEqual({ data: [], total_count: 0 });
    const [main] = (await mgmt().listWorkspaces()).data;
    expect((await mgmt().getWorkspace(main!.id)).name).toBe('Main');
    expect((await refused(mgmt('management_key_no_default_workspace').getWorkspace(main!.id))).status).toBe(404);
    expect((await refused(mgmt().listWorkspaces({ limit: 101 }))).status).toBe(400);
    expect((await refused(mgmt().listWorkspaces({ limit: 0 }))).status).toBe(400);
    // An API key may not list them.
    expect((await raw(sb, 'GET', '/workspaces', { token: sb.manifest.credentials.api_key })).status).toBe(403);
    expect((await raw(sb, 'GET', '/workspaces')).status).toBe(401);
  });
});
