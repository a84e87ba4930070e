/**
 * Defect 8 of issue 13: every error the sandbox sends uses the envelope of its
 * route family (BYOK paths: code and message; everything else: the intern
 * envelope), echoes at most a short, printable piece of the path, and is
 * logged (method, template, status; never a path or a secret), including the
 * errors fastify and Node's HTTP parser answer themselves. Raw sockets, so the
 * requests can be as broken as an attacker makes them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ByokErrorEnvelopeSchema, InternErrorEnvelopeSchema } from '../../src/contract/errors.js';
import { MAX_ECHOED_PATH } from '../../src/sandbox/http.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandbox, waitFor } from '../support/sandbox.js';

let sb: RunningSandbox;
let port: number;
let key: string;
let mgmt: string;
const log: string[] = [];

beforeAll(async () => {
  sb = await sandbox({ log: (line) => log.push(line) });
  port = Number(new URL(sb.origin).port);
  key = sb.manifest.credentials.api_key!;
  mgmt = sb.manifest.credentials.management_key!;
});
afterAll(() => sb.close());
beforeEach(() => {
  log.length = 0;
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the whole answer until the server closes. */
function rawRequest(bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split).split('\r\n');
      const m = /^HTTP\/1\.1 (\d{3}) /.exec(head[0] ?? '');
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const h of head.slice(1)) {
        const i = h.indexOf(':');
        headers[h.slice(0, i).toLowerCase()] = h.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers, body: text.slice(split + 4) });
    });
  });
}

const get = (path: string, headers: string[] = []) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => h + '\r\n').join('')}Connection: close\r\n\r\n`;
const LONG_ID = 'a'.repeat(600);

const cases: { name: string; request: () => string; status: number; family: 'intern' | 'byok' }[] = [
  { name: 'bad percent-encoding on an intern route', request: () => get('/api/v1/interns/%E0%A4%A', [`Authorization: Bearer ${key}`]), status: 400, family: 'intern' },
  { name: 'bad percent-encoding on a BYOK route', request: () => get('/api/v1/byok/%zz', [`Authorization: Bearer ${mgmt}`]), status: 400, family: 'byok' },
  { name: 'an over-long intern id', request: () => get(`/api/v1/interns/${LONG_ID}`, [`Authorization: Bearer ${key}`]), status: 414, family: 'intern' },
  { name: 'an over-long BYOK id', request: () => get(`/api/v1/byok/${LONG_ID}`, [`Authorization: Bearer ${mgmt}`]), status: 414, family: 'byok' },
  { name: 'an unknown, long path', request: () => get(`/nope/%1B]52;c;${LONG_ID}`), status: 404, family: 'intern' },
  { name: 'a malformed request line', request: () => `GARBAGE ${LONG_ID}\r\n\r\n`, status: 400, family: 'intern' },
  { name: 'an unknown HTTP version', request: () => `GET /api/v1/interns HTTP/9.9\r\nHost: x\r\n\r\n`, status: 400, family: 'intern' },
  { name: 'a header line with a control byte', request: () => `GET /api/v1/interns HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`, status: 400, family: 'intern' },
  { name: 'an HTTP/1.1 request without a Host header', request: () => `GET /api/v1/interns HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, status: 400, family: 'intern' },
  { name: 'an HTTP/1.1 BYOK request without a Host header', request: () => `GET /api/v1/byok HTTP/1.1\r\nAuthorization: Bearer ${mgmt}\r\nConnection: close\r\n\r\n`, status: 400, family: 'byok' },
  { name: 'headers over the size limit', request: () => get('/api/v1/interns', [`Authorization: Bearer ${key}`, `X-Big: ${'h'.repeat(20_000)}`]), status: 431, family: 'intern' },
  { name: 'a request line over the size limit', request: () => get(`/api/v1/byok/${'q'.repeat(20_000)}`), status: 431, family: 'intern' },
];

describe('malformed requests (issue 13, defect 8)', () => {
  it.each(cases)('$name: $status in the $family envelope, logged', async ({ request, status, family }) => {
    const answer = await rawRequest(request());
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as unknown;
    const schema = family === 'byok' ? ByokErrorEnvelopeSchema : InternErrorEnvelopeSchema;
    expect(schema.safeParse(body).success, answer.body).toBe(true);
    expect((body as { error: { code: unknown } }).error.code).toBe(status);
    // No long echo of the path, nothing unprintable, no credential.
    expect(answer.body).not.toContain('a'.repeat(MAX_ECHOED_PATH + 1));
    expect(answer.body).not.toContain('q'.repeat(MAX_ECHOED_PATH + 1));
    expect(answer.body).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(answer.body).not.toContain(key);
    expect(answer.body).not.toContain(mgmt);
    // One log line, with the status, and neither path nor secret.
    const lines = await waitFor(async () => [...log], (l) => l.some((x) => x.includes(` ${status} `)), 5000, 'the log line');
    expect(lines.filter((x) => x.includes(` ${status} `))).toHaveLength(1);
    for (const line of lines) {
      expect(line).toMatch(/^(GET|-) \S+ \d{3} [\d.]+ms$/);
      expect(line).not.toMatch(/aaaa|qqqq|%E0|%zz|GARBAGE|hhhh/);
      expect(line).not.toContain(key);
      expect(line).not.toContain(mgmt);
    }
  });

  it('an HTTP/1.0 request needs no Host header', async () => {
    const answer = await rawRequest(`GET /api/v1/interns?limit=1 HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(answer.status).toBe(200);
  });

  it('the sandbox still serves a good request afterwards', async () => {
    const answer = await rawRequest(get('/api/v1/interns?limit=1', [`Authorization: Bearer ${key}`]));
    expect(answer.status).toBe(200);
  });
});
