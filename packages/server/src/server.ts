import { mkdir } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { createAuditApi, type AuditApi } from '@org/audit-server-core';
import type { AdminApi, AdminApiOptions } from './admin/api.js';
import { capConnectionsPerAddress } from './http/connection-cap.js';
import { createAdminApp, createApp } from './http/app.js';
import type { ServerConfig } from './config.js';
import { dialectOf, sqlDialectOf } from './database/dialects.js';
import { openDatabase } from './database/open.js';
import { startHostBackfill, type HostBackfill } from './hosts/host-backfill.js';
import { reclaimMemoryWhenIdle } from './ops/memory-reclaim.js';
import { createMetrics } from './ops/metrics.js';
import { createOpsServer } from './ops/endpoints.js';
import { createRateLimiter } from './http/rate-limiter-store.js';
import { PolicyEvaluator } from './policies/policy-evaluator.js';
import { RejectionLog } from './refusals/rejection-log.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { writeRefusedUploadEvents } from './webhooks/refused-uploads.js';
import { schedulePruning } from './reports/retention.js';
import { onFirstUse } from './http/first-use.js';
import { ReportCompactor } from './reports/report-compaction.js';
import { OrmReportStore } from './reports/report-store.js';
import { OrmKeyStore } from './secrets/license-key-store.js';
import { loadTlsIdentity, tlsServerOptions, type TlsIdentity } from './http/tls.js';
import { WriteHealth } from './ops/write-health.js';

/** A started server. */
export interface RunningServer {
  /** Base URL, e.g. `https://127.0.0.1:8443`. */
  url: string;
  port: number;
  /** SHA-256 fingerprint of the certificate served, when serving HTTPS. */
  fingerprint256?: string;
  /**
   * Base URL of the admin API (`/api/admin/…`): `url` unless it has a listener of its own (`adminListen`);
   * undefined when it is not served.
   */
  adminUrl?: string;
  /** Base URL of the operations endpoints (`/healthz`, `/readyz`, `/metrics`), unless turned off. */
  opsUrl?: string;
  /**
   * Graceful stop: readiness turns 503, no new connections are accepted (on the admin listener neither), requests in
   * flight are finished (cut off after `shutdownTimeoutSeconds`), then the operations endpoints and the database are closed.
   */
  close(): Promise<void>;
}

/** Opens the database (PostgreSQL, or SQLite in the data directory) and serves the audit API on it. */
export async function startServer(config: ServerConfig, logger: Logger): Promise<RunningServer> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // First, so that an unreachable Redis stops the start before anything else is opened.
  const rateLimiter = await createRateLimiter({
    perAddressPerMinute: config.rateLimitAddress,
    perKeyPerMinute: config.rateLimitKey,
    failuresPer10Minutes: config.rateLimitFailures,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    logger,
  });
  const orm = await openDatabase(config, (message) => logger.info({ component: 'database' }, message));
  const keyStore = await OrmKeyStore.open(orm);
  const pruning = schedulePruning(orm, { keepLast: config.retentionKeepLast, maxAgeDays: config.retentionMaxAgeDays }, config.pruneIntervalMinutes, logger);
  const rejections = new RejectionLog(orm, logger, {
    flushIntervalMs: config.rejectionsFlushMs,
    keepDays: config.rejectionsKeepDays,
    onWrite: (trx, groups, now) => writeRefusedUploadEvents(trx, groups, now, sqlDialectOf(orm.em).toDatabaseTime),
  }).start();
  const metrics = createMetrics({ bodyBytesInFlight: () => api.bodyBytesInFlight(), rateLimitStoreReachable: rateLimiter.sharedStoreReachable });
  const writeHealth = new WriteHealth(orm);
  const webhookDispatcher = new WebhookDispatcher(orm, { logger, allowPrivate: config.webhookAllowPrivate }).start();
  const policyEvaluator = new PolicyEvaluator(orm, { logger, onEvents: () => webhookDispatcher.wake() }).start();
  const compactor = new ReportCompactor(orm, { logger, isBusy: () => api.bodyBytesInFlight() > 0 });
  const api: AuditApi = await createAuditApi({
    keyStore,
    reportStore: new OrmReportStore(orm, {
      writeHealth,
      admission: { hostIdentity: config.hostIdentity, newHostsPerDay: config.keyNewHostsPerDay },
      onCommitted: () => {
        policyEvaluator.wake();
        webhookDispatcher.wake();
        compactor.wake();
      },
    }),
    toolSegment: config.toolSegment,
    maxBodyBytes: config.maxBodyBytes,
    maxFields: config.maxFields,
    maxBodyBytesInFlight: config.maxBodyBytesInFlight,
    maxBodiesPerAddress: config.maxBodiesPerAddress,
    minBodyBytesPerSecond: config.minBodyBytesPerSecond,
    bodyGraceMs: config.bodyGraceMs,
    rateLimiter,
    logger,
    hooks: {
      ...metrics.hooks,
      onRequestRejected: (event) => {
        metrics.hooks.onRequestRejected?.(event);
        rejections.record(event);
      },
    },
  });
  const reclaimer = reclaimMemoryWhenIdle(() => api.bodyBytesInFlight());
  compactor.start();
  /** Derives hosts stored before the current derivation, in the background once the server listens. */
  let backfill: HostBackfill | undefined;
  /** Closes the stores; the key store writes the last-use times it still holds, the rejection log its counts. */
  const release = async () => {
    reclaimer.stop();
    await backfill?.stop();
    await rateLimiter.close();
    await pruning?.stop();
    await policyEvaluator.stop();
    await webhookDispatcher.stop();
    await compactor.stop();
    await rejections.close();
    await keyStore.close();
    await orm.close();
  };
  const admin =
    config.adminListen === 'off'
      ? undefined
      : adminApiOnFirstUse({ database: orm, rateLimiter, logger, policyEvaluator, webhookDispatcher, webhookAllowPrivate: config.webhookAllowPrivate });
  const adminApart = typeof config.adminListen === 'object' ? config.adminListen : undefined;
  const app = createApp(api, logger, { inFlight: metrics.inFlight, trustProxy: config.trustProxy, admin: adminApart ? undefined : admin });
  const tls = config.plainHttp
    ? undefined
    : await loadTlsIdentity(config.dataDir, config.tlsCert && config.tlsKey ? { cert: config.tlsCert, key: config.tlsKey } : undefined);
  let shuttingDown = false;
  const server = createListener(app, config, tls, () => shuttingDown);
  const adminServer = adminApart && createListener(createAdminApp(admin!, logger, { trustProxy: config.trustProxy }), config, tls, () => shuttingDown);
  const ops =
    config.opsPort === 'off'
      ? undefined
      : createOpsServer({
          orm,
          registry: metrics.registry,
          isShuttingDown: () => shuttingDown,
          writeHealth,
          rateLimitStoreReachable: rateLimiter.sharedStoreReachable,
        });
  try {
    await listen(server, config.port, config.host);
    if (adminServer) await listen(adminServer, adminApart.port, adminApart.host);
    if (ops) await listen(ops, config.opsPort as number, config.opsHost);
  } catch (error) {
    server.close();
    adminServer?.close();
    await release();
    throw error;
  }
  backfill = startHostBackfill(orm, logger);
  const scheme = tls ? 'https' : 'http';
  const port = (server.address() as AddressInfo).port;
  const url = baseUrl(scheme, config.host, port);
  const adminUrl = adminServer ? baseUrl(scheme, adminApart.host, (adminServer.address() as AddressInfo).port) : admin && url;
  const opsUrl = ops && baseUrl('http', config.opsHost, (ops.address() as AddressInfo).port);
  logger.info(
    {
      url,
      host: config.host,
      port,
      toolSegment: config.toolSegment,
      tls: tls ? (tls.selfSigned ? 'self-signed' : 'configured') : 'off',
      fingerprint256: tls?.fingerprint256,
      adminUrl: adminUrl ?? 'off',
      opsUrl: opsUrl ?? 'off',
      rateLimitStore: config.redisUrl ? 'redis' : 'memory',
      database: dialectOf(orm.em),
      pruneSchedule: pruning ? `${config.pruneIntervalMinutes} min` : 'off',
    },
    'audit server listening',
  );

  /** Stops `listener` accepting and waits for its requests in flight, closing their connections at the shutdown timeout. */
  const drain = async (listener: Server) => {
    const drained = once(listener, 'close');
    listener.close(); // stop accepting, close idle keep-alive connections
    // A busy connection turns idle once its answer is sent: close it then instead of letting it idle in keep-alive.
    const closeIdle = setInterval(() => listener.closeIdleConnections(), 50);
    const cutOff = setTimeout(() => {
      logger.warn({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'requests still in flight at shutdown timeout: closing their connections');
      listener.closeAllConnections();
    }, config.shutdownTimeoutSeconds * 1000);
    await drained;
    clearTimeout(cutOff);
    clearInterval(closeIdle);
  };
  let closing: Promise<void> | undefined;
  const close = async () => {
    shuttingDown = true;
    await Promise.all([drain(server), adminServer && drain(adminServer)]);
    if (ops) {
      const opsClosed = once(ops, 'close');
      ops.close();
      ops.closeAllConnections();
      await opsClosed;
    }
    await release();
    logger.info({}, 'audit server stopped');
  };

  return {
    url,
    port,
    fingerprint256: tls?.fingerprint256,
    adminUrl,
    opsUrl,
    close: () => (closing ??= close()),
  };
}

/**
 * An HTTPS server (HTTP without `tls`) for `app` with the configured timeouts and connection cap. Requests arriving
 * while shutting down are answered with `Connection: close`.
 */
function createListener(app: RequestListener, config: ServerConfig, tls: TlsIdentity | undefined, isShuttingDown: () => boolean): Server {
  // Slow clients hold a socket and, mid-upload, a slot of the in-flight cap: both timeouts bound that.
  // Node checks them only every `connectionsCheckingInterval` (30 s by default): check every second instead.
  const timeouts = { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1000 };
  const server: Server = tls
    ? createHttpsServer({ ...tlsServerOptions(tls, config.tlsHandshakeTimeoutMs), ...timeouts }, app)
    : createHttpServer(timeouts, app);
  capConnectionsPerAddress(server, config.maxConnectionsPerAddress);
  server.on('request', (_req, res: ServerResponse) => {
    if (isShuttingDown()) res.setHeader('connection', 'close');
  });
  return server;
}

/**
 * The admin API, loaded and built on its first request: its routes, exports and contract checks are no part of
 * answering collectors, so a start does not wait for them.
 */
function adminApiOnFirstUse(options: AdminApiOptions): AdminApi {
  const admin = onFirstUse(() => import('./admin/api.js').then(({ createAdminApi }) => createAdminApi(options)));
  return { handle: async (request) => (await admin()).handle(request) };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A URL to reach `host:port` from this machine (a wildcard address is shown as loopback). */
function baseUrl(scheme: string, host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${scheme}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
