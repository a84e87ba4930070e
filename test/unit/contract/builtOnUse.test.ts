// The contract's schemas are built the first time they parse, not as the contract loads
// (src/contract/read.ts): loading it is on the path of every start, on the TUI's thread and on
// the embedded sandbox's. Vitest gives each test file its own modules, so nothing here has parsed
// with them before this file's tests.
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import * as contract from '../../../src/contract/index.js';
import { built, schemaFields } from '../../../src/contract/read.js';

const schemas = Object.entries(contract as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);
/** Whether a z.lazy has built its schema yet: zod keeps it on the lazy's definition once built. */
const isBuilt = (s: z.ZodType) => (s._zod.def as { _cachedInner?: unknown })._cachedInner !== undefined;

describe('the contract loads without building its schemas', () => {
  it('exports its schemas, each one built on first use', () => {
    expect(schemas.length).toBeGreaterThan(50);
    const eager = schemas.filter(([, s]) => !(s instanceof z.ZodLazy)).map(([name]) => name);
    expect(eager).toEqual([]);
  });

  it('has built none of them by the time it has loaded', () => {
    expect(schemas.filter(([, s]) => isBuilt(s)).map(([name]) => name)).toEqual([]);
  });

  it('builds one as it first parses, with the rules of the schema inside, and only what it uses', () => {
    const page = { data: [], has_more: false };
    expect(contract.InternListSchema.parse(page)).toEqual(page);
    expect(isBuilt(contract.InternListSchema)).toBe(true);
    // Its interns' schema is built once a row needs it; the rest of the contract is not built at all.
    expect(isBuilt(contract.InternSchema)).toBe(false);
    expect(isBuilt(contract.ByokCredentialSchema)).toBe(false);
    expect(() => contract.InternListSchema.parse({ data: [{ id: '' }], has_more: false })).toThrow(z.ZodError);
    expect(isBuilt(contract.InternSchema)).toBe(true);
  });

  it('gives the schema it built for its shape, the same one each time', () => {
    const inner = built(contract.VaultSecretSchema);
    expect(Object.keys(inner.shape)).toEqual(['name', 'hosts', 'fingerprint', 'created_at']);
    expect(built(contract.VaultSecretSchema)).toBe(inner);
    // One built from another keeps its fields.
    expect(schemaFields(contract.EffectiveSecretSchema)).toEqual(['name', 'hosts', 'fingerprint', 'created_at', 'scope']);
  });
});
