/**
 * The config file, $XDG_CONFIG_HOME/intern-tui/config.json: its schema, read (validated) and
 * written atomically with mode 0600. What the settings are once flags and the environment are
 * laid over it is settings.ts, which loads without zod.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic, makeDirs } from '../files.js';
import * as z from 'zod';
import { describeIssues } from '../contract/errors.js';
import { NOTIFY_KINDS } from '../tui/terminal.js';
import { BUILTIN_THEMES, THEME_NAME } from '../tui/theme.js';
import { ConfigError, noConfigFile } from './settings.js';

const FeatureSchema = z.lazy(() => z.strictObject({ name: z.string().min(1).max(80), requires: z.array(z.string().min(1)).max(50) }));
export const ProfileSchema = z.lazy(() => z.strictObject({
  base_url: z.url({ error: 'must be an http(s) URL' }).optional(),
  api_key: z.string().min(1).optional(),
  management_key: z.string().min(1).optional(),
  oauth_token: z.string().min(1).optional(),
  /** The OAuth issuer for daemon access (RFC 8414 discovery); `login --oauth` uses it. */
  oauth_issuer: z.url({ error: 'must be an http(s) URL' }).optional(),
  /** When the stored OAuth access token expires (ms since the epoch); renewed before then. */
  oauth_expires_at: z.number().int().optional(),
  /** The OAuth refresh token, when the profile's secrets are in this file. */
  oauth_refresh_token: z.string().min(1).optional(),
  /** Where `login` put this profile's secrets: the system keychain, or this file (0600). */
  credential_store: z.enum(['keychain', 'file']).optional(),
  scrollback: z.number().int().min(0).max(1_000_000).optional(),
  /** Whether attaching records the session (asciicast v2 under the state folder's recordings/). */
  record: z.enum(['off', 'always']).optional(),
  /** How the chat signals that it waits for the person (a permission, a question, a long turn ended). */
  notify: z.enum(NOTIFY_KINDS).optional(),
  /** Whether the TUI takes the mouse (click, double-click, wheel); false leaves it to the terminal. */
  mouse: z.boolean().optional(),
  features: z.array(FeatureSchema).max(100).optional(),
}));
export type Profile = z.infer<typeof ProfileSchema>;
export const ConfigFileSchema = z.lazy(() => z.strictObject({
  default_profile: z.string().min(1).optional(),
  /** The TUI's keys by binding id (src/tui/keyRemap.ts checks the ids and keys when the TUI starts). */
  keys: z.record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(20)])).optional(),
  /** The TUI's theme: a built-in's name or a file's in themes/ beside this file (src/tui/themeFile.ts); INTERN_TUI_THEME wins. */
  theme: z
    .string()
    .refine((name) => THEME_NAME.test(name.trim().toLowerCase()), { error: `must name a theme: ${Object.keys(BUILTIN_THEMES).join(', ')}, or a file's in themes/ (letters, digits, - and _)` })
    .optional(),
  profiles: z.record(z.string().min(1), ProfileSchema).default({}),
}));
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Reads the config file; a missing file is an empty config. Errors name the file and the field. */
export function readConfig(path: string, warn: (msg: string) => void = () => undefined): ConfigFile {
  if (!existsSync(path)) return noConfigFile();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'unknown error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${path}: ${describeIssues(parsed.error)}`);
  const holdsSecrets = Object.values(parsed.data.profiles).some((p) => p.api_key || p.management_key || p.oauth_token || p.oauth_refresh_token);
  if (holdsSecrets && process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    warn(`${path} holds credentials but other users can read it; run: chmod 600 ${path}`);
  }
  return parsed.data;
}

/** Writes the config atomically (temp file + rename), 0600 in a 0700 directory. */
export function writeConfig(path: string, config: ConfigFile): void {
  makeDirs(dirname(path));
  writeFileAtomic(path, JSON.stringify(config, null, 2) + '\n');
}
