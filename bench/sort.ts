/**
 * The sort's cost at 5,000 interns, in-process: sorting by each column of the intern list (what a
 * sort key, a reload or a page costs once), and a filter's key on the sorted list (keepOrder)
 * against the unsorted one, so that a sort does not make typing into the filter slower.
 * `node --import tsx bench/sort.ts`; prints the median of a few runs of each.
 */
import { performance } from 'node:perf_hooks';
import type { Intern } from '../src/contract/intern.js';
import { INTERN_STATUSES } from '../src/contract/intern.js';
import { fuzzyFilter, type FilterField } from '../src/tui/fuzzy.js';
import { sortRows, type Sortable, type SortSpec, type Ties } from '../src/tui/state/sort.js';

const N = 5000;
const RUNS = 7;
const models = ['anthropic/claude-sonnet-4', 'openai/gpt-4.1', 'openai/o4-mini', null, 'google/gemini-2.5-pro'];
const interns = Array.from({ length: N }, (_, n): Intern => ({
  id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `intern-${(n * 7919) % N}`,
  status: INTERN_STATUSES[n % INTERN_STATUSES.length]!,
  model: models[n % models.length]!,
  hostname: n % 3 ? `intern-${n}.interns.test` : null,
  description: n % 2 ? 'Keeps CI green and files issues' : null,
  updated_at: new Date(Date.UTC(2026, 10, 1) + ((n * 104729) % 2_000_000) * 1000).toISOString(),
} as unknown as Intern));

const COLUMNS: Sortable<Intern>[] = [
  { header: 'NAME', sort: { kind: 'text', by: (i) => i.name } },
  { header: 'STATUS', sort: { kind: 'status', by: (i) => i.status } },
  { header: 'MODEL', sort: { kind: 'text', by: (i) => i.model } },
  { header: 'HOSTNAME', sort: { kind: 'text', by: (i) => i.hostname } },
  { header: 'UPDATED', sort: { kind: 'time', by: (i) => i.updated_at } },
];
const TIES: Ties<Intern> = { name: (i) => i.name, id: (i) => i.id };
const fields = (i: Intern): FilterField[] => [
  { text: i.name, column: 'NAME' },
  { text: i.status, column: 'STATUS' },
  { text: i.model ?? '', column: 'MODEL' },
  { text: i.hostname ?? '', column: 'HOSTNAME' },
  { text: i.description ?? '', column: 'HOSTNAME', hidden: 'description' },
];

function median(f: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

for (const c of COLUMNS) {
  const spec: SortSpec = { column: c.header.toLowerCase(), direction: 'asc' };
  console.log(`sort ${N} by ${spec.column}: ${median(() => sortRows(interns, COLUMNS, spec, TIES)).toFixed(1)} ms`);
}
const sorted = sortRows(interns, COLUMNS, { column: 'name', direction: 'asc' }, TIES);
for (const q of ['i', 'int', 'gpt4', 'intern-4999']) {
  // The first call of each list builds its index (once per list, not per key): warmed up first.
  fuzzyFilter(interns, q, fields);
  fuzzyFilter(sorted, q, fields, { keepOrder: true });
  const plain = median(() => fuzzyFilter(interns, q, fields));
  const kept = median(() => fuzzyFilter(sorted, q, fields, { keepOrder: true }));
  console.log(`filter "${q}": unsorted ${plain.toFixed(1)} ms, sorted by name (keepOrder) ${kept.toFixed(1)} ms`);
}
