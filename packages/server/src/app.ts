import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Gauge } from 'prom-client';
import { auditMiddleware, type AuditApi } from '@org/audit-server-core';

/** What the app reports beyond its logs. */
export interface AppOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: Pick<Gauge, 'inc' | 'dec'>;
}

/** The reference host's Express app: request log, the audit endpoints, plain-text 404 and 500. */
export function createApp(api: AuditApi, logger: Logger, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
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
      },
    }),
  );
  app.use(auditMiddleware(api));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    req.log.error({ error: { type: (error as Error).name, message: String((error as Error).message).slice(0, 300) } }, 'request failed');
    res.status(500).type('text/plain').send('Internal server error');
  };
  app.use(onError);
  return app;
}
