import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { capConnectionsPerAddress } from './connection-cap.js';
import { tlsServerOptions, type TlsIdentity } from './tls.js';

/** The settings a listener is built with. */
export type ListenerSettings = Pick<
  ServerConfig,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'tlsHandshakeTimeoutMs' | 'maxConnectionsPerAddress' | 'shutdownTimeoutSeconds'
>;

/**
 * An HTTPS server (HTTP without `tls`) for `app` with the configured timeouts and connection cap. Requests arriving
 * while shutting down are answered with `Connection: close`.
 */
export function createListener(app: RequestListener, settings: ListenerSettings, tls: TlsIdentity | undefined, isShuttingDown: () => boolean): Server {
  // Slow clients hold a socket and, mid-upload, a slot of the in-flight cap: both timeouts bound that.
  // Node checks them only every `connectionsCheckingInterval` (30 s by default): check every second instead.
  const timeouts = { headersTimeout: settings.headersTimeoutMs, requestTimeout: settings.requestTimeoutMs, connectionsCheckingInterval: 1000 };
  const server: Server = tls
    ? createHttpsServer({ ...tlsServerOptions(tls, settings.tlsHandshakeTimeoutMs), ...timeouts }, app)
    : createHttpServer(timeouts, app);
  capConnectionsPerAddress(server, settings.maxConnectionsPerAddress);
  server.on('request', (_req, res: ServerResponse) => {
    if (isShuttingDown()) res.setHeader('connection', 'close');
  });
  return server;
}

/** Starts `server` listening on `host:port`; rejects when it cannot (the port taken, the address unknown). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The port a listening server was given (the one asked for, or a free one for port 0). */
export function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the listener is not listening on a TCP port');
  return address.port;
}

/** A URL to reach `host:port` from this machine (a wildcard address is shown as loopback). */
export function baseUrl(scheme: string, host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${scheme}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** Stops `listener` accepting and waits for its requests in flight, closing their connections at the shutdown timeout. */
export async function drainListener(listener: Server, settings: Pick<ListenerSettings, 'shutdownTimeoutSeconds'>, logger: Logger): Promise<void> {
  const drained = once(listener, 'close');
  listener.close(); // stop accepting, close idle keep-alive connections
  // A busy connection turns idle once its answer is sent: close it then instead of letting it idle in keep-alive.
  const closeIdle = setInterval(() => listener.closeIdleConnections(), 50);
  const cutOff = setTimeout(() => {
    logger.warn({ timeoutSeconds: settings.shutdownTimeoutSeconds }, 'requests still in flight at shutdown timeout: closing their connections');
    listener.closeAllConnections();
  }, settings.shutdownTimeoutSeconds * 1000);
  await drained;
  clearTimeout(cutOff);
  clearInterval(closeIdle);
}
