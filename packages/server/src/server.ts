import { mkdir } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createAuditApi } from '@org/audit-server-core';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { openDatabase } from './database.js';
import { createRateLimiter } from './rate-limits.js';
import { OrmKeyStore, OrmReportStore } from './stores.js';
import { loadTlsIdentity } from './tls.js';

/** A started server. */
export interface RunningServer {
  /** Base URL, e.g. `https://127.0.0.1:8443`. */
  url: string;
  port: number;
  /** SHA-256 fingerprint of the certificate served, when serving HTTPS. */
  fingerprint256?: string;
  /** Stops accepting connections, waits for requests in flight, closes the database. */
  close(): Promise<void>;
}

/** Opens the data directory and serves the audit API on it. */
export async function startServer(config: ServerConfig, logger: Logger): Promise<RunningServer> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // First, so that an unreachable Redis stops the start before anything else is opened.
  const rateLimiter = await createRateLimiter({
    perAddressPerMinute: config.rateLimitAddress,
    perKeyPerMinute: config.rateLimitKey,
    failuresPer10Minutes: config.rateLimitFailures,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
  });
  const orm = await openDatabase(config.dataDir, (message) => logger.info({ component: 'database' }, message));
  const keyStore = await OrmKeyStore.open(orm);
  const release = async () => {
    await rateLimiter.close();
    await keyStore.close();
    await orm.close();
  };
  const api = await createAuditApi({
    keyStore,
    reportStore: new OrmReportStore(orm),
    toolSegment: config.toolSegment,
    maxBodyBytes: config.maxBodyBytes,
    maxFields: config.maxFields,
    maxUploadsInFlight: config.maxUploadsInFlight,
    rateLimiter,
    logger,
  });
  const app = createApp(api, logger, { trustProxy: config.trustProxy });
  const tls = config.plainHttp
    ? undefined
    : await loadTlsIdentity(config.dataDir, config.tlsCert && config.tlsKey ? { cert: config.tlsCert, key: config.tlsKey } : undefined);
  // Slow clients hold a socket and, mid-upload, a slot of the in-flight cap: both timeouts bound that.
  // Node checks them only every `connectionsCheckingInterval` (30 s by default): check every second instead.
  const timeouts = { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1000 };
  const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key, ...timeouts }, app) : createHttpServer(timeouts, app);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `${tls ? 'https' : 'http'}://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  logger.info(
    {
      url,
      host: config.host,
      port,
      toolSegment: config.toolSegment,
      tls: tls ? (tls.selfSigned ? 'self-signed' : 'configured') : 'off',
      fingerprint256: tls?.fingerprint256,
      rateLimitStore: config.redisUrl ? 'redis' : 'memory',
    },
    'audit server listening',
  );

  return {
    url,
    port,
    fingerprint256: tls?.fingerprint256,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await release(); // the key store writes the last-use times it still holds
    },
  };
}
