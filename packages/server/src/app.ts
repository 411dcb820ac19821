import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Gauge } from 'prom-client';
import { describeFailure, type AuditApi } from '@org/audit-server-core';
import { auditMiddleware } from '@org/audit-server-core/express';
import type { AdminApi } from './admin/api.js';
import { adminMiddleware } from './admin/express.js';
import { dashboardRouter } from './dashboard.js';

/** What the app reports beyond its logs. */
export interface AppOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: Pick<Gauge, 'inc' | 'dec'>;
  /** Express `trust proxy`: a hop count or proxy addresses. Unset: the client address is the socket's, `X-Forwarded-For` is ignored. */
  trustProxy?: string;
  /** The admin API, served under `/api/admin`, and the dashboard on it under `/dashboard/`. Unset: both answer 404. */
  admin?: AdminApi;
}

/** The reference host's Express app: request log, the admin API, the audit endpoints, plain-text 404 and 500. */
export function createApp(api: AuditApi, logger: Logger, options: AppOptions = {}): Express {
  const app = baseApp(logger, options);
  if (options.admin) serveAdmin(app, options.admin);
  app.use(auditMiddleware(api));
  return withFallbacks(app);
}

/** An app serving only the admin API and the dashboard, for a listener of their own: request log, plain-text 404 and 500. */
export function createAdminApp(admin: AdminApi, logger: Logger, options: Pick<AppOptions, 'trustProxy'> = {}): Express {
  const app = baseApp(logger, options);
  serveAdmin(app, admin);
  return withFallbacks(app);
}

/** The admin API under `/api/admin`, and the dashboard, which calls it, under `/dashboard/`. */
function serveAdmin(app: Express, admin: AdminApi): void {
  app.use('/api/admin', adminMiddleware(admin));
  app.use('/dashboard', dashboardRouter());
}

/** Express with the proxy setting, the in-flight count and the request log. */
function baseApp(logger: Logger, options: Pick<AppOptions, 'inFlight' | 'trustProxy'>): Express {
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
      // Only what identifies a request: no headers (so never the Authorization header with its admin token), no
      // body, no query string (clients may put a key or token there), so no secret can reach the log this way.
      serializers: {
        req: (req: { method: string; url: string; remoteAddress?: string }) => ({ method: req.method, path: pathOf(req.url), remoteAddress: req.remoteAddress }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      // pino-http turns every 5xx answer into an error with a stack trace. A 503 (busy) is given on purpose and an
      // unexpected error is logged where it is caught (withFallbacks), so every answer is one plain line.
      customErrorObject: (_req, _res, _error, { err: _err, ...line }: Record<string, unknown>) => line,
      customErrorMessage: () => 'request completed',
    }),
  );
  return app;
}

/** Plain-text 404 for every other path, and 500 for an unexpected error, which is logged. */
function withFallbacks(app: Express): Express {
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

/** A request target without its query string. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
