/**
 * Intern resources (spec 2.1, 4.1-4.5; public notes for the collection and lifecycle).
 * Response schemas tolerate unknown fields; request schemas are strict, because
 * the service answers an unknown field with 400.
 */
import * as z from 'zod';
import { LIMITS } from './limits.js';
import { absentAsNull } from './read.js';
import { checkDescription, checkInstructions, checkModel, checkName } from './rules.js';
import { queryInteger } from './query.js';

/** The statuses the spec lists. `status` is an open enum: anything else is shown as it comes. */
export const INTERN_STATUSES = [
  'awaiting_slack_install',
  'queued',
  'provisioning',
  'running',
  'failed',
  'stopped',
  'destroying',
  'destroy_failed',
] as const;
export type KnownInternStatus = (typeof INTERN_STATUSES)[number];
/** Statuses that move on their own; a list showing one keeps refreshing. */
export const TRANSITIONAL_STATUSES: readonly string[] = ['queued', 'provisioning', 'destroying'];
/** Statuses a lifecycle action ended in by failing: nothing moves an intern out of them on its own. */
export const FAILED_STATUSES: readonly string[] = ['failed', 'destroy_failed'];
/**
 * Statuses provisioning may start from. The service answers 409 `intern_busy` "when the state does
 * not allow it" without listing them; these are the sandbox's, and what the clients offer.
 */
export const PROVISIONABLE_STATUSES: readonly string[] = ['stopped', 'failed'];
/** Statuses on the way to running: waiting is all there is to do. */
export const STARTING_STATUSES: readonly string[] = ['queued', 'provisioning'];
/** Statuses an intern may be suspended from (as PROVISIONABLE_STATUSES: the sandbox's, and what the clients offer). */
export const SUSPENDABLE_STATUSES: readonly string[] = ['running'];

/** Turns a rule check into a zod refinement with the same message. */
const rule = <T>(check: (v: T) => string | null) =>
  [(v: T) => check(v) === null, { error: (issue: { input: unknown }) => check(issue.input as T) ?? 'invalid' }] as const;

export const NameSchema = z.lazy(() => z.string().refine(...rule(checkName)));
export const DescriptionSchema = z.lazy(() => z.string().nullable().refine(...rule(checkDescription)));
export const InstructionsSchema = z.lazy(() => z.string().nullable().refine(...rule(checkInstructions)));
export const ModelSchema = z.lazy(() => z.string().nullable().refine(...rule(checkModel)));

export const ProgressSchema = z.lazy(() => z.object({
  step_label: z.string(),
  step_number: z.number().int(),
  total_steps: z.number().int(),
}));
export type Progress = z.infer<typeof ProgressSchema>;

/** What a null `model` means (the spec: "null for the workspace default"), in the words both faces show. */
export const NO_MODEL = 'workspace default';

export const InternSchema = z.lazy(() => z.object({
  id: z.string().min(1),
  name: z.string(),
  description: absentAsNull(z.string()),
  instructions: absentAsNull(z.string()),
  model: absentAsNull(z.string()),
  status: z.string(),
  last_failure_message: absentAsNull(z.string()),
  progress: absentAsNull(ProgressSchema),
  hostname: absentAsNull(z.string()),
  vault_id: absentAsNull(z.string()),
  attached_vault_id: absentAsNull(z.string()),
  workspace_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by_you: z.boolean().optional(),
  icon_sha256: absentAsNull(z.string()),
}));
export type Intern = z.output<typeof InternSchema>;

export const InternListSchema = z.lazy(() => z.object({
  data: z.array(InternSchema),
  has_more: z.boolean(),
  next_cursor: z.string().optional(),
}));
export type InternList = z.infer<typeof InternListSchema>;

export const InternListQuerySchema = z.lazy(() => z.strictObject({
  limit: queryInteger(LIMITS.internList.minLimit, LIMITS.internList.maxLimit).optional(),
  status: z.string().optional(),
  starting_after: z.string().optional(),
  workspace_id: z.string().optional(),
}));
export type InternListQuery = { limit?: number; status?: string[]; starting_after?: string; workspace_id?: string };

export const InternUpdateSchema = z.lazy(() => z.strictObject({
  name: NameSchema.optional(),
  description: DescriptionSchema.optional(),
  instructions: InstructionsSchema.optional(),
  model: ModelSchema.optional(),
}));
export type InternUpdate = z.infer<typeof InternUpdateSchema>;

export const InternCreateSchema = z.lazy(() => z.strictObject({
  name: NameSchema,
  workspace_id: z.string().min(1).optional(),
  description: DescriptionSchema.optional(),
  instructions: InstructionsSchema.optional(),
  provision: z.boolean().optional(),
  vault_id: z.string().min(1).optional(),
}));
export type InternCreate = z.infer<typeof InternCreateSchema>;

export const InternDeleteSchema = z.lazy(() => z.strictObject({ acknowledge_workspace_loss: z.boolean().optional() }));

/** What a `destroy_failed` intern's `last_failure_message` names when its workspace was not backed up. */
export const WORKSPACE_ARCHIVE_FAILED = 'workspace_archive_failed';

/**
 * Whether deleting this intern discards a workspace that has no archive, which the service refuses
 * unless the delete sends `acknowledge_workspace_loss: true` (the official SDK: the flag "defaults to
 * false, which refuses the teardown when a workspace archive is missing").
 */
export function losesWorkspace(intern: { status: string; last_failure_message: string | null }): boolean {
  return intern.status === 'destroy_failed' && (intern.last_failure_message ?? '').includes(WORKSPACE_ARCHIVE_FAILED);
}

/** The lifecycle actions' acknowledgements (the sandbox's answers are tested against them; the client reads only their 2xx). */
export const DeleteAcceptedSchema = z.lazy(() => z.object({ deleting: z.literal(true) }));
export const ProvisionAcceptedSchema = z.lazy(() => z.object({ provisioning: z.literal(true) }));
export const SuspendedSchema = z.lazy(() => z.object({ suspended: z.literal(true) }));

export const DaemonAccessSchema = z.lazy(() => z.object({
  origin: z.string().min(1),
  token: z.string().min(1),
}));
export type DaemonAccess = z.infer<typeof DaemonAccessSchema>;

export const ConnectionListSchema = z.lazy(() => z.object({
  data: z.array(
    z.object({
      key: z.string(),
      routing: z.string().nullable().optional(),
      routing_text: z.string().nullable().optional(),
    }),
  ),
}));
export type ConnectionList = z.infer<typeof ConnectionListSchema>;

/** Built-in connection keys; anything else is a catalog server key, or `mcp:<host>` for a custom server. */
export const BUILTIN_CONNECTIONS = ['github', 'slack', 'google'] as const;
export type ConnectionKind = 'builtin' | 'catalog' | 'custom';
export const CUSTOM_CONNECTION_PREFIX = 'mcp:';
export function connectionKind(key: string): ConnectionKind {
  if ((BUILTIN_CONNECTIONS as readonly string[]).includes(key)) return 'builtin';
  if (key.startsWith(CUSTOM_CONNECTION_PREFIX)) return 'custom';
  return 'catalog';
}
