/**
 * A hostile chat service on 127.0.0.1 for the command line's tests and the bench: one running
 * intern, found by its id, whose chat route answers as the test says. `endless` streams answer
 * chunks without end, as fast as the connection takes them (the server waits for its own socket's
 * `drain`, so it is the client that holds what is unread); `keepalive` sends only `: keepalive`
 * comments, forever; `session` answers a short turn whose last chunk names `sessionId`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTILE_INTERN_ID = '0b6f3c2a-4d5e-4f60-8a71-92b3c4d5e6f7';
export const HOSTILE_API_KEY = 'sk-or-v1-' + 'ab'.repeat(32);

export type HostileMode =
  | { kind: 'endless'; chunkChars?: number }
  /** Keepalive comments only, after `first` (answer text) when given, until `finish` is called. */
  | { kind: 'keepalive'; everyMs: number; first?: string }
  | { kind: 'session'; sessionId: string; text?: string };

export interface HostileChat {
  /** With /api/v1, for OPENROUTER_BASE_URL. */
  baseUrl: string;
  /** Bytes of the chat streams written to sockets so far. */
  sent(): number;
  /** Whether a chat stream is waiting for its socket's `drain` (the client reads no more), and since when (performance.now()), else null. */
  blockedSince(): number | null;
  /** Chat requests that came in, their bodies parsed. */
  chats: unknown[];
  /** How many chat streams are still open. */
  open(): number;
  /** Ends every open keepalive stream with `text`, a last chunk naming `sessionId`, and [DONE]. */
  finish(text: string, sessionId: string): void;
  close(): Promise<void>;
}

const now = () => new Date().toISOString();

function intern() {
  return {
    id: HOSTILE_INTERN_ID,
    name: 'flood',
    description: null,
    instructions: null,
    model: null,
    status: 'running',
    last_failure_message: null,
    progress: null,
    hostname: 'flood.interns.test',
    vault_id: null,
    attached_vault_id: null,
    workspace_id: '11111111-2222-4333-8444-555555555555',
    created_at: now(),
    updated_at: now(),
    created_by_you: true,
    icon_sha256: null,
  };
}

const lastChunk = (sessionId: string) => `data: ${JSON.stringify({ id: 'gen-hostile', object: 'chat.completion.chunk', created: 1, model: 'm/x', choices: [], session_id: sessionId, usage: null })}\n\n`;

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'gen-hostile', object: 'chat.completion.chunk', created: 1, model: 'm/x', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

export async function startHostileChat(mode: HostileMode): Promise<HostileChat> {
  let sent = 0;
  let blocked: number | null = null;
  let open = 0;
  const chats: unknown[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const streams = new Set<ServerResponse>();

  const endless = (res: ServerResponse, chars: number) => {
    // One event, written again and again: the client parses and prints each.
    const event = chunk({ content: 'flood '.repeat(Math.ceil(chars / 6)).slice(0, chars - 1) + '\n' });
    const pump = () => {
      while (!res.destroyed) {
        sent += event.length;
        if (!res.write(event)) {
          blocked = performance.now();
          res.once('drain', () => {
            blocked = null;
            pump();
          });
          return;
        }
      }
    };
    pump();
  };

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === `/api/v1/interns/${HOSTILE_INTERN_ID}`) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(intern()));
      }
      if (req.method !== 'POST' || path !== `/api/v1/interns/${HOSTILE_INTERN_ID}/chat/completions`) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 404, message: 'No such route', metadata: { reason: 'not_found', retryable: false } } }));
      }
      chats.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      open++;
      streams.add(res);
      res.on('close', () => {
        open--;
        blocked = null;
        streams.delete(res);
      });
      if (mode.kind === 'endless') return endless(res, mode.chunkChars ?? 16_384);
      if (mode.kind === 'keepalive') {
        res.write(chunk({ role: 'assistant', ...(mode.first ? { content: mode.first } : {}) }));
        const timer = setInterval(() => res.write(': keepalive\n\n'), mode.everyMs);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      res.end(chunk({ content: mode.text ?? 'done\n' }, 'stop') + lastChunk(mode.sessionId) + 'data: [DONE]\n\n');
    });
  });
  server.on('connection', (s) => s.setNoDelay(true));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    sent: () => sent,
    blockedSince: () => blocked,
    chats,
    open: () => open,
    finish: (text, sessionId) => {
      for (const t of timers) clearInterval(t);
      timers.clear();
      for (const res of streams) res.end(chunk({ content: text }, 'stop') + lastChunk(sessionId) + 'data: [DONE]\n\n');
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of streams) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
