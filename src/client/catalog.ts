/** Catalogue and identity routes: models, providers, and the calling key's own metadata. */
import { KeyInfoEnvelopeSchema, ModelListSchema, ProviderListSchema } from '../contract/catalog.js';
import { ROUTES } from '../contract/routes.js';
import type { HttpCore } from './http.js';
import type { CallOptions } from './types.js';

/** The catalogues are a few hundred kilobytes on the real service; allow them room. */
const CATALOGUE_BYTES = 32 << 20;

export function catalogRoutes(http: HttpCore) {
  return {
    listModels: async (opts?: CallOptions) =>
      (await http.json(ModelListSchema, { route: ROUTES.listModels, maxBytes: CATALOGUE_BYTES }, opts)).data,
    listProviders: async (opts?: CallOptions) =>
      (await http.json(ProviderListSchema, { route: ROUTES.listProviders, maxBytes: CATALOGUE_BYTES }, opts)).data,
    getKeyInfo: async (opts?: CallOptions) => (await http.json(KeyInfoEnvelopeSchema, { route: ROUTES.getKeyInfo }, opts)).data,
  };
}
