/** Builds the sandbox's fastify app: every route of the contract, the control API, and the envelopes. */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { echoPath, installBodyHandling, sendError, toHttpError, type HttpContext } from './http.js';
import { HttpError, envelope, notFound } from './errors.js';
import type { DaemonHub } from './daemon/types.js';
import type { Lifecycle } from './lifecycle.js';
import type { SecretBox } from './crypto.js';
import type { Store } from './store.js';
import { registerInternRoutes } from './routes/interns.js';
import { registerByokRoutes } from './routes/byok.js';
import { registerWorkspaceRoutes } from './routes/workspaces.js';
import { registerControlRoutes } from './routes/control.js';
import { registerVaultRoutes } from './routes/vault.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerChatRoutes } from './routes/chat.js';
import { type SignInOptions, createSignIn } from './routes/signin.js';
import type { AgentService } from './agent/index.js';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  store: Store;
  hub: DaemonHub;
  lifecycle: Lifecycle;
  secrets: SecretBox;
  ctx: HttpContext;
  controlToken: string;
  agent: AgentService;
  /** `http://127.0.0.1:PORT`, known once listening: the OAuth issuer. */
  origin: () => string;
  signIn?: SignInOptions;
  /** Silence before a keepalive comment on a chat stream; default 30 s. */
  chatKeepaliveMs?: number;
  log?: (line: string) => void;
}

/** Longest path parameter (an intern or BYOK id) the router accepts; longer answers 414. */
const MAX_PARAM_LENGTH = 500;

/**
 * Which envelope an error gets: BYOK paths get BYOK's (code and message), every other path,
 * known or not, gets the intern envelope. Errors of the HTTP parser, which happen before any
 * path is known, get the intern envelope too.
 */
export function familyOf(url: string): 'intern' | 'byok' {
  return url.startsWith(`${API_PREFIX}/byok`) ? 'byok' : 'intern';
}

function noFastifySchemas(): never {
  throw new Error('sandbox routes validate with the contract (zod), not fastify schemas');
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const log = deps.log;
  const app = Fastify({
    logger: false,
    // Every body and query is checked with the contract's zod schemas in the handlers, and no route
    // declares a fastify schema; so fastify's default compilers (ajv and fast-json-stringify, about
    // 250 KB of the bundle) are never needed, and are not loaded. A route given a schema fails loudly.
    schemaController: { compilersFactory: { buildValidator: noFastifySchemas, buildSerializer: noFastifySchemas } },
    return503OnClosing: false,
    forceCloseConnections: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Node answers an HTTP/1.1 request without a Host header with a bare 400 of its own (no body, and
    // no hook sees it, so it went unlogged); the sandbox refuses it itself, below, in its envelope.
    http: { requireHostHeader: false },
    // Errors fastify answers before routing (bad percent-encoding, an over-long id): our envelope.
    frameworkErrors: (err: FastifyError, req, reply) => {
      let e: HttpError;
      if (err.code === 'FST_ERR_BAD_URL') e = new HttpError(400, null, 'The path is not valid percent-encoded UTF-8');
      else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') e = new HttpError(414, null, `A path segment is longer than ${MAX_PARAM_LENGTH} characters`);
      else e = toHttpError(err);
      // These replies skip the onResponse hook: log them here, the same way, with no path.
      log?.(`${/^[A-Z]{1,12}$/.test(req.method) ? req.method : '-'} unmatched ${e.status} ${reply.elapsedTime.toFixed(1)}ms`);
      return sendError(reply, familyOf(req.raw.url ?? ''), e);
    },
    // Errors of Node's HTTP parser (a malformed request line, headers over the limit): written on
    // the socket, in the intern envelope, and logged without anything the client sent.
    clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      let e: HttpError;
      if (err.code === 'HPE_HEADER_OVERFLOW') e = new HttpError(431, null, 'The request line and headers are larger than the service accepts');
      else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') e = new HttpError(408, 'timeout', 'The request was not received in time');
      else e = new HttpError(400, null, 'The request could not be parsed as HTTP/1.1');
      log?.(`- unparsed ${e.status} 0.0ms`);
      if (!socket.writable) return void socket.destroy();
      const body = JSON.stringify(envelope('intern', e));
      socket.end(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  installBodyHandling(app);
  let writesEnabled = true;
  let vaultWritesEnabled = true;

  // Stopping: requests in flight finish, and their keep-alive connections close with the answer
  // instead of holding the process open until the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.server.closeIdleConnections();
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  if (log) {
    app.addHook('onResponse', async (req, reply) => {
      // The route template, never the raw URL: no ids, no query strings, nothing secret.
      const template = req.routeOptions.url ?? 'unmatched';
      log(`${req.method} ${template} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    });
  }

  // RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without a Host header. Refused
  // here rather than by Node, so that it gets the envelope of its path's family and a log line.
  app.addHook('onRequest', async (req, reply) => {
    if (req.raw.httpVersionMajor === 1 && req.raw.httpVersionMinor === 1 && req.raw.headers.host === undefined) {
      return sendError(reply, familyOf(req.url), new HttpError(400, null, 'An HTTP/1.1 request needs a Host header'));
    }
  });

  app.setErrorHandler((err, req, reply) => sendError(reply, familyOf(req.url), err));
  app.setNotFoundHandler((req, reply) => sendError(reply, familyOf(req.url), notFound(`No route for ${req.method} ${echoPath(req.url)}`)));

  const signIn = createSignIn(deps.ctx, { store: deps.store, origin: deps.origin, options: deps.signIn });
  signIn.registerSite(app);
  await app.register(
    async (api) => {
      signIn.registerApi(api);
      registerInternRoutes(api, deps.ctx, {
        store: deps.store,
        hub: deps.hub,
        lifecycle: deps.lifecycle,
        secrets: deps.secrets,
        writesEnabled: () => writesEnabled,
      });
      registerByokRoutes(api, deps.ctx, { store: deps.store, secrets: deps.secrets });
      registerWorkspaceRoutes(api, deps.ctx, { store: deps.store });
      registerVaultRoutes(api, deps.ctx, { store: deps.store, secrets: deps.secrets, writesEnabled: () => vaultWritesEnabled });
      registerCatalogRoutes(api, deps.ctx, { store: deps.store });
      registerChatRoutes(api, deps.ctx, { store: deps.store, agent: deps.agent, keepaliveMs: deps.chatKeepaliveMs });
    },
    { prefix: API_PREFIX },
  );
  registerControlRoutes(app, {
    store: deps.store,
    controlToken: deps.controlToken,
    ctx: deps.ctx,
    setWritesEnabled: (on) => {
      writesEnabled = on;
    },
    setVaultWritesEnabled: (on) => {
      vaultWritesEnabled = on;
    },
    onStatusChange: async (id, status) => {
      if (status !== 'running') {
        deps.agent.endRuns(id, `The intern is now ${status}`);
        await deps.hub.stop(id, `The intern is now ${status}`);
      }
    },
  });
  return app;
}
