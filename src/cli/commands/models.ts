/** `models [QUERY]`: the model catalogue, filtered by id or name. */
import { CatalogModelSchema, type Model } from '../../contract/catalog.js';
import type { RunContext } from '../context.js';
import { EXIT } from '../exit.js';

/** Dollars per token (a decimal string) as dollars per million tokens. */
function perMillion(s: string): string {
  const n = Number(s);
  if (!Number.isFinite(n)) return '';
  if (n === 0) return 'free';
  return `$${(n * 1_000_000).toFixed(2)}`;
}

export async function models(ctx: RunContext): Promise<number> {
  const api = await ctx.api();
  const all = await api.listModels({ signal: ctx.signal });
  const q = ctx.positionals[0]?.toLowerCase();
  const rows = q ? all.filter((m) => m.id.toLowerCase().includes(q) || m.name.toLowerCase().includes(q)) : all;
  ctx.out.list<Model>(
    rows,
    [
      { header: 'ID', get: (m) => m.id, keep: true },
      { header: 'NAME', get: (m) => m.name },
      { header: 'CONTEXT', get: (m) => m.context_length ?? '' },
      { header: 'IN $/M', get: (m) => perMillion(m.pricing.prompt) },
      { header: 'OUT $/M', get: (m) => perMillion(m.pricing.completion) },
    ],
    q ? 'no model matches' : 'no models',
  );
  return EXIT.ok;
}
models.jsonFields = Object.keys(CatalogModelSchema.shape);
