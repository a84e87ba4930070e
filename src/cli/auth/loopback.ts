/**
 * The loopback listener of a browser sign-in (RFC 8252 section 7.3): an ephemeral port on 127.0.0.1
 * (and the same port on ::1 when it is free, since a browser may resolve `localhost` either way),
 * waiting for one `GET /callback?code=...`. Other paths get 404; a callback with an `error` ends the
 * wait with that error; one with a wrong `state` is refused. Nothing received is ever printed.
 * The browser's page for a code waits for the outcome: it says "Signed in" only once the caller,
 * having exchanged the code, closes with `close(true)`; a code the service refuses says so.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Callback {
  /** `http://localhost:PORT/callback` */
  url: string;
  /** Resolves with the code, rejects on an error callback, a timeout or the signal. */
  code: Promise<string>;
  /** Answers the browser waiting on its code (`signedIn`: the exchange worked) and stops listening. */
  close(signedIn?: boolean): Promise<void>;
}

/** How long the browser's page waits for the outcome before it says to look at the terminal. */
const OUTCOME_WAIT_MS = 60_000;

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${title}</h1><p>${text}</p></body></html>`;

export async function listenForCallback(opts: { state?: string; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Callback> {
  let settle: { resolve: (code: string) => void; reject: (e: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  code.catch(() => undefined);
  let done = false;
  const finish = (e: Error | null, value?: string) => {
    if (done) return;
    done = true;
    if (e) settle!.reject(e);
    else settle!.resolve(value!);
  };

  const send = (res: ServerResponse, status: number, title: string, text: string) =>
    new Promise<void>((resolve) => {
      if (res.writableEnded || res.destroyed) return resolve();
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(PAGE(title, text), () => resolve());
    });
  // The browser that brought the code, answered once the caller knows whether it worked.
  let waiting: ServerResponse | undefined;
  let waitTimer: NodeJS.Timeout | undefined;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const reply = (status: number, title: string, text: string) => void send(res, status, title, text);
    if (req.method !== 'GET' || url.pathname !== '/callback') return reply(404, 'Not found', 'Nothing here.');
    if (done) return reply(410, 'Already done', 'This sign-in has finished; you can close this tab.');
    if (opts.state !== undefined && url.searchParams.get('state') !== opts.state) {
      return reply(400, 'Sign-in refused', 'The answer does not belong to this sign-in (state mismatch).');
    }
    const error = url.searchParams.get('error');
    if (error) {
      reply(400, 'Sign-in failed', 'The sign-in was refused; see the terminal.');
      return finish(new Error(`the sign-in page answered with an error: ${error.replace(/[^\w.-]/g, '?').slice(0, 60)}`));
    }
    const got = url.searchParams.get('code');
    if (!got) return reply(400, 'Sign-in failed', 'No code in the answer.');
    waiting = res;
    waitTimer = setTimeout(() => void send(res, 202, 'Almost there', 'The terminal is finishing the sign-in; look there for the outcome.'), OUTCOME_WAIT_MS);
    waitTimer.unref();
    finish(null, got);
  };

  const v4 = createServer(handler);
  const servers: Server[] = [v4];
  await new Promise<void>((resolve, reject) => {
    v4.once('error', reject);
    v4.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (v4.address() as AddressInfo).port;
  const v6 = createServer(handler);
  await new Promise<void>((resolve) => {
    v6.once('error', () => resolve());
    v6.listen(port, '::1', () => {
      servers.push(v6);
      resolve();
    });
  });

  const timer = setTimeout(() => finish(new Error('no answer from the browser within the time allowed; run login again')), opts.timeoutMs ?? 10 * 60_000);
  timer.unref();
  const onAbort = () => finish(new Error('interrupted'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    url: `http://localhost:${port}/callback`,
    code,
    async close(signedIn = false) {
      clearTimeout(timer);
      clearTimeout(waitTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      finish(new Error('closed'));
      if (waiting) {
        await (signedIn
          ? send(waiting, 200, 'Signed in', 'You are signed in. You can close this tab and go back to the terminal.')
          : send(waiting, 400, 'Sign-in failed', 'The sign-in did not complete; the terminal says why. Run login again there.'));
      }
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
