/** What the CLI hands the TUI. The TUI knows the service only through `api`. */
import type { InternApi } from '../client/types.js';
import type { InternList } from '../contract/intern.js';
import type { CredentialKind } from '../contract/routes.js';
import type { Binding } from './keymap.js';
import type { NotifyKind } from './terminal.js';
import type { Theme } from './theme.js';

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
  /**
   * The state folder (`$XDG_STATE_HOME/intern-tui`): prompt history and saved conversations
   * (screens/chat/saved.ts). Absent or null: nothing is kept past the process.
   */
  stateDir?: string | null;
  /** Attach scrollback lines; default 10000. */
  scrollback: number;
  /** The profile's `record` setting: `always` records every attach. */
  record?: 'off' | 'always';
  /** Where attach recordings go and `:replay` lists them from; null: nowhere (no HOME). */
  recordingsDir?: string | null;
  /** How the chat asks for attention when it waits for the person (config `notify`); absent: the bell. */
  notify?: NotifyKind;
  /** Warnings to show once at start (e.g. a regional base URL). */
  warnings: string[];
  /**
   * How to mend each credential the service refuses, by where it came from (the variable that set
   * it, or the login that stored it): "Not authenticated" says that, not every place a key may be.
   */
  refusedFix?: Partial<Record<CredentialKind, string>>;
  /** `:profile NAME`: opens another profile of the config file without restarting. Absent: not offered. */
  switchProfile?: (name: string) => Promise<TuiSession>;
  /**
   * `:login`: the browser sign-in for the current profile; `show` receives the lines to display (the
   * URL to open). Resolves with the signed-in session; the signal cancels the wait.
   */
  signIn?: (show: (line: string) => void, signal: AbortSignal) => Promise<TuiSession>;
  /** The no-colour theme (NO_COLOR or --no-color); it wins over `theme`. */
  noColor?: boolean;
  /** The colours (themeFile.ts's `loadTheme`); absent: the dark or light built-in, by the background. */
  theme?: Theme;
  /** The keymap in force (keyRemap.ts's `remapKeymap` of the config's `keys`); absent: KEYMAP. */
  keymap?: readonly Binding[];
  /** Mouse reports (click, double-click, wheel); false: off (the config's `mouse`, or --no-mouse). Absent: on. */
  mouse?: boolean;
  /**
   * The intern list's first page if it already arrived (the CLI asks for it before the TUI loads),
   * so the list draws it in its first frame; answers once, for `api`, then undefined.
   */
  takeFirstPage?: () => InternList | undefined;
}

/** What changes when the profile changes. */
export type TuiSession = Pick<TuiOptions, 'api' | 'profile' | 'host' | 'sandbox' | 'warnings' | 'features' | 'scrollback' | 'record' | 'notify' | 'refusedFix'>;
