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
    // The label is shown as "signed in as": a service that answered with the key itself would show it.
    getKeyInfo: async (opts?: CallOptions) => {
      const info = (await http.json(KeyInfoEnvelopeSchema, { route: ROUTES.getKeyInfo }, opts)).data;
      return { ...info, label: http.redact(info.label) };
    },
  };
}
