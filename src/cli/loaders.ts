/**
 * The dispatcher's table of where commands' code is: each module the registry names
 * (CommandSpec.module) and the import() that loads it, when a command runs (run.ts) or a tab asks
 * for its `--json` fields (dispatch.ts hands them to complete.ts). Each import() is a chunk of its
 * own in the bundle, so `--help` and `--version` load none. Nothing else imports a command module:
 * the registry only names them, and commands import neither it nor this.
 */
import type { Runner } from './context.js';
import type { CommandModule, CommandSpec } from './spec.js';

const MODULES: Record<CommandModule, () => Promise<object>> = {
  interns: () => import('./commands/interns.js'),
  byok: () => import('./commands/byok.js'),
  vault: () => import('./commands/vault.js'),
  models: () => import('./commands/models.js'),
  chat: () => import('./commands/chat.js'),
  chatSessions: () => import('./commands/chatSessions.js'),
  attach: () => import('./commands/attach.js'),
  replay: () => import('./commands/replay.js'),
  auth: () => import('./commands/auth.js'),
  config: () => import('./commands/config.js'),
  completion: () => import('./commands/completion.js'),
  legacy: () => import('./legacy.js'),
};

/** The command's Runner, its module loaded first. A name the module lacks is a bug in the registry (a unit test loads every one). */
export async function loadRunner(spec: Pick<CommandSpec, 'module' | 'runner'>): Promise<Runner> {
  const run = ((await MODULES[spec.module]()) as Record<string, unknown>)[spec.runner];
  if (typeof run !== 'function') throw new Error(`src/cli: the ${spec.module} module has no runner "${spec.runner}"`);
  return run as Runner;
}

/** The fields a command's `--json` may name (its runner's `jsonFields`), for completion. */
export const jsonFieldsOf = async (spec: Pick<CommandSpec, 'module' | 'runner'>): Promise<readonly string[]> => (await loadRunner(spec)).jsonFields ?? [];
