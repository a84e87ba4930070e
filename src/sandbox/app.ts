/** Builds the sandbox's fastify app: every route of the contract, the control API, and the envelopes. */
import Fastify, { type FastifyInstance } from 'fastify';
import { installBodyHandling, sendError, type HttpContext } from './http.js';
import { notFound } from './errors.js';
import type { DaemonHub } from './daemon/types.js';
import type { Lifecycle } from './lifecycle.js';
import type { SecretBox } from './crypto.js';
import type { Store } from './store.js';
import { registerInternRoutes } from './routes/interns.js';
import { registerByokRoutes } from './routes/byok.js';
import { registerControlRoutes } from './routes/control.js';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  store: Store;
  hub: DaemonHub;
  lifecycle: Lifecycle;
  secrets: SecretBox;
  ctx: HttpContext;
  controlToken: string;
  log?: (line: string) => void;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, return503OnClosing: false, forceCloseConnections: false, routerOptions: { maxParamLength: 500 } });
  installBodyHandling(app);
  let writesEnabled = true;

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

  if (deps.log) {
    const log = deps.log;
    app.addHook('onResponse', async (req, reply) => {
      // The route template, never the raw URL: no ids, no query strings, nothing secret.
      const template = req.routeOptions.url ?? 'unmatched';
      log(`${req.method} ${template} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    });
  }

  app.setErrorHandler((err, req, reply) => {
    const family = req.url.startsWith(`${API_PREFIX}/byok`) ? 'byok' : 'intern';
    return sendError(reply, family, err);
  });
  app.setNotFoundHandler((req, reply) => {
    const family = req.url.startsWith(`${API_PREFIX}/byok`) ? 'byok' : 'intern';
    return sendError(reply, family, notFound(`No route for ${req.method} ${req.url.split('?')[0]?.slice(0, 200)}`));
  });

  await app.register(
    async (api) => {
      registerInternRoutes(api, deps.ctx, {
        store: deps.store,
        hub: deps.hub,
        lifecycle: deps.lifecycle,
        writesEnabled: () => writesEnabled,
      });
      registerByokRoutes(api, deps.ctx, { store: deps.store, secrets: deps.secrets });
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
    onStatusChange: async (id, status) => {
      if (status !== 'running') await deps.hub.stop(id, `The intern is now ${status}`);
    },
  });
  return app;
}
