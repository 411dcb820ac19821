import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';
import { describeFailure, type AuditApi } from '@org/audit-server-core';
import { createAuditListener } from '@org/audit-server-core/node';
import type { AdminApi } from './admin/api.js';
import { adminMiddleware } from './admin/express.js';
import { clientAddressResolver, compileProxyTrust } from './client-address.js';
import { dashboardRouter } from './dashboard.js';
import { withRequestLog } from './request-log.js';

/** What the app reports beyond its logs. */
export interface AppOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: Pick<Gauge, 'inc' | 'dec'>;
  /** Express `trust proxy`: a hop count or proxy addresses. Unset: the client address is the socket's, `X-Forwarded-For` is ignored. */
  trustProxy?: string;
  /** The admin API, served under `/api/admin`, and the dashboard on it under `/dashboard/`. Unset: both answer 404. */
  admin?: AdminApi;
}

/**
 * The reference host's request listener: the collector endpoints (`/api/<toolSegment>/…`, `/api/v1/…`) go straight
 * to core's node:http adapter, everything else (the admin API, the dashboard, plain-text 404 and 500) to Express,
 * so that a license check or an upload never pays for Express' routing. Every request makes one log line.
 */
export function createApp(api: AuditApi, logger: Logger, options: AppOptions = {}): RequestListener {
  const app = baseApp(options);
  if (options.admin) serveAdmin(app, options.admin);
  const collectors = createAuditListener(api, {
    onUnhandled: withFallbacks(app, logger),
    clientAddress: clientAddressResolver(options.trustProxy),
    onFailure: (error) => logger.error({ error: describeFailure(error) }, 'request failed'),
  });
  return withRequestLog(logger, collectors, { inFlight: options.inFlight });
}

/** A listener serving only the admin API and the dashboard, for a port of their own: request log, plain-text 404 and 500. */
export function createAdminApp(admin: AdminApi, logger: Logger, options: Pick<AppOptions, 'trustProxy'> = {}): RequestListener {
  const app = baseApp(options);
  serveAdmin(app, admin);
  return withRequestLog(logger, withFallbacks(app, logger));
}

/** The admin API under `/api/admin`, and the dashboard, which calls it, under `/dashboard/`. */
function serveAdmin(app: Express, admin: AdminApi): void {
  app.use('/api/admin', adminMiddleware(admin));
  app.use('/dashboard', dashboardRouter());
}

/** Express with the proxy setting: the same client address as the collector endpoints see. */
function baseApp(options: Pick<AppOptions, 'trustProxy'>): Express {
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy) app.set('trust proxy', compileProxyTrust(options.trustProxy));
  return app;
}

/** Plain-text 404 for every other path, and 500 for an unexpected error, which is logged. */
function withFallbacks(app: Express, logger: Logger): Express {
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    logger.error({ error: describeFailure(error) }, 'request failed');
    res.status(500).type('text/plain').send('Internal server error');
  };
  app.use(onError);
  return app;
}
