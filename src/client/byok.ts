/** BYOK provider-credential routes and the workspaces they live in (management key). */
import {
  ByokEnvelopeSchema,
  ByokListSchema,
  type ByokCreate,
  type ByokListQuery,
  type ByokUpdate,
} from '../contract/byok.js';
import { ROUTES } from '../contract/routes.js';
import { WorkspaceEnvelopeSchema, WorkspaceListSchema, type WorkspaceListQuery } from '../contract/workspace.js';
import { ApiError } from './errors.js';
import type { HttpCore } from './http.js';
import type { CallOptions, InternApi } from './types.js';

export function byokRoutes(http: HttpCore) {
  return {
    listByok: (query: ByokListQuery = {}, opts?: CallOptions) =>
      http.json(ByokListSchema, { route: ROUTES.listByok, query: { ...query } }, opts),
    getByok: async (id: string, opts?: CallOptions) =>
      (await http.json(ByokEnvelopeSchema, { route: ROUTES.getByok, params: { id } }, opts)).data,
    createByok: async (body: ByokCreate, opts?: CallOptions) =>
      (await http.json(ByokEnvelopeSchema, { route: ROUTES.createByok, body }, opts)).data,
    updateByok: async (id: string, body: ByokUpdate, opts?: CallOptions) =>
      (await http.json(ByokEnvelopeSchema, { route: ROUTES.updateByok, params: { id }, body }, opts)).data,
    deleteByok: async (id: string, opts?: CallOptions) => {
      // Its {"deleted":true} says no more than the 2xx (see deleteIntern).
      await http.send({ route: ROUTES.deleteByok, params: { id } }, opts);
    },
    listWorkspaces: (query: WorkspaceListQuery = {}, opts?: CallOptions) =>
      http.json(WorkspaceListSchema, { route: ROUTES.listWorkspaces, query: { ...query } }, opts),
    getWorkspace: async (id: string, opts?: CallOptions) =>
      (await http.json(WorkspaceEnvelopeSchema, { route: ROUTES.getWorkspace, params: { id } }, opts)).data,
  };
}

/**
 * Whether the service takes the client's management key, asked as `auth status` and `login` ask it:
 * the first BYOK page. A 400 is a yes: the key was taken and the list refused for its workspace (an
 * account whose default workspace was deleted must name one, whichever of its keys asks).
 */
export async function askManagementKey(api: Pick<InternApi, 'listByok'>, opts?: CallOptions): Promise<void> {
  try {
    await api.listByok({ limit: 1 }, opts);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return;
    throw e;
  }
}
