import type { TuiOptions } from './types.js';
export type { TuiOptions, FeatureSpec } from './types.js';

// Placeholder until the TUI lands (issue 4): resolves to the process exit code.
export async function runTui(_options: TuiOptions): Promise<number> {
  throw new Error('the TUI is not built yet');
}
