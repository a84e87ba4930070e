/** Random and hostile bodies never crash the sandbox, never get a 5xx, and always get the right 400/413/415. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByokErrorEnvelopeSchema, InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { raw, sandbox } from '../support/sandbox.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
});
afterAll(() => sb.close());

const RUNS = { numRuns: 60 };

// Values a PATCH might get: random JSON, wrong types, huge strings, deep nesting.
const hostileJson = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom('name', 'description', 'instructions', 'model', '__proto__', 'constructor', 'x'), fc.jsonValue()),
  fc.record({ name: fc.string({ maxLength: 40 }) }),
  fc.record({ model: fc.string({ maxLength: 220 }) }),
  fc.nat({ max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.nat({ max: 2000 }).map((n) => ({ description: 'x'.repeat(1995 + n) })),
);

async function patch(body: string | Buffer, type = 'application/json') {
  return raw(sb, 'PATCH', `/interns/${sb.manifest.interns.no_icon}`, { token: sb.manifest.credentials.api_key, body, headers: { 'content-type': type } });
}

describe('hostile bodies', () => {
  it('PATCH /interns/{id}: random JSON gets 200 or a 400 envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (value) => {
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        const res = await patch(text);
        expect(res.status === 200 || res.status === 400 || res.status === 409).toBe(true);
        if (res.status !== 200) {
          const env = InternErrorEnvelopeSchema.parse(res.json);
          expect(env.error.metadata?.retryable).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('PATCH /interns/{id}: random bytes and invalid UTF-8 get 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        const res = await patch(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes)]));
        expect(res.status).toBe(400);
        expect(InternErrorEnvelopeSchema.parse(res.json).error.metadata?.reason).toBe('invalid_body');
      }),
      RUNS,
    );
  });

  it('PATCH /interns/{id}: any non-JSON content type gets 415, any oversized body 413', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/jsonx'), fc.string({ minLength: 1, maxLength: 50 }), async (type, body) => {
        const res = await patch(body, type);
        expect(res.status).toBe(415);
      }),
      { numRuns: 20 },
    );
    for (const extra of [1, 1000]) {
      const res = await patch(Buffer.alloc(1_048_576 + extra, 0x20));
      expect(res.status).toBe(413);
    }
  });

  it('POST and PATCH /byok: random bodies get 201/200 or a BYOK 400 envelope, never a 5xx', async () => {
    const mgmt = sb.manifest.credentials.management_key;
    const made = await raw(sb, 'POST', '/byok', { token: mgmt, body: JSON.stringify({ provider: 'groq', key: 'k-hostile' }), headers: { 'content-type': 'application/json' } });
    const credId = (made.json as { data: { id: string } }).data.id;
    const byokBody = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          provider: fc.oneof(fc.constantFrom('openai', 'azure', 'groq', 'fireworks'), fc.string({ maxLength: 20 })),
          key: fc.oneof(fc.string({ maxLength: 30 }), fc.constant('{"api_key":"x","region":"mars"}'), fc.jsonValue()),
          declared_region: fc.oneof(fc.constantFrom('global', 'europe', 'us', null), fc.jsonValue()),
          allowed_api_key_hashes: fc.oneof(fc.constant(null), fc.array(fc.stringMatching(/^[a-f0-9]{0,66}$/), { maxLength: 3 }), fc.jsonValue()),
          is_byok_only: fc.oneof(fc.boolean(), fc.jsonValue()),
          is_fallback: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(byokBody, fc.boolean(), async (value, create) => {
        const res = await raw(sb, create ? 'POST' : 'PATCH', create ? '/byok' : `/byok/${credId}`, {
          token: mgmt,
          body: JSON.stringify(value),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status < 500).toBe(true);
        if (res.status >= 400) {
          expect([400, 409]).toContain(res.status);
          ByokErrorEnvelopeSchema.parse(res.json);
        }
      }),
      RUNS,
    );
  });

  it('a body with an unpaired surrogate escape is 400 on every route, naming the field; a pair is text', async () => {
    const m = sb.manifest;
    const key = m.credentials.api_key!;
    const mgmt = m.credentials.management_key!;
    const send = (method: string, path: string, token: string, body: unknown) =>
      raw(sb, method, path, { token, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const lone = '\ud800';
    expect(JSON.stringify(lone)).toBe('"\\ud800"');
    const intern = `/interns/${m.interns.no_icon}`;
    const before = (await raw(sb, 'GET', intern, { token: key })).json as { description: string | null };
    const cases: [string, string, string, unknown, 'intern' | 'byok', string, string | null][] = [
      // A 2000-character description of lone surrogates was stored as 6000 U+FFFD.
      ['PATCH', intern, key, { description: lone.repeat(2000) }, 'intern', 'invalid_body', 'description'],
      ['PATCH', intern, key, { description: `ok ${'\udfff'} ok` }, 'intern', 'invalid_body', 'description'],
      ['POST', '/interns', key, { name: 'lone-surrogate', instructions: lone }, 'intern', 'invalid_body', 'instructions'],
      ['PUT', '/vault/secrets/lone_value', key, { value: `secret${lone}`, hosts: ['api.example.com'] }, 'intern', 'invalid_body', 'value'],
      ['PUT', '/vault/secrets/lone_host', key, { value: 'v', hosts: ['api.example.com', `x${lone}.example.com`] }, 'intern', 'invalid_body', 'hosts.1'],
      ['POST', '/byok', mgmt, { provider: 'groq', key: `gsk-${lone}` }, 'byok', '', 'key'],
      ['POST', `/interns/${m.interns.running}/chat/completions`, key, { stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: lone }] }] }, 'intern', 'bad_request', 'messages.0.content.0.text'],
      // In a field's name: no field to name.
      ['PATCH', intern, key, { [`x${lone}`]: 1 }, 'intern', 'invalid_body', null],
    ];
    for (const [method, path, token, body, family, reason, field] of cases) {
      const res = await send(method, path, token, body);
      const what = `${method} ${path} ${field}`;
      expect(res.status, what).toBe(400);
      const error = family === 'byok' ? ByokErrorEnvelopeSchema.parse(res.json).error : InternErrorEnvelopeSchema.parse(res.json).error;
      if (family === 'intern') expect((error as { metadata?: { reason: string } }).metadata?.reason, what).toBe(reason);
      expect(error.message, what).toBe(field === null ? 'the body holds an unpaired surrogate: not valid Unicode' : `${field}: holds an unpaired surrogate: not valid Unicode`);
    }
    expect(((await raw(sb, 'GET', intern, { token: key })).json as { description: string | null }).description).toBe(before.description);
    expect((await raw(sb, 'GET', '/vault/secrets', { token: key })).text).not.toContain('lone_');
    // A surrogate pair is an ordinary character (an emoji), escaped or not.
    const paired = await send('PATCH', intern, key, { description: 'rocket \ud83d\ude80' });
    expect(paired.status).toBe(200);
    expect((paired.json as { description: string }).description).toBe('rocket 🚀');
    const escapedText = await raw(sb, 'PATCH', intern, { token: key, body: '{"description":"rocket \\ud83d\\ude80 and a \\\\ud800 that is text"}', headers: { 'content-type': 'application/json' } });
    expect([escapedText.status, (escapedText.json as { description: string }).description]).toEqual([200, 'rocket 🚀 and a \\ud800 that is text']);
  });

  it('the service still answers afterwards', async () => {
    const res = await raw(sb, 'GET', `/interns/${sb.manifest.interns.running}`, { token: sb.manifest.credentials.api_key });
    expect(res.status).toBe(200);
  });
});

describe('hostile bodies on the OAuth token endpoint', () => {
  // Form fields an OAuth client sends, with random, repeated and missing values, and random bytes.
  const field = fc.constantFrom('grant_type', 'client_id', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'client_secret', 'scope', '__proto__');
  const value = fc.oneof(fc.constantFrom('authorization_code', 'refresh_token', 'password', 'intern-tui', ''), fc.string({ maxLength: 60 }));
  const body = fc.oneof(
    fc.array(fc.tuple(field, value), { maxLength: 8 }).map((pairs) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(pairs).toString() })),
    fc.jsonValue().map((v) => ({ type: 'application/json', body: JSON.stringify(v) ?? 'null' })),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ type: 'application/x-www-form-urlencoded', body: Buffer.from(bytes).toString('latin1') })),
    fc.string({ maxLength: 80 }).map((text) => ({ type: 'text/plain', body: text })),
  );

  it('POST /oauth/token: every answer to a random body is an RFC 6749 section 5.2 error with no-store, never a 5xx or the API envelope', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await raw(sb, 'POST', '/oauth/token', { root: true, body: b.body, headers: { 'content-type': b.type } });
        expect([400, 401]).toContain(res.status);
        expect(res.json).toEqual({ error: expect.stringMatching(/^(invalid_request|invalid_client|invalid_grant|unsupported_grant_type)$/), error_description: expect.any(String) });
        expect(res.headers['cache-control']).toBe('no-store');
      }),
      RUNS,
    );
  });
});
