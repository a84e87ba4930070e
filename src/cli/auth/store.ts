/**
 * Where signed-in secrets live: the operating system's keychain when one answers (through
 * @napi-rs/keyring: maintained, prebuilt binaries for every platform, no build step), otherwise the
 * profile in the config file, which is written at mode 0600. The keyring binding is imported only
 * when a secret is read or written, so start-up does not pay for it.
 *
 * `INTERN_TUI_CREDENTIAL_STORE=file` forces the file (CI, tests); `keychain` insists on the keychain.
 */
import type { CredentialKind } from '../../contract/routes.js';
import type * as Keyring from '@napi-rs/keyring';
import { importExternal } from '../../importExternal.js';

/** Every secret a profile can hold. */
export type SecretName = CredentialKind | 'oauth_refresh_token';
export const SECRET_NAMES: readonly SecretName[] = ['api_key', 'management_key', 'oauth_token', 'oauth_refresh_token'];

/** The keychain side only; the file side is the config file (cli/config.ts). */
export interface Keychain {
  get(profile: string, name: SecretName): Promise<string | undefined>;
  set(profile: string, name: SecretName, value: string): Promise<void>;
  /** True when something was removed. */
  delete(profile: string, name: SecretName): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'intern-tui';
const account = (profile: string, name: SecretName) => `${profile}/${name}`;

/** The system keychain; every call throws when there is none (no Secret Service, locked, denied). */
export function systemKeychain(): Keychain {
  const load = () => importExternal<typeof Keyring>('@napi-rs/keyring');
  return {
    async get(profile, name) {
      const { Entry } = await load();
      return new Entry(KEYCHAIN_SERVICE, account(profile, name)).getPassword() ?? undefined;
    },
    async set(profile, name, value) {
      const { Entry } = await load();
      new Entry(KEYCHAIN_SERVICE, account(profile, name)).setPassword(value);
    },
    async delete(profile, name) {
      const { Entry } = await load();
      return new Entry(KEYCHAIN_SERVICE, account(profile, name)).deletePassword();
    },
  };
}

/** An in-memory keychain for tests. */
export function memoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (p, n) => entries.get(account(p, n)),
    set: async (p, n, v) => void entries.set(account(p, n), v),
    delete: async (p, n) => entries.delete(account(p, n)),
  };
}

/**
 * The keychain to use, or null for the file: probes it once with a harmless write and delete, so a
 * keychain that exists but refuses (as on a server without a Secret Service) falls back to the file.
 */
export async function availableKeychain(env: NodeJS.ProcessEnv, candidate: Keychain = systemKeychain()): Promise<Keychain | null> {
  const mode = env.INTERN_TUI_CREDENTIAL_STORE ?? 'auto';
  if (mode === 'file') return null;
  try {
    await candidate.set('.probe', 'api_key', 'probe');
    await candidate.delete('.probe', 'api_key');
    return candidate;
  } catch (e) {
    if (mode === 'keychain') throw new Error(`INTERN_TUI_CREDENTIAL_STORE=keychain, but the system keychain is not available: ${(e as Error).message}`);
    return null;
  }
}
