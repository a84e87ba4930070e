/** What the CLI hands the TUI. The TUI knows the service only through `api`. */
import type { InternApi } from '../client/types.js';

export interface FeatureSpec {
  name: string;
  /** Connection keys the feature needs. */
  requires: string[];
}

export interface TuiOptions {
  api: InternApi;
  /** Header facts: never a credential value. */
  profile: string | null;
  host: string;
  sandbox: boolean;
  /** Features for the connections screen's check (config file plus built-in examples). */
  features: FeatureSpec[];
  /** Where fetched icons are cached by hash. */
  iconCacheDir: string;
  /** Attach scrollback lines; default 10000. */
  scrollback: number;
  /** Warnings to show once at start (e.g. a regional base URL). */
  warnings: string[];
  /** The no-colour theme (NO_COLOR or --no-color). */
  noColor?: boolean;
}
