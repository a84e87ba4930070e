// The sandbox validates every request with the contract's zod schemas and declares no fastify
// schema, so fastify's own compilers (ajv, fast-json-stringify) are never loaded: about 250 KB the
// embedded sandbox's worker does not compile at start-up (src/sandbox/app.ts, schemaController).
import { createRequire } from 'node:module';
import { afterAll, expect, it } from 'vitest';
import { raw, sandbox } from '../support/sandbox.js';

const sb = await sandbox();
afterAll(() => sb.close());

it("answers requests, good and bad, without loading fastify's schema compilers", async () => {
  const bad = await raw(sb, 'PATCH', '/interns/nope', { body: '{"name": 5}', token: sb.manifest.credentials.management_key!, headers: { 'content-type': 'application/json' } });
  expect(bad.status).toBeGreaterThanOrEqual(400);
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  expect(loaded.some((p) => p.includes('/node_modules/fastify/'))).toBe(true);
  expect(loaded.filter((p) => /\/node_modules\/(ajv\/|@fastify\/ajv-compiler\/|@fastify\/fast-json-stringify-compiler\/|fast-json-stringify\/index\.js)/.test(p))).toEqual([]);
});
