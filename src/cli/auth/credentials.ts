/**
 * Credentials with their sources: flags, environment and the profile in the file (config.ts), plus
 * the keychain for profiles that `login` stored there, and an OAuth access token that renews itself
 * from the stored refresh token when it has expired (or when the service answers 401).
 */
import { discoverOAuth, refreshOAuthToken } from '../../client/auth.js';
import { ApiError } from '../../client/errors.js';
import type { OAuthToken } from '../../contract/auth.js';
import { loginCommand } from '../../contract/routes.js';
import { CliError, EXIT } from '../exit.js';
import { type ConfigFile, type Profile, readConfig, writeConfig } from '../config.js';
import { type Flags, type Resolved, resolveConfig } from '../settings.js';
import { type Keychain, type SecretName, SECRET_NAMES, systemKeychain } from './store.js';

export interface AuthDeps {
  env: NodeJS.ProcessEnv;
  /** The config file's path. */
  path: string;
  /** The keychain to read keychain-stored profiles from; default the system's (loaded lazily). */
  keychain?: Keychain;
  warn?: (message: string) => void;
  now?: () => number;
}

/** The OAuth client id this program uses with any issuer (a public client: PKCE, no secret). */
export const OAUTH_CLIENT_ID = 'intern-tui';

export interface SignedIn extends Resolved {
  /** Renews the OAuth access token from the stored refresh token and saves both; absent without one. */
  renewOAuthToken?: () => Promise<string>;
}

/** Renew a little before the stated expiry, so a request does not race it. */
const EXPIRY_MARGIN_MS = 30_000;

/** Writes secrets of a profile to the keychain (when given) or the file, and other profile fields to the file. */
export async function saveProfile(
  deps: Pick<AuthDeps, 'path' | 'warn'>,
  profileName: string,
  secrets: Partial<Record<SecretName, string>>,
  fields: Partial<Profile>,
  keychain: Keychain | null,
): Promise<'keychain' | 'file'> {
  const config: ConfigFile = readConfig(deps.path, deps.warn);
  const profile: Profile = { ...(config.profiles[profileName] ?? {}), ...fields };
  const where = keychain ? 'keychain' : 'file';
  if (keychain) {
    for (const [name, value] of Object.entries(secrets) as [SecretName, string][]) {
      await keychain.set(profileName, name, value);
      delete profile[name];
    }
  } else {
    Object.assign(profile, secrets);
  }
  // The marker says where to look for this profile's secrets when reading.
  profile.credential_store = where;
  config.profiles[profileName] = profile;
  config.default_profile ??= profileName;
  writeConfig(deps.path, config);
  return where;
}

/** Removes every secret of a profile from the keychain and the file; answers what was removed. */
export async function forgetProfileSecrets(deps: Pick<AuthDeps, 'path' | 'warn'>, profileName: string, keychain: Keychain | null): Promise<string[]> {
  const removed: string[] = [];
  const config = readConfig(deps.path, deps.warn);
  const profile = config.profiles[profileName];
  if (keychain) {
    for (const name of SECRET_NAMES) if (await keychain.delete(profileName, name).catch(() => false)) removed.push(`${name} (keychain)`);
  }
  if (profile) {
    for (const name of SECRET_NAMES) {
      if (profile[name]) {
        delete profile[name];
        removed.push(`${name} (file)`);
      }
    }
    delete profile.oauth_expires_at;
    delete profile.credential_store;
    writeConfig(deps.path, config);
  }
  return removed;
}

/** resolveConfig, then the keychain for keychain-stored profiles, then the OAuth renewer. */
export async function resolveSignedIn(flags: Flags, deps: AuthDeps, file: ConfigFile = readConfig(deps.path, deps.warn)): Promise<SignedIn> {
  const resolved: SignedIn = resolveConfig(flags, deps.env, file);
  const name = resolved.profile;
  const profile = name !== null ? file.profiles[name] : undefined;
  // Stored keys and tokens belong to the profile's origin (settings.ts's storedWithheldFor).
  if (name === null || !profile || resolved.storedWithheldFor) return resolved;
  const now = deps.now ?? Date.now;
  let keychain: Keychain | undefined;
  const fromKeychain = async (secret: SecretName): Promise<string | undefined> => {
    if (profile.credential_store !== 'keychain') return undefined;
    keychain ??= deps.keychain ?? systemKeychain();
    try {
      return await keychain.get(name, secret);
    } catch (e) {
      deps.warn?.(`profile "${name}" keeps its credentials in the system keychain, which did not answer: ${(e as Error).message}`);
      return undefined;
    }
  };
  for (const kind of ['api_key', 'management_key', 'oauth_token'] as const) {
    if (resolved.credentials[kind]) continue;
    const v = await fromKeychain(kind);
    if (v) {
      resolved.credentials[kind] = v;
      resolved.sources[kind] = 'keychain';
    }
  }

  // A stored access token (not one from a flag or the environment) renews itself from the refresh token.
  const oauthSource = resolved.sources.oauth_token;
  const issuer = profile.oauth_issuer;
  if (issuer && (oauthSource === undefined || oauthSource === 'file' || oauthSource === 'keychain')) {
    const refreshToken = profile.oauth_refresh_token ?? (await fromKeychain('oauth_refresh_token'));
    if (refreshToken) {
      let current = refreshToken;
      resolved.renewOAuthToken = async () => {
        const md = await discoverOAuth(issuer);
        let t: OAuthToken;
        try {
          t = await refreshOAuthToken(md, { clientId: OAUTH_CLIENT_ID, refreshToken: current });
        } catch (e) {
          // The issuer refused the stored sign-in (expired, revoked, or its refresh token used by a
          // copy, which revokes it): trying again cannot mend that, signing in again does.
          if (e instanceof ApiError && e.status < 500) throw new CliError(EXIT.auth, `${e.message} (the issuer refused the stored sign-in: run \`${loginCommand('oauth_token', name)}\`)`);
          throw e;
        }
        current = t.refresh_token ?? current;
        const store = profile.credential_store === 'keychain' ? (keychain ?? deps.keychain ?? systemKeychain()) : null;
        await saveProfile(deps, name, { oauth_token: t.access_token, oauth_refresh_token: current }, { oauth_expires_at: t.expires_in ? now() + t.expires_in * 1000 : undefined }, store);
        return t.access_token;
      };
      // Expired: leave it out, so the first OAuth call renews it before sending.
      if (profile.oauth_expires_at !== undefined && profile.oauth_expires_at <= now() + EXPIRY_MARGIN_MS && oauthSource !== undefined) {
        delete resolved.credentials.oauth_token;
        delete resolved.sources.oauth_token;
      }
    }
  }
  return resolved;
}
