import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { describeFailure, type AuditApi } from '@org/audit-server-core';
import { createAuditListener } from '@org/audit-server-core/node';
import type { AdminApi, AdminApiOptions } from '../admin/api.js';
import { clientAddressResolver } from './client-address.js';
import { onFirstUse } from './first-use.js';
import type { ExpressAppOptions } from './express-app.js';
import type { InFlightCount } from '../ops/metrics.js';
import { withRequestLog } from './request-log.js';

/** What the app reports beyond its logs. */
export interface AppOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: InFlightCount;
  /** Express `trust proxy`: a hop count or proxy addresses. Unset: the client address is the socket's, `X-Forwarded-For` is ignored. */
  trustProxy?: string;
  /** The admin API, served under `/api/admin`, and the dashboard on it under `/dashboard/`. Unset: both answer 404. */
  admin?: AdminApi;
  /** `GET /enroll.sh`, the enroll script of an enrollment. Unset: 404. */
  enrollScript?: ExpressAppOptions['enrollScript'];
}

/**
 * The reference host's request listener: the collector endpoints (`/api/<toolSegment>/…`, `/api/v1/…`) go straight
 * to core's node:http adapter, everything else (the admin API, the dashboard, plain-text 404 and 500) to Express,
 * so that a license check or an upload never pays for Express' routing. Every request makes one log line.
 */
export function createApp(api: AuditApi, logger: Logger, options: AppOptions = {}): RequestListener {
  const collectors = createAuditListener(api, {
    onUnhandled: expressOnFirstUse(logger, options),
    clientAddress: clientAddressResolver(options.trustProxy, (message) => logger.warn(message)),
    onFailure: (error) => logger.error({ error: describeFailure(error) }, 'request failed'),
  });
  return withRequestLog(logger, collectors, { inFlight: options.inFlight });
}

/** A listener serving only the admin API and the dashboard, for a port of their own: request log, plain-text 404 and 500. */
export function createAdminApp(admin: AdminApi, logger: Logger, options: Pick<AppOptions, 'trustProxy'> = {}): RequestListener {
  return withRequestLog(logger, expressOnFirstUse(logger, { ...options, admin }));
}

/**
 * The Express side, loaded when a request first needs it: Express, its body parsers and the dashboard's static
 * files are no part of answering collectors, so a start does not wait for them. Requests meanwhile wait.
 */
function expressOnFirstUse(logger: Logger, options: ExpressAppOptions): RequestListener {
  const load = onFirstUse(() => import('./express-app.js').then(({ createExpressApp }) => createExpressApp(logger, options)));
  let loaded: RequestListener | undefined;
  return (req, res) => {
    if (loaded) return loaded(req, res);
    load().then(
      (listener) => (loaded = listener)(req, res),
      (error: unknown) => {
        logger.error({ error: describeFailure(error) }, 'request failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal server error');
      },
    );
  };
}

/**
 * The admin API, loaded and built on its first request: its routes, exports and contract checks are no part of
 * answering collectors, so a start does not wait for them.
 */
export function adminApiOnFirstUse(options: AdminApiOptions): AdminApi {
  const admin = onFirstUse(() => import('../admin/api.js').then(({ createAdminApi }) => createAdminApi(options)));
  return { handle: async (request) => (await admin()).handle(request) };
}
