// Types for scripts/bundling.mjs, which bench/run.ts imports to bundle row 8 as the TUI is bundled.
import type { BuildOptions, Plugin } from 'esbuild';

export const root: string;
export const NATIVE: string[];
export const BINARIES_OF: string[];
/** What every bundle shares. */
export const common: BuildOptions;
/** What every bundle holding the TUI shares (its plugins replace common's). */
export const tui: BuildOptions;
export const sandboxPlugins: Plugin[];
export const production: Record<string, string>;
/** An ES module bundle's `require`. */
export const requireBanner: { js: string };
