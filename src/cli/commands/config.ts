/**
 * `config list`: the config file's profiles for a script: each one's base URL and which kinds of
 * credential it keeps, and where (the file or the system keychain), never a value.
 */
import { CREDENTIAL_SOURCES, DEFAULT_BASE_URL, type CredentialKind } from '../../contract/routes.js';
import { readConfig } from '../config.js';
import type { RunContext } from '../context.js';
import { EXIT } from '../exit.js';
import { configPath } from '../settings.js';
import type { Keychain } from '../auth/store.js';

interface ProfileRow {
  name: string;
  default: boolean;
  base_url: string;
  /** Where login keeps its secrets: `keychain` or `file`. */
  credential_store: string;
  /** The kinds of credential it keeps (api_key, management_key, oauth_token), by where; none is absent. */
  credentials: Partial<Record<CredentialKind, 'file' | 'keychain'>>;
}
const FIELDS: (keyof ProfileRow)[] = ['name', 'default', 'base_url', 'credential_store', 'credentials'];

export async function list(ctx: RunContext): Promise<number> {
  const file = readConfig(configPath(ctx.io.env), ctx.warn);
  const names = Object.keys(file.profiles);
  // The keychain is asked only for a profile that keeps its secrets there, whether one is there (not what).
  let keychain: Keychain | null = null;
  if (names.some((n) => file.profiles[n]!.credential_store === 'keychain')) {
    const { availableKeychain } = await import('../auth/store.js');
    keychain = await availableKeychain(ctx.io.env).catch(() => null);
  }
  const kinds = Object.keys(CREDENTIAL_SOURCES) as CredentialKind[];
  const rows: ProfileRow[] = [];
  for (const name of names) {
    const p = file.profiles[name]!;
    const credentials: ProfileRow['credentials'] = {};
    for (const kind of kinds) {
      if (p[kind]) credentials[kind] = 'file';
      else if (keychain && p.credential_store === 'keychain' && (await keychain.get(name, kind).catch(() => undefined))) credentials[kind] = 'keychain';
    }
    rows.push({ name, default: name === file.default_profile, base_url: p.base_url ?? DEFAULT_BASE_URL, credential_store: p.credential_store ?? 'file', credentials });
  }
  ctx.out.list<ProfileRow>(
    rows,
    [
      { header: 'PROFILE', get: (r) => r.name, keep: true },
      { header: 'DEFAULT', get: (r) => (r.default ? 'yes' : ''), empty: '' },
      { header: 'BASE URL', get: (r) => r.base_url },
      { header: 'CREDENTIALS', get: (r) => Object.keys(r.credentials).join(','), empty: 'none' },
      { header: 'STORE', get: (r) => r.credential_store },
    ],
    'no profiles (intern-tui login makes one)',
  );
  return EXIT.ok;
}
list.jsonFields = FIELDS;
