/** Vault secret routes (API key): the workspace scope, an intern's own scope, copy, and the effective view. */
import { ROUTES } from '../contract/routes.js';
import {
  EffectiveSecretListSchema,
  VaultSecretCopyResultSchema,
  VaultSecretEnvelopeSchema,
  VaultSecretListSchema,
  type VaultListQuery,
  type VaultSecretWrite,
} from '../contract/vault.js';
import type { HttpCore } from './http.js';
import type { CallOptions } from './types.js';

export function vaultRoutes(http: HttpCore) {
  return {
    listVaultSecrets: (query: VaultListQuery = {}, opts?: CallOptions) =>
      http.json(VaultSecretListSchema, { route: ROUTES.listVaultSecrets, query: { ...query } }, opts),
    putVaultSecret: async (name: string, body: VaultSecretWrite, opts?: CallOptions) =>
      (await http.json(VaultSecretEnvelopeSchema, { route: ROUTES.putVaultSecret, params: { name }, body }, opts)).data,
    deleteVaultSecret: async (name: string, opts?: CallOptions) => {
      await http.send({ route: ROUTES.deleteVaultSecret, params: { name } }, opts);
    },
    listInternSecrets: (internId: string, query: VaultListQuery = {}, opts?: CallOptions) =>
      http.json(VaultSecretListSchema, { route: ROUTES.listInternSecrets, params: { internId }, query: { ...query } }, opts),
    putInternSecret: async (internId: string, name: string, body: VaultSecretWrite, opts?: CallOptions) =>
      (await http.json(VaultSecretEnvelopeSchema, { route: ROUTES.putInternSecret, params: { internId, name }, body }, opts)).data,
    deleteInternSecret: async (internId: string, name: string, opts?: CallOptions) => {
      await http.send({ route: ROUTES.deleteInternSecret, params: { internId, name } }, opts);
    },
    copySecretsToIntern: async (internId: string, names: string[], opts?: CallOptions) =>
      (await http.json(VaultSecretCopyResultSchema, { route: ROUTES.copySecretsToIntern, params: { internId }, body: { names } }, opts)).data,
    listEffectiveSecrets: (internId: string, query: VaultListQuery = {}, opts?: CallOptions) =>
      http.json(EffectiveSecretListSchema, { route: ROUTES.listEffectiveSecrets, params: { internId }, query: { ...query } }, opts),
  };
}
