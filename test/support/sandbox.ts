/** Test support: an in-process sandbox on an ephemeral loopback port, clients per role, raw requests and polling. */
import { request } from 'undici';
import { createClient } from '../../src/client/index.js';
import type { Credentials, InternApi } from '../../src/client/types.js';
import { WebSocketTransport } from '../../src/attach/transport.js';
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

/**
 * Types `line` into an intern's own terminal over the attach transport, as a person attached
 * would, and answers what the terminal printed once `done` holds (or fails after `doneMs`).
 * Put a split marker in `line` (`EN%sD`) so the shell's echo of it does not satisfy `done`.
 */
export async function typeInTerminal(
  api: Pick<InternApi, 'getDaemonAccess'>,
  internId: string,
  line: string,
  done: (text: string) => boolean,
  opts: { cols?: number; rows?: number; doneMs?: number; what?: string } = {},
): Promise<string> {
  const access = await api.getDaemonAccess(internId);
  let text = '';
  const t = new WebSocketTransport({
    access: async () => access,
    cols: opts.cols ?? 200,
    rows: opts.rows ?? 50,
    handlers: { output: (d, o) => ((text += d.toString('utf8')), t.ack(o + d.length)), state: () => undefined, gap: () => undefined, exit: () => undefined },
  });
  t.connect();
  try {
    await waitFor(async () => t.state, (st) => st === 'open', 10_000, 'open');
    t.send(line);
    await waitFor(async () => text, done, opts.doneMs ?? 15_000, opts.what ?? `the shell (${text.slice(-300)})`);
    return text;
  } finally {
    t.close();
  }
}
