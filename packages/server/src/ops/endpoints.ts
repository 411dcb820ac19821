import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Database } from '../database/dialect.js';
import { migratorOf } from '../database/open.js';
import type { Registry } from 'prom-client';
import type { WriteHealth } from './write-health.js';

/** What the operations endpoints look at. */
export interface OpsTarget {
  orm: Database;
  registry: Registry;
  /** True once shutdown began: the server is draining and should get no new traffic. */
  isShuttingDown(): boolean;
  /** Whether the database takes writes; unset, only reachability is checked. */
  writeHealth?: WriteHealth;
  /** Whether the rate limits' Redis is reachable (unset without Redis): while not, the server is ready but says so. */
  rateLimitStoreReachable?: () => boolean;
}

/** Why the server is not ready, or undefined when it is. */
export async function readinessProblem(target: OpsTarget): Promise<string | undefined> {
  if (target.isShuttingDown()) return 'shutting down';
  try {
    await target.orm.em.getConnection().execute('select 1');
  } catch {
    return 'database unreachable';
  }
  const pending = await (await migratorOf(target.orm)).getPendingMigrations();
  if (pending.length > 0) return `${pending.length} migration(s) not applied`;
  if (target.writeHealth && !(await target.writeHealth.writable())) return 'database not writable';
  return undefined;
}

/** `ready`, with what works only in a degraded way: the memory limiter keeps serving while Redis is away. */
function readyText(target: OpsTarget): string {
  return target.rateLimitStoreReachable?.() === false ? 'ready (rate limits counted in memory: Redis unreachable)' : 'ready';
}

/**
 * The operations server: `GET /healthz` (alive), `/readyz` (database reachable and taking writes, migrations applied, not draining)
 * and `/metrics` (Prometheus text). Plain HTTP, meant for a loopback or internal address only.
 */
export function createOpsServer(target: OpsTarget): Server {
  return createServer((req, res) => {
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8') =>
      void res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Method not allowed: use GET');
    if (path === '/healthz') return send(200, 'ok');
    if (path === '/readyz') {
      readinessProblem(target).then(
        (problem) => (problem ? send(503, `not ready: ${problem}`) : send(200, readyText(target))),
        () => send(503, 'not ready: check failed'),
      );
      return;
    }
    if (path === '/metrics') {
      target.registry.metrics().then(
        (text) => send(200, text, target.registry.contentType),
        () => send(500, 'metrics unavailable'),
      );
      return;
    }
    send(404, 'Not found');
  });
}

/** Closes the operations server at once: its connections carry probes and scrapes, which are not waited for. */
export async function closeOpsServer(ops: Server): Promise<void> {
  const closed = once(ops, 'close');
  ops.close();
  ops.closeAllConnections();
  await closed;
}
