/** Workspaces (the public OpenAPI document: GET /workspaces, GET /workspaces/{id}; management key). */
import * as z from 'zod';
import { LIMITS } from './limits.js';
import { absentAsNull } from './read.js';
import { queryInteger } from './query.js';

/** What the client reads of a workspace; the sandbox serves every field the OpenAPI requires. */
export const WorkspaceSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  name: z.string(),
  slug: z.string(),
  description: absentAsNull(z.string()),
  default_text_model: absentAsNull(z.string()),
  created_at: z.string(),
}));
export type Workspace = z.output<typeof WorkspaceSchema>;
export const WorkspaceEnvelopeSchema = z.lazy(() => z.object({ data: WorkspaceSchema }));
export const WorkspaceListSchema = z.lazy(() => z.object({ data: z.array(WorkspaceSchema), total_count: z.number().int() }));
export type WorkspaceList = z.output<typeof WorkspaceListSchema>;

export const WorkspaceListQuerySchema = z.lazy(() => z.strictObject({
  offset: queryInteger(0).optional(),
  limit: queryInteger(LIMITS.workspaceList.minLimit, LIMITS.workspaceList.maxLimit).optional(),
}));
export type WorkspaceListQuery = { offset?: number; limit?: number };

/** A workspace's slug from its name, as the service makes one: lower case, runs of anything else one hyphen. */
export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'workspace';
}
