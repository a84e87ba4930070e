/** `models [QUERY]`: the model catalogue, filtered by id or name. */
import { CatalogModelSchema, contextSize, perMillion, type Model } from '../../contract/catalog.js';
import { schemaFields } from '../../contract/read.js';
import type { RunContext } from '../context.js';
import { EXIT } from '../exit.js';
import { MORE_THAN_LIMIT, parseLimit } from '../parse.js';

export async function models(ctx: RunContext): Promise<number> {
  const max = parseLimit(ctx.text('limit'));
  const api = await ctx.api();
  const all = await api.listModels({ signal: ctx.signal });
  const q = ctx.positionals[0]?.toLowerCase();
  const matching = q ? all.filter((m) => m.id.toLowerCase().includes(q) || m.name.toLowerCase().includes(q)) : all;
  const rows = matching.slice(0, max);
  ctx.out.list<Model>(
    rows,
    [
      { header: 'ID', get: (m) => m.id, keep: true },
      { header: 'NAME', get: (m) => m.name },
      // On a terminal the context reads as 131k or 1.05M; piped it stays the number of tokens.
      { header: 'CONTEXT', get: (m) => m.context_length ?? '', short: (n) => contextSize(Number(n)) },
      // On a terminal dollars per million tokens; piped, the price per token as the API gives it
      // (a decimal string), which a script can compute with.
      { header: 'IN $/M', get: (m) => m.pricing.prompt, short: perMillion },
      { header: 'OUT $/M', get: (m) => m.pricing.completion, short: perMillion },
    ],
    q ? 'no model matches' : 'no models',
  );
  if (matching.length > max) ctx.out.aside(MORE_THAN_LIMIT(max));
  return EXIT.ok;
}
models.jsonFields = schemaFields(CatalogModelSchema);
