/** Test support: an in-process sandbox on an ephemeral loopback port, clients per role, raw requests and polling. */
import { request } from 'undici';
import { createClient } from '../../src/client/index.js';
import type { Credentials, InternApi } from '../../src/client/types.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ host: '127.0.0.1', port: 0, seed: 'empty', stepMs: 30, ...options });
}

/** A client that uses one manifest role for every credential kind it is given. */
export function clientAs(sb: RunningSandbox, roles: Partial<Record<keyof Credentials, string>>, over: { maxAttempts?: number } = {}): InternApi {
  const credentials: Credentials = {};
  for (const [kind, role] of Object.entries(roles)) credentials[kind as keyof Credentials] = sb.manifest.credentials[role!];
  return createClient({ baseUrl: sb.baseUrl, credentials, backoffBaseMs: 1, maxAttempts: over.maxAttempts ?? 1 });
}

export function userClient(sb: RunningSandbox): InternApi {
  return clientAs(sb, { api_key: 'api_key', management_key: 'management_key', oauth_token: 'oauth_token' });
}

export async function raw(
  sb: RunningSandbox,
  method: string,
  path: string,
  opts: { token?: string; body?: string | Buffer | AsyncIterable<Buffer>; headers?: Record<string, string>; root?: boolean } = {},
): Promise<{ status: number; headers: Record<string, unknown>; json: unknown; text: string }> {
  const url = (opts.root ? sb.origin : sb.baseUrl) + path;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await request(url, { method: method as 'GET', headers, body: opts.body as never });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json, text };
}

/** Polls until the predicate holds, or fails with the last value seen. */
export async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)?.slice(0, 300)}`);
}
