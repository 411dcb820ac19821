import type { Logger } from 'pino';
import { createAuditApi, type AuditApi, type KeyStore } from '@org/audit-server-core';
import type { ServerConfig } from '../config.js';
import type { Database } from '../database/dialect.js';
import { createMetrics, type ServerMetrics } from '../ops/metrics.js';
import { registerPostureGauges } from '../ops/posture-metrics.js';
import type { WriteHealth } from '../ops/write-health.js';
import type { RejectionLog } from '../refusals/rejection-log.js';
import { OrmReportStore } from '../reports/report-store.js';
import type { ClosableRateLimiter } from './rate-limiter-store.js';

/** The parts the collector API stands on. */
export interface CollectorApiParts {
  database: Database;
  keyStore: KeyStore;
  rateLimiter: ClosableRateLimiter;
  writeHealth: WriteHealth;
  /** Told of every refused request. */
  rejections: RejectionLog;
  /** Told after every committed group of uploads. */
  onCommitted(): void;
}

/**
 * Core's audit API (license checks and uploads) over the server's stores, with its limits from the settings, and
 * the metrics its hooks feed.
 */
export async function createCollectorApi(config: ServerConfig, logger: Logger, parts: CollectorApiParts): Promise<{ api: AuditApi; metrics: ServerMetrics }> {
  const { database, keyStore, rateLimiter, writeHealth, rejections, onCommitted } = parts;
  const metrics = createMetrics({ bodyBytesInFlight: () => api.bodyBytesInFlight(), rateLimitStoreReachable: rateLimiter.sharedStoreReachable });
  registerPostureGauges(metrics.registry, { database, logger, hideLynisFindings: config.lynisOwnFindings === 'hide' });
  const api: AuditApi = await createAuditApi({
    keyStore,
    reportStore: new OrmReportStore(database, {
      writeHealth,
      admission: { hostIdentity: config.hostIdentity, newHostsPerDay: config.keyNewHostsPerDay, identityMerge: config.identityMerge },
      onCommitted,
      logger,
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
        const counted = metrics.hooks.onRequestRejected?.(event);
        rejections.record(event);
        return counted;
      },
    },
  });
  return { api, metrics };
}
