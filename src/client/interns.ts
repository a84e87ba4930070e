/** Intern, icon, daemon and connection routes. */
import {
  ConnectionListSchema,
  DaemonAccessSchema,
  InternListSchema,
  InternSchema,
  type InternCreate,
  type InternListQuery,
  type InternUpdate,
} from '../contract/intern.js';
import { ROUTES } from '../contract/routes.js';
import type { HttpCore } from './http.js';
import type { CallOptions, Icon } from './types.js';

export function internRoutes(http: HttpCore) {
  return {
    listInterns: (query: InternListQuery = {}, opts?: CallOptions) =>
      http.json(InternListSchema, {
        route: ROUTES.listInterns,
        query: {
          limit: query.limit,
          status: query.status && query.status.length > 0 ? query.status.join(',') : undefined,
          starting_after: query.starting_after,
          workspace_id: query.workspace_id,
        },
      }, opts),
    getIntern: (internId: string, opts?: CallOptions) =>
      http.json(InternSchema, { route: ROUTES.getIntern, params: { internId } }, opts),
    updateIntern: (internId: string, patch: InternUpdate, opts?: CallOptions) =>
      http.json(InternSchema, { route: ROUTES.updateIntern, params: { internId }, body: patch }, opts),
    createIntern: (body: InternCreate, opts: CallOptions & { idempotencyKey?: string } = {}) =>
      http.json(InternSchema, {
        route: ROUTES.createIntern,
        body,
        headers: opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : undefined,
      }, opts),
    // The lifecycle actions answer an acknowledgement ({"deleting":true} and the like) that says no
    // more than the 2xx it comes with: its body is not read, so a 204, or a body worded otherwise,
    // is the yes it is.
    deleteIntern: async (internId: string, opts?: CallOptions) => {
      // The official SDK always sends the flag, false unless asked; this client sends true: every
      // delete it makes was confirmed first (the TUI's typed name, the CLI's question or --yes), in
      // words that say the workspace's data goes, which covers one that was never archived. A
      // service that keeps the archive check reads no consent in a missing flag.
      await http.send({ route: ROUTES.deleteIntern, params: { internId }, body: { acknowledge_workspace_loss: true } }, opts);
    },
    provisionIntern: async (internId: string, opts?: CallOptions) => {
      await http.send({ route: ROUTES.provisionIntern, params: { internId } }, opts);
    },
    suspendIntern: async (internId: string, opts?: CallOptions) => {
      await http.send({ route: ROUTES.suspendIntern, params: { internId } }, opts);
    },
    getInternIcon: async (internId: string, iconSha256?: string, opts?: CallOptions): Promise<Icon> => {
      const res = await http.send({ route: ROUTES.getInternIcon, params: { internId }, query: { v: iconSha256 }, maxBytes: http.maxIconBytes }, opts);
      return { bytes: new Uint8Array(res.body), contentType: res.headers['content-type'] ?? 'application/octet-stream' };
    },
    getDaemonAccess: (internId: string, opts?: CallOptions) =>
      http.json(DaemonAccessSchema, { route: ROUTES.getDaemonAccess, params: { internId } }, opts),
    listConnections: (internId: string, opts?: CallOptions) =>
      http.json(ConnectionListSchema, { route: ROUTES.listConnections, params: { internId } }, opts),
  };
}
