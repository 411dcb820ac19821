import { createSignInLockout } from './people/sign-in-lockout.js';
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { AuditApi } from '@org/audit-server-core';
import type { AdminApi } from './admin/api.js';
import type { ServerConfig } from './config.js';
import type { Database } from './database/dialect.js';
import { dialectOf } from './database/dialects.js';
import { openDatabase } from './database/open.js';
import { startHostBackfill, type HostBackfill } from './hosts/host-backfill.js';
import { lifecycleSettings } from './hosts/lifecycle-settings.js';
import { adminApiOnFirstUse, createAdminApp, createApp, type AppOptions } from './http/app.js';
import { enrollScriptRoute } from './enrollment/enroll-script-route.js';
import { enrollmentSettings, type EnrollmentSettings } from './enrollment/enrollment-settings.js';
import { recordScriptFetch } from './enrollment/script-fetch-record.js';
import { createCollectorApi } from './http/collector-api.js';
import { baseUrl, createListener, drainListener, listen, portOf } from './http/listeners.js';
import { createRateLimiter, rateLimitSettingsOf, type ClosableRateLimiter } from './http/rate-limiter-store.js';
import { tlsIdentityFor, type TlsIdentity } from './http/tls.js';
import { startBackgroundWork, stopBackgroundWork, wakeAfterCommit, type BackgroundWork } from './ops/background-work.js';
import { closeOpsServer, createOpsServer } from './ops/endpoints.js';
import { reclaimMemoryWhenIdle } from './ops/memory-reclaim.js';
import type { ServerMetrics } from './ops/metrics.js';
import { WriteHealth } from './ops/write-health.js';
import { OrmKeyStore } from './secrets/license-key-store.js';
import { singleSignOnOf } from './sso/single-sign-on.js';
import { digestLinkOf } from './digests/digest-records.js';

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
  const rateLimiter = await createRateLimiter(rateLimitSettingsOf(config, logger));
  const database = await openDatabase(config, (message) => logger.info({ component: 'database' }, message));
  const keyStore = await OrmKeyStore.open(database);
  // The compactor yields while uploads are in flight; it is started below, once `api` exists.
  // The digests' link names the dashboard's address, known once `enrollment` is: their work is started below.
  const work = startBackgroundWork(
    database,
    config,
    logger,
    () => api.bodyBytesInFlight() > 0,
    (id) => digestLinkOf(enrollment, id),
  );
  const writeHealth = new WriteHealth(database);
  const { api, metrics } = await createCollectorApi(config, logger, {
    database,
    keyStore,
    rateLimiter,
    writeHealth,
    rejections: work.rejections,
    onCommitted: () => wakeAfterCommit(work),
  });
  const reclaimer = reclaimMemoryWhenIdle(() => api.bodyBytesInFlight());
  work.compactor.start();
  /** Closes the stores; the key store writes the last-use times it still holds, the rejection log its counts. */
  const release = async (backfill?: HostBackfill) => {
    reclaimer.stop();
    await backfill?.stop();
    await rateLimiter.close();
    await stopBackgroundWork(work);
    await keyStore.close();
    await database.close();
  };
  const tls = await tlsIdentityFor(config);
  // The ports are known once the listeners listen, before any request can ask for them.
  const listening: { current?: Listeners } = {};
  const intakePort = () => portOf(listening.current!.collectors);
  const enrollment = enrollmentSettings({
    publicHost: config.publicHost,
    scheme: tls ? 'https' : 'http',
    certificate: tls?.cert,
    toolSegment: config.toolSegment,
    intakePort,
    dashboardPort: () => (listening.current?.admin ? portOf(listening.current.admin.server) : intakePort()),
  });
  work.digests.start();
  const admin = adminApiUnlessOff(config, logger, { database, rateLimiter, work, enrollment });
  const enrollScript = enrollScriptRoute({ database, settings: enrollment, rateLimiter, onFetch: recordScriptFetch(database, logger, work.webhookDispatcher) });
  let shuttingDown = false;
  const isShuttingDown = () => shuttingDown;
  const listeners = createListeners(config, logger, { api, admin, metrics, database, writeHealth, rateLimiter, tls, enrollScript }, isShuttingDown);
  listening.current = listeners;
  await listenAll(listeners, config).catch(async (error: unknown) => {
    listeners.collectors.close();
    listeners.admin?.server.close();
    await release();
    throw error;
  });
  /** Derives hosts stored before the current derivation, in the background now that the server listens. */
  const backfill = startHostBackfill(database, logger);
  const urls = urlsOf(listeners, config, tls ? 'https' : 'http', admin !== undefined);
  logListening(logger, config, { ...urls, tls, database: dialectOf(database.em), pruning: work.pruning !== undefined });
  const close = async () => {
    shuttingDown = true;
    await closeListeners(listeners, config, logger);
    await release(backfill);
    logger.info({}, 'audit server stopped');
  };
  let closing: Promise<void> | undefined;
  return { ...urls, fingerprint256: tls?.fingerprint256, close: () => (closing ??= close()) };
}

/** The admin API (built on its first request) unless the settings turn it off. */
function adminApiUnlessOff(
  config: ServerConfig,
  logger: Logger,
  parts: { database: Database; rateLimiter: ClosableRateLimiter; work: BackgroundWork; enrollment: EnrollmentSettings },
): AdminApi | undefined {
  if (config.adminListen === 'off') return undefined;
  const { database, rateLimiter, work, enrollment } = parts;
  return adminApiOnFirstUse({
    database,
    rateLimiter,
    logger,
    policyEvaluator: work.policyEvaluator,
    webhookDispatcher: work.webhookDispatcher,
    webhookAllowPrivate: config.webhookAllowPrivate,
    waiverMaxDays: config.waiverMaxDays,
    findingAcceptance: { approval: config.findingApproval, acceptRole: config.findingAcceptRole },
    sessionLimits: { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours },
    signInLockout: createSignInLockout(rateLimiter),
    enrollment,
    sso: singleSignOnOf(config, database),
    lifecycle: lifecycleSettings(config),
    hideLynisFindings: config.lynisOwnFindings === 'hide',
    digests: { link: (id) => digestLinkOf(enrollment, id), mailEnabled: config.smtpUrl !== undefined, work: work.digests },
  });
}

/** The server's listeners: the collectors', the admin API's when it has an address of its own, the operations endpoints' unless off. */
interface Listeners {
  collectors: Server;
  admin?: { server: Server; host: string; port: number };
  ops?: Server;
}

/** What the listeners serve. */
interface ListenerParts {
  api: AuditApi;
  admin: AdminApi | undefined;
  metrics: ServerMetrics;
  database: Database;
  writeHealth: WriteHealth;
  rateLimiter: ClosableRateLimiter;
  tls: TlsIdentity | undefined;
  /** `GET /enroll.sh`, on the collectors' listener. */
  enrollScript: AppOptions['enrollScript'];
}

/** The listeners the settings ask for, not yet listening; the admin API is served on the collectors' port unless it has its own. */
function createListeners(config: ServerConfig, logger: Logger, parts: ListenerParts, isShuttingDown: () => boolean): Listeners {
  const { api, admin, metrics, tls } = parts;
  const adminApart = typeof config.adminListen === 'object' ? config.adminListen : undefined;
  const app = createApp(api, logger, {
    inFlight: metrics.inFlight,
    trustProxy: config.trustProxy,
    admin: adminApart ? undefined : admin,
    enrollScript: parts.enrollScript,
  });
  const collectors = createListener(app, config, tls, isShuttingDown);
  const adminServer = adminApart && admin && createListener(createAdminApp(admin, logger, { trustProxy: config.trustProxy }), config, tls, isShuttingDown);
  const ops =
    config.opsPort === 'off'
      ? undefined
      : createOpsServer({
          orm: parts.database,
          registry: metrics.registry,
          isShuttingDown,
          writeHealth: parts.writeHealth,
          rateLimitStoreReachable: parts.rateLimiter.sharedStoreReachable,
        });
  return { collectors, admin: adminApart && adminServer ? { ...adminApart, server: adminServer } : undefined, ops };
}

/** Starts every listener, the collectors' first; rejects at the first that cannot listen. */
async function listenAll(listeners: Listeners, config: ServerConfig): Promise<void> {
  await listen(listeners.collectors, config.port, config.host);
  if (listeners.admin) await listen(listeners.admin.server, listeners.admin.port, listeners.admin.host);
  if (listeners.ops && config.opsPort !== 'off') await listen(listeners.ops, config.opsPort, config.opsHost);
}

/** Where the listening server is reached. */
function urlsOf(
  listeners: Listeners,
  config: ServerConfig,
  scheme: 'http' | 'https',
  adminServed: boolean,
): Pick<RunningServer, 'url' | 'port' | 'adminUrl' | 'opsUrl'> {
  const port = portOf(listeners.collectors);
  const url = baseUrl(scheme, config.host, port);
  const { admin, ops } = listeners;
  const adminUrl = admin ? baseUrl(scheme, admin.host, portOf(admin.server)) : adminServed ? url : undefined;
  const opsUrl = ops && baseUrl('http', config.opsHost, portOf(ops));
  return { url, port, adminUrl, opsUrl };
}

/** The start's log line: where the server listens and with what. */
function logListening(
  logger: Logger,
  config: ServerConfig,
  started: Pick<RunningServer, 'url' | 'port' | 'adminUrl' | 'opsUrl'> & { tls: TlsIdentity | undefined; database: string; pruning: boolean },
): void {
  const { url, port, adminUrl, opsUrl, tls } = started;
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
      database: started.database,
      pruneSchedule: started.pruning ? `${config.pruneIntervalMinutes} min` : 'off',
    },
    'audit server listening',
  );
}

/** Drains the collectors' and the admin listeners together, then closes the operations endpoints. */
async function closeListeners(listeners: Listeners, config: ServerConfig, logger: Logger): Promise<void> {
  await Promise.all([drainListener(listeners.collectors, config, logger), listeners.admin && drainListener(listeners.admin.server, config, logger)]);
  if (listeners.ops) await closeOpsServer(listeners.ops);
}
