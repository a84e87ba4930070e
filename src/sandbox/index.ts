import type { RunningSandbox, SandboxOptions } from './types.js';
export type { Manifest, RunningSandbox, SandboxOptions } from './types.js';

// Placeholder until the sandbox lands (issue 3); replaced by the real server.
export async function startSandbox(_options: SandboxOptions): Promise<RunningSandbox> {
  throw new Error('the sandbox is not built yet');
}
