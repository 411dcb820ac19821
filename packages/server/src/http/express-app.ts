import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { describeFailure } from '@org/audit-server-core';
import type { AdminApi } from '../admin/api.js';
import { adminMiddleware } from '../admin/express.js';
import { compileProxyTrust } from './client-address.js';
import { dashboardRouter } from './dashboard.js';

/** What the Express side serves. */
export interface ExpressAppOptions {
  /** `--trust-proxy`, compiled as the collector endpoints compile it, so both see the same client address. */
  trustProxy?: string;
  /** The admin API under `/api/admin`, and the dashboard, which calls it, under `/dashboard/`. Unset: both answer 404. */
  admin?: AdminApi;
  /** `GET /enroll.sh`, the enroll script: on the collectors' listener only. */
  enrollScript?: (req: Request, res: Response) => Promise<void>;
}

/** The Express app of everything but the collector endpoints: the admin API, the dashboard, plain-text 404 and 500. */
export function createExpressApp(logger: Logger, options: ExpressAppOptions): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy) app.set('trust proxy', compileProxyTrust(options.trustProxy));
  if (options.enrollScript) app.get('/enroll.sh', options.enrollScript);
  if (options.admin) serveAdmin(app, options.admin);
  return withFallbacks(app, logger);
}

function serveAdmin(app: Express, admin: AdminApi): void {
  app.use('/api/admin', adminMiddleware(admin));
  app.use('/dashboard', dashboardRouter());
  // Where single sign-on ends (`/`, `/?sso_error=…`): the dashboard, with the query it reads.
  app.get('/', (req, res) => res.redirect(302, `/dashboard/${req.originalUrl.slice(1)}`));
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
