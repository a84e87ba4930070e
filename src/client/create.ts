/**
 * Creating an intern with a model. The service takes no `model` on create (public API notes: "no
 * `model` on create"), so a model is set the way a person would: create the intern unprovisioned,
 * PATCH its model, then provision it if that was asked. One home for the sequence, for the TUI's
 * new-intern form and the command line alike.
 */
import type { Intern, InternCreate } from '../contract/intern.js';
import type { CallOptions, InternApi } from './types.js';

export interface CreateOutcome {
  /** The intern as last read: created, with its model when that step went through. */
  intern: Intern;
  /** A step after the create that failed: the intern exists, without that step's effect. */
  failed?: { step: 'model' | 'provision'; error: unknown };
}

export async function createInternWithModel(
  api: Pick<InternApi, 'createIntern' | 'updateIntern' | 'provisionIntern'>,
  body: InternCreate,
  model: string | null,
  opts: CallOptions & { idempotencyKey?: string } = {},
): Promise<CreateOutcome> {
  if (model === null) return { intern: await api.createIntern(body, opts) };
  const provision = body.provision === true;
  let intern = await api.createIntern({ ...body, provision: false }, opts);
  const { signal } = opts;
  try {
    intern = await api.updateIntern(intern.id, { model }, { signal });
  } catch (error) {
    return { intern, failed: { step: 'model', error } };
  }
  if (!provision) return { intern };
  try {
    await api.provisionIntern(intern.id, { signal });
  } catch (error) {
    return { intern, failed: { step: 'provision', error } };
  }
  return { intern };
}
