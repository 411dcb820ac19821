import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Gauge } from 'prom-client';
import { auditMiddleware, describeFailure, type AuditApi } from '@org/audit-server-core';
import type { AdminApi } from './admin/api.js';
import { adminMiddleware } from './admin/express.js';

/** What the app reports beyond its logs. */
export interface AppOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: Pick<Gauge, 'inc' | 'dec'>;
  /** Express `trust proxy`: a hop count or proxy addresses. Unset: the client address is the socket's, `X-Forwarded-For` is ignored. */
  trustProxy?: string;
  /** The admin API, served under `/api/admin`. Unset: those paths answer 404 like any unknown path. */
  admin?: AdminApi;
}

/** The reference host's Express app: request log, the admin API, the audit endpoints, plain-text 404 and 500. */
export function createApp(api: AuditApi, logger: Logger, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy) app.set('trust proxy', /^\d+$/.test(options.trustProxy) ? Number(options.trustProxy) : options.trustProxy);
  const { inFlight } = options;
  if (inFlight) {
    app.use((_req, res, next) => {
      inFlight.inc();
      res.once('close', () => inFlight.dec());
      next();
    });
  }
  app.use(
    pinoHttp({
      logger,
      // Only what identifies a request: no headers, no body, so no secret can reach the log this way.
      serializers: {
        req: (req: { method: string; url: string; remoteAddress?: string }) => ({ method: req.method, url: req.url, remoteAddress: req.remoteAddress }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        // pino-http makes up an error for every 5xx: its stack says nothing, the handler logged the cause already.
        err: (error: Error) => ({ type: error.name, message: error.message }),
      },
    }),
  );
  // Only the method and path are logged (see the serializers): never the Authorization header with its admin token.
  if (options.admin) app.use('/api/admin', adminMiddleware(options.admin));
  app.use(auditMiddleware(api));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    req.log.error({ error: describeFailure(error) }, 'request failed');
    res.status(500).type('text/plain').send('Internal server error');
  };
  app.use(onError);
  return app;
}
